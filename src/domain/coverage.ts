/**
 * Why a point has no map unit, in words a user can act on (docs/decisions.md#coverage-messages):
 * - inside a survey area the snapshot holds, but in no polygon: "no map unit here" (water, a gap);
 * - inside a country the provider does not map (Paris): its scope sentence (e.g. that it covers the United
 *   States and territories only), as the provider declares it (docs/decisions.md#provider-words);
 * - anywhere else with the offline snapshot (Nebraska): outside this offline snapshot, which areas it holds,
 *   and that live mode covers every US survey;
 * - anywhere else in live mode: no completed survey covers it, or it lies in water.
 * Countries are Natural Earth's 1:50m outlines (world-atlas, already served to the map page), read once.
 */
import { readFileSync } from "node:fs";
// Imported as a file (its path), as the executable's generated entry imports the map page's copy
// (scripts/build.ts): one file, embedded by `bun build --compile` and read here when first needed. A
// JSON-module import of the same file would turn the entry's import into an object too, and the compiled
// map page would lose it.
import worldFile from "world-atlas/countries-50m.json" with { type: "file" };
import { pointInRings } from "../geometry/rings";

/** What the messages read of a source (the transport's SourceDescription has this shape). */
export interface CoverageSource {
  /** snapshot, sda, … */
  kind: string;
  /** Snapshot only: the lab collections and survey areas it holds, as labels. */
  coverage?: string[];
  /** Snapshot only: every dataset it holds, by the kind its importer wrote, with its box [w, s, e, n] when stated. */
  datasets?: { kind: string; id: string; label: string; bbox: [number, number, number, number] | null }[];
  /** Snapshot only: each survey area with the box [w, s, e, n] of its polygons. */
  areas?: { symbol: string; bbox: [number, number, number, number] }[];
}

/** Where a mapped provider maps, as it declares it: the countries (ISO 3166-1 numeric codes) and the sentence saying so. */
export interface MappedScope {
  countries: readonly string[];
  /** Without a final stop, e.g. "<name> covers the United States and territories only". */
  sentence: string;
}

export const LIVE_COVERS_ALL = "live mode (LOAM_UPSTREAM=sda) covers every US survey";

/**
 * At most this many datasets (or survey areas) are named one by one in a sentence; more are counted, so a
 * national mirror's thousand survey areas do not add 100 KB to every answer (docs/decisions.md#coverage-messages).
 */
export const NAMED_DATASETS = 12;
const WHERE_LISTED = "GET /v1/layers lists each with its box";

/** `ids` by count and range when there are more than NAMED_DATASETS, else each (joined by `separator`). */
function idsInWords(ids: readonly string[], noun: string, separator: string): string {
  if (ids.length <= NAMED_DATASETS) return ids.join(separator);
  const sorted = [...ids].sort();
  return `${sorted.length.toLocaleString("en-US")} ${noun}, ${sorted[0]} to ${sorted.at(-1)}`;
}

/**
 * What a snapshot holds, in words for a warning: each dataset's label when there are a few; else, per kind,
 * the labels of a kind with a few, and for a kind with many the count and the first and last ids, with
 * where the whole list is served.
 */
export function coverageWords(source: Pick<CoverageSource, "coverage" | "datasets">): string {
  const datasets = source.datasets ?? [];
  if (datasets.length <= NAMED_DATASETS) return (source.coverage ?? datasets.map((d) => d.label)).join("; ");
  // A source's datasets never change while it is served: its words are made once, not per answer.
  let words = countedWords.get(datasets);
  if (words === undefined) countedWords.set(datasets, (words = countedCoverage(datasets)));
  return words;
}

const countedWords = new WeakMap<readonly object[], string>();

function countedCoverage(datasets: NonNullable<CoverageSource["datasets"]>): string {
  const kinds = new Map<string, { id: string; label: string }[]>();
  for (const d of datasets) {
    const held = kinds.get(d.kind);
    if (held) held.push(d);
    else kinds.set(d.kind, [d]);
  }
  // Kinds in the order one file lists its labels (by kind, descending: src/upstream/snapshot.ts coverageOf).
  const parts = [...kinds.entries()].sort(([a], [b]) => b.localeCompare(a)).map(([, held]) => {
    if (held.length <= 3) return held.map((d) => d.label).sort().join("; ");
    // A label begins with its source's short name (SSURGO IA073 …).
    const source = held[0]!.label.split(" ")[0];
    return `${source} ${idsInWords(held.map((d) => d.id), "datasets", ", ")}`;
  });
  return `${parts.join("; ")} (${WHERE_LISTED})`;
}

type Ring = [number, number][];
interface Country {
  name: string;
  id: string;
  box: [number, number, number, number];
  /** Every ring of its (multi)polygon, outer rings and holes: the even-odd test needs no grouping. */
  rings: Ring[];
}

interface Topology {
  transform: { scale: [number, number]; translate: [number, number] };
  arcs: [number, number][][];
  objects: { countries: { geometries: { type: string; id?: string; properties?: { name?: string }; arcs: unknown }[] } };
}

let countries: Country[] | null = null;

/** The TopoJSON arcs as absolute lon/lat (quantized, delta-encoded in the file). */
function decodeArcs(topology: Topology): Ring[] {
  const [sx, sy] = topology.transform.scale;
  const [tx, ty] = topology.transform.translate;
  return topology.arcs.map((arc) => {
    let x = 0, y = 0;
    return arc.map(([dx, dy]) => {
      x += dx;
      y += dy;
      return [x * sx + tx, y * sy + ty] as [number, number];
    });
  });
}

function loadCountries(): Country[] {
  if (countries) return countries;
  const topology = JSON.parse(readFileSync(worldFile as unknown as string, "utf8")) as Topology;
  const arcs = decodeArcs(topology);
  const ring = (indexes: number[]): Ring => indexes.flatMap((i, k) => {
    const points = i >= 0 ? arcs[i]! : arcs[~i]!.slice().reverse();
    return k === 0 ? points : points.slice(1);
  });
  countries = topology.objects.countries.geometries
    .filter((g) => g.type === "Polygon" || g.type === "MultiPolygon")
    .map((g) => {
      const polygons = (g.type === "Polygon" ? [g.arcs as number[][]] : (g.arcs as number[][][])).map((rings) => rings.map(ring));
      const points = polygons.flat(2);
      const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
      return { name: g.properties?.name ?? "", id: String(g.id ?? ""), box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)], rings: polygons.flat() };
    });
  return countries;
}

/** The Natural Earth country a point lies in, or null (sea, or a coast finer than 1:50m). */
export function countryAt(lon: number, lat: number): { name: string; id: string } | null {
  for (const c of loadCountries()) {
    const [w, s, e, n] = c.box;
    if (lon < w || lon > e || lat < s || lat > n) continue;
    // Even-odd over every ring: holes excluded (geometry/rings.ts).
    if (pointInRings(c.rings, lon, lat)) return { name: c.name, id: c.id };
  }
  return null;
}

/**
 * Why a place has no map unit (the reason after "falls in no … map unit: "), for a point or an area
 * given as its box [w, s, e, n]: one wording on every route (docs/decisions.md#coverage-messages).
 * `source.areas` (snapshot only) are the survey areas the snapshot holds, each with the box of its polygons.
 */
export function noMapUnitReasonIn(scope: MappedScope, source: CoverageSource, [west, south, east, north]: readonly [number, number, number, number]): string {
  const areas = source.areas ?? [];
  const within = areas.find(({ bbox: [w, s, e, n] }) => east >= w && west <= e && north >= s && south <= n);
  if (within) return `no map unit here, inside survey area ${within.symbol} of this snapshot (water, or a gap between its polygons).`;
  const country = countryAt((west + east) / 2, (south + north) / 2);
  if (country && !scope.countries.includes(country.id)) return `it lies in ${country.name}, and ${scope.sentence}.`;
  if (source.kind === "snapshot") {
    const named = areas.length > NAMED_DATASETS ? `${idsInWords(areas.map((a) => a.symbol), "survey areas", ", ")}; ${WHERE_LISTED}` : areas.map((a) => a.symbol).join(", ");
    return `it lies outside this offline snapshot (areas: ${named || "none"}); ${LIVE_COVERS_ALL}.`;
  }
  return "no completed soil survey covers it, or it lies in water or outside the data.";
}

/** The reason for a point. */
export function noMapUnitReason(scope: MappedScope, source: CoverageSource, latitude: number, longitude: number): string {
  return noMapUnitReasonIn(scope, source, [longitude, latitude, longitude, latitude]);
}

/** The sentence for a point with no map unit, as every point route says it. */
export function pointWithoutMapUnit(provider: string, scope: MappedScope, source: CoverageSource, latitude: number, longitude: number): string {
  return `The point (${latitude}, ${longitude}) falls in no ${provider} map unit: ${noMapUnitReason(scope, source, latitude, longitude)}`;
}

/** The sentence for an area no map-unit polygon meets, as the area report says it. */
export function areaWithoutMapUnit(provider: string, scope: MappedScope, source: CoverageSource, box: readonly [number, number, number, number]): string {
  return `The area falls in no ${provider} map unit (mapped_percent 0): ${noMapUnitReasonIn(scope, source, box)}`;
}
