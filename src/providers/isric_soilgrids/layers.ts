/**
 * SoilGrids' layers as Loam serves them (docs/decisions.md#isric-soilgrids): each layer's canonical
 * property id, its mapped unit and conversion factor (d_factor) as the REST API states them, and the
 * step from the API's target unit to the vocabulary's unit. Values arrive as integers in mapped units;
 * a live answer's own d_factor is trusted over ISRIC's FAQ where the two differ (cfvo: 10, the FAQ says 100).
 */
import type { ValueDepth } from "../provider";

export interface SoilGridsLayer {
  /** SoilGrids' layer name (the REST `property`, the raster file prefix). */
  name: string;
  /** The canonical property id it answers. */
  property: string;
  mappedUnit: string;
  /** The conversion factor the API states (mapped value / d_factor = target unit). */
  dFactor: number;
  /** The API's target unit label. */
  targetUnit: string;
  /** The vocabulary's unit, and what to divide the target-unit value by to reach it (1: the same quantity and unit). */
  unit: string;
  toUnit: { divisor: number; from: string } | null;
  meaning: string;
  /** Its own depths when they are not the standard six (ocs: 0-30 cm only). */
  depths?: readonly ValueDepth[];
  /** The largest mapped value the quantity allows, where it has a bound of its own (a fraction: 1000 g/kg; pH 14); else the storage's. */
  maxMapped?: number;
  /** A note every observation of this layer carries (documented unit conflicts). */
  note?: string;
}

export const STANDARD_DEPTHS: readonly ValueDepth[] = [
  { label: "0-5cm", top: 0, bottom: 5 },
  { label: "5-15cm", top: 5, bottom: 15 },
  { label: "15-30cm", top: 15, bottom: 30 },
  { label: "30-60cm", top: 30, bottom: 60 },
  { label: "60-100cm", top: 60, bottom: 100 },
  { label: "100-200cm", top: 100, bottom: 200 },
];

/** Every statistic the model serves, asked on each call. */
export const STATISTICS = ["mean", "Q0.05", "Q0.5", "Q0.95", "uncertainty"] as const;
export type Statistic = (typeof STATISTICS)[number];

/** The `uncertainty` statistic is stored x10 for every layer, whatever its d_factor (docs/decisions.md#isric-soilgrids). */
export const UNCERTAINTY_FACTOR = 10;

export const SOILGRIDS_LAYERS: readonly SoilGridsLayer[] = [
  { name: "clay", property: "clay", mappedUnit: "g/kg", dFactor: 10, targetUnit: "%", unit: "%", toUnit: null, maxMapped: 1000, meaning: "Clay content of the fine earth" },
  { name: "sand", property: "sand", mappedUnit: "g/kg", dFactor: 10, targetUnit: "%", unit: "%", toUnit: null, maxMapped: 1000, meaning: "Sand content of the fine earth" },
  { name: "silt", property: "silt", mappedUnit: "g/kg", dFactor: 10, targetUnit: "%", unit: "%", toUnit: null, maxMapped: 1000, meaning: "Silt content of the fine earth" },
  { name: "phh2o", property: "ph", mappedUnit: "pH*10", dFactor: 10, targetUnit: "-", unit: "pH", toUnit: null, maxMapped: 140, meaning: "pH in water" },
  { name: "soc", property: "organic_carbon", mappedUnit: "dg/kg", dFactor: 10, targetUnit: "g/kg", unit: "% (by weight)", toUnit: { divisor: 10, from: "g/kg" }, meaning: "Soil organic carbon content of the fine earth" },
  { name: "bdod", property: "bulk_density", mappedUnit: "cg/cm³", dFactor: 100, targetUnit: "kg/dm³", unit: "g/cm3", toUnit: null, meaning: "Bulk density of the fine earth" },
  { name: "cec", property: "cec", mappedUnit: "mmol(c)/kg", dFactor: 10, targetUnit: "cmol(c)/kg", unit: "cmol(+)/kg", toUnit: null, meaning: "Cation exchange capacity at pH 7" },
  { name: "nitrogen", property: "total_nitrogen", mappedUnit: "cg/kg", dFactor: 100, targetUnit: "g/kg", unit: "%", toUnit: { divisor: 10, from: "g/kg" }, meaning: "Total nitrogen" },
  {
    name: "cfvo", property: "coarse_fragments_volume", mappedUnit: "cm³/dm³", dFactor: 10, targetUnit: "cm³/100cm³", unit: "% (by volume)", toUnit: null, maxMapped: 1000,
    meaning: "Volumetric fraction of coarse fragments (> 2 mm)",
    note: "cfvo is divided by the d_factor SoilGrids' answer states (10: cm³/dm³ to cm³/100cm³, volume %); ISRIC's FAQ table says 100, which would understate it tenfold.",
  },
  {
    name: "ocd", property: "organic_carbon_density", mappedUnit: "dg/dm³", dFactor: 10, targetUnit: "hg/m³", unit: "kg/m3", toUnit: null,
    meaning: "Organic carbon density",
    note: "ocd: SoilGrids labels the divided value 'hg/m³', but its mapped unit dg/dm³ divided by 10 is g/dm³ = kg/m³, the unit ISRIC's documentation gives; Loam serves kg/m3.",
  },
  {
    name: "ocs", property: "organic_carbon_stock", mappedUnit: "t/ha", dFactor: 10, targetUnit: "kg/m²", unit: "kg/m2", toUnit: null,
    meaning: "Organic carbon stock of 0-30 cm", depths: [{ label: "0-30cm", top: 0, bottom: 30 }],
  },
];

const BY_PROPERTY = new Map(SOILGRIDS_LAYERS.map((layer) => [layer.property, layer]));
const BY_NAME = new Map(SOILGRIDS_LAYERS.map((layer) => [layer.name, layer]));
export const layerOfProperty = (property: string) => BY_PROPERTY.get(property);
export const layerNamed = (name: string) => BY_NAME.get(name);

/** A layer's depths overlapping [top, bottom). */
export function depthsOverlapping(layer: SoilGridsLayer, top: number, bottom: number): ValueDepth[] {
  return (layer.depths ?? STANDARD_DEPTHS).filter((d) => d.top < bottom && d.bottom > top);
}

/** The vocabulary value of a mapped-unit integer: divided by the d_factor, then to the vocabulary's unit (one division, so no float noise). */
export function toServed(layer: SoilGridsLayer, mapped: number, dFactor: number): number {
  return mapped / (dFactor * (layer.toUnit?.divisor ?? 1));
}
