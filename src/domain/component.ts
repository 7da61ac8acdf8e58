/**
 * The typed inputs of a map-unit summary, and the first step of every method: one component's
 * value of a property over a depth interval. Pure functions, no I/O.
 *
 * A horizon counts with the part of it that overlaps [top, bottom): a 0–23 cm Ap in a 0–30 cm
 * interval weighs 23 cm, a 23–41 cm Bw weighs 7 cm. Horizons without depths or without a value are
 * skipped, as NRCS does.
 */
import type { SummaryProperty } from "./summary-property";

export interface SummaryHorizon {
  /** chorizon.chkey */
  key: string;
  /** hzname, e.g. Ap */
  name: string | null;
  /** hzdept_r / hzdepb_r, cm */
  top: number | null;
  bottom: number | null;
  /** Numeric chorizon columns by column name (awc_r, claytotal_r, ...); null where SSURGO has none. */
  values: Readonly<Record<string, number | null>>;
  /** chtexturegrp.texture of the representative texture group (rvindicator Yes), e.g. "L". */
  texture: string | null;
}

export interface SummaryComponent {
  /** component.cokey */
  key: string;
  name: string;
  /** compkind: Series, Taxadjunct, Miscellaneous area, ... */
  kind: string | null;
  /** comppct_r */
  percent: number | null;
  /** majcompflag = Yes */
  major: boolean;
  taxonomic_class: string | null;
  /** slope_r, % */
  slope: number | null;
  drainage_class: string | null;
  hydrologic_group: string | null;
  /** Ordered by top depth; empty for Urban land, Water and other components without horizon data. */
  horizons: readonly SummaryHorizon[];
}

export interface DepthInterval {
  top_cm: number;
  bottom_cm: number;
}

/** A horizon's share of the interval and its (possibly derived) value. */
export interface HorizonPiece {
  key: string;
  top: number;
  bottom: number;
  value: number | null;
  category: string | null;
}

/** One component's reading of a property over the interval. */
export interface ComponentReading {
  component: SummaryComponent;
  value: number | null;
  category: string | null;
  /** The part of the interval the horizons with values cover; null for component-level properties. */
  covered: DepthInterval | null;
  /** The horizons whose values made the reading. */
  horizonKeys: string[];
  /** Every overlapping horizon with a value (min/max search these). */
  pieces: HorizonPiece[];
  /** Why there is no value: "no horizons", "no values in the interval", "no value". */
  missing: string | null;
}

export const MISCELLANEOUS_AREA = "miscellaneous area";

export function isMiscellaneousArea(component: SummaryComponent): boolean {
  return (component.kind ?? "").trim().toLowerCase() === MISCELLANEOUS_AREA;
}

/** Component keys are digit strings: compare them as numbers so "9" sorts before "10". */
export function compareKeys(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  return a < b ? -1 : a > b ? 1 : 0;
}

const COMPONENT_FIELDS: Record<string, (c: SummaryComponent) => number | string | null> = {
  slope_r: (c) => c.slope,
  drainagecl: (c) => c.drainage_class,
  hydgrp: (c) => c.hydrologic_group,
  taxclname: (c) => c.taxonomic_class,
};

function overlapPieces(component: SummaryComponent, property: SummaryProperty, depth: DepthInterval): HorizonPiece[] {
  const pieces: HorizonPiece[] = [];
  for (const h of component.horizons) {
    if (h.top === null || h.bottom === null) continue;
    const top = Math.max(h.top, depth.top_cm);
    const bottom = Math.min(h.bottom, depth.bottom_cm);
    if (bottom <= top) continue;
    if (property.kind === "class") {
      if (h.texture !== null && h.texture !== "") pieces.push({ key: h.key, top, bottom, value: null, category: h.texture });
      continue;
    }
    const raw = h.values[property.column] ?? null;
    if (raw === null || !Number.isFinite(raw)) continue;
    const value = property.derived ? raw / property.derived.factor : raw;
    pieces.push({ key: h.key, top, bottom, value, category: null });
  }
  return pieces;
}

/** The class covering the greatest thickness; a tie goes to the class reached first from the top. */
function thickestClass(pieces: readonly HorizonPiece[]): string | null {
  const thickness = new Map<string, number>();
  for (const p of pieces) thickness.set(p.category!, (thickness.get(p.category!) ?? 0) + (p.bottom - p.top));
  let best: string | null = null;
  for (const [category, t] of thickness) if (best === null || t > thickness.get(best)!) best = category;
  return best;
}

function horizonReading(component: SummaryComponent, property: SummaryProperty, depth: DepthInterval): ComponentReading {
  const pieces = overlapPieces(component, property, depth);
  if (pieces.length === 0) {
    const missing = component.horizons.length === 0 ? "no horizons" : "no values in the interval";
    return { component, value: null, category: null, covered: null, horizonKeys: [], pieces, missing };
  }
  const covered = { top_cm: Math.min(...pieces.map((p) => p.top)), bottom_cm: Math.max(...pieces.map((p) => p.bottom)) };
  if (property.kind === "class") {
    const category = thickestClass(pieces);
    const horizonKeys = pieces.filter((p) => p.category === category).map((p) => p.key);
    return { component, value: null, category, covered, horizonKeys, pieces, missing: null };
  }
  let sum = 0;
  let thickness = 0;
  for (const p of pieces) {
    sum += p.value! * (p.bottom - p.top);
    thickness += p.bottom - p.top;
  }
  const value = property.storage ? sum : sum / thickness;
  return { component, value, category: null, covered, horizonKeys: pieces.map((p) => p.key), pieces, missing: null };
}

function componentLevelReading(component: SummaryComponent, property: SummaryProperty): ComponentReading {
  const read = COMPONENT_FIELDS[property.column];
  if (!read) throw new Error(`summary property ${property.id}: no component field for column ${property.column}`);
  const raw = read(component);
  const value = typeof raw === "number" && Number.isFinite(raw) ? raw : null;
  const category = typeof raw === "string" && raw !== "" ? raw : null;
  const has = property.kind === "class" ? category !== null : value !== null;
  return {
    component,
    value: property.kind === "numeric" ? value : null,
    category: property.kind === "class" ? category : null,
    covered: null,
    horizonKeys: [],
    pieces: [],
    missing: has ? null : "no value",
  };
}

/** One component's value (or class) of `property` over `depth`. */
export function readComponent(component: SummaryComponent, property: SummaryProperty, depth: DepthInterval): ComponentReading {
  return property.level === "component" ? componentLevelReading(component, property) : horizonReading(component, property, depth);
}

export function hasReading(r: ComponentReading): boolean {
  return r.missing === null;
}
