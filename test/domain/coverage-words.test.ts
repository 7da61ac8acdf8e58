/**
 * A snapshot's coverage in warnings (docs/decisions.md#coverage-messages): a few datasets are named one by
 * one, as ever; a national mirror's thousand survey areas are counted with their first and last symbols
 * and where the whole list is, so a point's answer does not carry every area's label.
 */
import { describe, expect, test } from "bun:test";
import { coverageWords, NAMED_DATASETS, noMapUnitReasonIn, type CoverageSource } from "../../src/domain/coverage";

const SCOPE = { countries: ["840"], sentence: "SSURGO covers the United States and territories only" };

/** A mirror's datasets as its files describe them: `areas` survey areas ZA001…, one lab collection, one series set. */
function mirror(areas: number): Required<Pick<CoverageSource, "kind" | "coverage" | "datasets" | "areas">> {
  const symbols = Array.from({ length: areas }, (_, i) => `Z${String.fromCharCode(65 + Math.floor(i / 100))}${String((i % 100) + 1).padStart(3, "0")}`);
  const datasets = [
    ...symbols.map((id, i) => ({ kind: "ssurgo", id, label: `SSURGO ${id} Synthetic area ${id}`, bbox: [-96 + i * 0.1, 40, -95.9 + i * 0.1, 40.1] as [number, number, number, number] })),
    { kind: "kssl", id: "US", label: "KSSL national lab pedons (65000)", bbox: null },
    { kind: "usda_osd", id: "series", label: "Soil series descriptions (145, SoilKnowledgeBase JSON)", bbox: null },
  ];
  return {
    kind: "snapshot",
    coverage: datasets.map((d) => d.label),
    datasets,
    areas: datasets.flatMap((d) => (d.kind === "ssurgo" && d.bbox ? [{ symbol: d.id, bbox: d.bbox }] : [])),
  };
}

describe("coverage in words", () => {
  test("a few datasets: every label, in the source's order", () => {
    const source = mirror(NAMED_DATASETS - 2);
    expect(coverageWords(source)).toBe(source.coverage.join("; "));
  });

  test("a thousand survey areas: counted, first and last, the other kinds named, the list's place said", () => {
    const source = mirror(1000);
    const words = coverageWords(source);
    // Kinds in the order one file lists its labels (by kind, descending), as the few-datasets case does.
    expect(words).toBe("Soil series descriptions (145, SoilKnowledgeBase JSON); SSURGO 1,000 datasets, ZA001 to ZJ100; KSSL national lab pedons (65000) (GET /v1/layers lists each with its box)");
    expect(words.length).toBeLessThan(300);
  });

  test("a point outside a large mirror names the areas by count and range", () => {
    const reason = noMapUnitReasonIn(SCOPE, mirror(1000), [-80, 35, -80, 35]);
    expect(reason).toBe("it lies outside this offline snapshot (areas: 1,000 survey areas, ZA001 to ZJ100; GET /v1/layers lists each with its box); live mode (LOAM_UPSTREAM=sda) covers every US survey.");
    expect(noMapUnitReasonIn(SCOPE, mirror(3), [-80, 35, -80, 35])).toContain("(areas: ZA001, ZA002, ZA003)");
  });
});
