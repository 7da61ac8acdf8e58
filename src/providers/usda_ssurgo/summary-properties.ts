/**
 * What SSURGO map-unit summaries can be asked for (docs/decisions.md#column-tables): the horizon numeric
 * properties are the column table's rows (columns.ts) read at their representative value, so column,
 * units and the OM→OC derivation (with its one warning) stay in one place; the rest are the
 * summary-only properties (a storage sum and the component-level values and classes). Names and
 * canonical units come from the vocabulary. The summaries feature reaches this list through
 * `usdaSsurgo.mapUnits.properties`.
 */
import { findProperty } from "../../catalog/properties";
import type { SummaryKind, SummaryLevel, SummaryProperty } from "../../domain/summary-property";
import { SSURGO_PROPERTIES, SSURGO_PROPERTY_BY_ID, type SsurgoProperty } from "./columns";

type Table = SummaryProperty["table"];

/** A summary property named from the vocabulary; the rest of its facts as given. */
function define(id: string, level: SummaryLevel, kind: SummaryKind, table: Table, column: string, originalUnit: string | null): SummaryProperty {
  const record = findProperty(id);
  if (!record) throw new Error(`summary property '${id}' is not in the vocabulary`);
  return { id, name: record.name, level, kind, table, column, unit: record.standard_unit, originalUnit };
}

/** A column-table row as a summary property: its representative value (`<stem>_r`), derived as the row says. */
function fromColumnRow(row: SsurgoProperty): SummaryProperty {
  const property: SummaryProperty = { ...define(row.property, "horizon", "numeric", "chorizon", `${row.column}_r`, row.originalUnit), ...(row.fraction ? { fraction: true } : {}) };
  const derive = row.derivedFrom;
  if (!derive) return property;
  const source = SSURGO_PROPERTY_BY_ID.get(derive.property)!;
  return {
    ...property,
    derived: {
      factor: derive.factor,
      warning: derive.warning,
      transformation: {
        operation: derive.operation,
        from_unit: source.unit,
        to_unit: row.unit,
        formula: `${row.property} = ${row.column}_r / ${derive.factor}`,
      },
    },
  };
}

/** Available water storage: the awc row summed over depth (NRCS muaggatt.aws0xxwta), not averaged. */
function storageOf(awc: SsurgoProperty): SummaryProperty {
  return {
    ...define("available_water_storage", "horizon", "numeric", "chorizon", `${awc.column}_r`, awc.originalUnit),
    storage: { unit: "cm", formula: `component storage = sum over horizons of ${awc.column}_r (${awc.unit}) x overlap thickness (cm)` },
  };
}

export const SSURGO_SUMMARY_PROPERTIES: readonly SummaryProperty[] = [
  ...SSURGO_PROPERTIES.flatMap((row) =>
    row.property === "available_water_capacity" ? [fromColumnRow(row), storageOf(row)] : [fromColumnRow(row)],
  ),
  define("slope", "component", "numeric", "component", "slope_r", "percent"),
  define("drainage_class", "component", "class", "component", "drainagecl", null),
  define("hydrologic_group", "component", "class", "component", "hydgrp", null),
  define("taxonomic_class", "component", "class", "component", "taxclname", null),
  // The representative texture group (rvindicator 'Yes') of each horizon; per component the texture
  // covering the greatest thickness of the interval.
  define("texture_class", "horizon", "class", "chtexturegrp", "texture", null),
];

const BY_ID = new Map(SSURGO_SUMMARY_PROPERTIES.map((p) => [p.id, p]));

/** The SSURGO summary definition of a canonical property id; undefined when summaries cannot answer it. */
export function summaryProperty(id: string): SummaryProperty | undefined {
  return BY_ID.get(id);
}
