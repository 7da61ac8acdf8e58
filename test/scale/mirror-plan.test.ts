/**
 * The national mirror bench's states (bench/scale/mirror.ts, docs/decisions.md#scale-bench), at full
 * size and with the 11th state it adds: area symbols in SSURGO's shape and distinct, keys distinct across
 * every area and under 2^31 (the map-unit route refuses larger), and each state line a real border: the
 * east state's first column of tiles between the west state's last two, so both states' area boxes hold
 * it while no two polygons overlap. IA073's keys and box are read here from its files (the key is each
 * WSS table's last column; the box is the shapefile's).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as shapefile from "shapefile";
import { sizesAt } from "../../bench/scale/generate";
import { PER_ROW, planState, STATES } from "../../bench/scale/mirror";
import { TILE_STEP } from "../../bench/scale/ssurgo";
import { DATA_DIR } from "../support/server";

const AREA = join(DATA_DIR, "ssurgo", "IA073-aoi");
const sizes = sizesAt(100);

/** A key kind's smallest and largest value in IA073: its table's last column. */
function keyRange(file: string): [number, number] {
  const keys = readFileSync(join(AREA, "tabular", file), "latin1").split(/\r?\n/).filter(Boolean).map((line) => Number(line.split("|").at(-1)!.replace(/"/g, "")));
  return [Math.min(...keys), Math.max(...keys)];
}

const source = await shapefile.open(join(AREA, "spatial", "soilmu_a_aoi.shp"));
const box = source.bbox;
let polygonsPerTile = 0;
while (!(await source.read()).done) polygonsPerTile++;
const states = Array.from({ length: STATES + 1 }, (_, s) => planState(s, sizes, polygonsPerTile));
const areas = states.flatMap((s) => s.areas);

describe("bench:scale mirror: eleven states of 100 areas", () => {

  test("area symbols are two letters and three digits, one state's letters each, all distinct", () => {
    expect(areas).toHaveLength(1100);
    for (const area of areas) expect(area.areasymbol).toMatch(/^Z[A-K]\d{3}$/);
    expect(new Set(areas.map((a) => a.areasymbol)).size).toBe(areas.length);
    expect(states.map((s) => new Set(s.areas.map((a) => a.areasymbol.slice(0, 2))).size)).toEqual(states.map(() => 1));
  });

  test("each kind of key is distinct across all areas and stays under 2^31", () => {
    const offsets = areas.map((a) => a.keyOffset).sort((a, b) => a - b);
    const gap = Math.min(...offsets.slice(1).map((o, i) => o - offsets[i]!));
    for (const file of ["legend.txt", "mapunit.txt", "comp.txt", "chorizon.txt", "chtexgrp.txt"]) {
      const [low, high] = keyRange(file);
      expect([file, high - low < gap]).toEqual([file, true]);
      expect([file, high + offsets.at(-1)! <= 2_147_483_647]).toEqual([file, true]);
    }
  });

  test("on each state line the east state's first column of tiles lies between the west state's last two", () => {
    const aoiWidth = box[2] - box[0];
    expect(aoiWidth).toBeLessThan(TILE_STEP / 2); // interleaved tiles never overlap
    for (const [s, west] of states.entries()) {
      const east = states[s + 1];
      if (!east || s % PER_ROW === PER_ROW - 1) continue;
      const lastColumn = Math.max(...west.areas.map((a) => a.offset[0] + (a.tilesPerSide - 1) * TILE_STEP));
      const firstColumn = Math.min(...east.areas.map((a) => a.offset[0]));
      expect(firstColumn).toBeGreaterThan(lastColumn - TILE_STEP + aoiWidth);
      expect(firstColumn + aoiWidth).toBeLessThan(lastColumn);
      expect(east.plan.origin[1]).toBe(west.plan.origin[1]);
    }
  });
});
