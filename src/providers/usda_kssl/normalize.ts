/**
 * KSSL lab answers → pedon features and lab observations (docs/decisions.md#censored). Pure
 * functions: the same table from SDA or from the snapshot gives the same result.
 */
import { PRECISION_RULE, roundDerived } from "../../domain/precision";
import type { Static } from "elysia";
import { findProperty } from "../../catalog/properties";
import { isoDay } from "../../upstream/sda/dates";
import { dateIn, numberIn, rowRecords, textIn, trimmedIn, type RowTable, type Value } from "../../upstream/sda/rows";
import type { LabLayer, LabObservation, PedonFeature } from "../../domain/lab";
import { KSSL_PROPERTIES, type KsslProperty, type LabColumn } from "./columns";
import { parseReported } from "../../domain/censored";

type Row = Record<string, Value>;

/** A pedon's identity and site coordinates, as read from any row of its answer. */
export interface PedonSummary {
  pedonKey: string;
  pedlabsampnum: string | null;
  upedonid: string | null;
  name: string | null;
  /** The great group the pedon was classified in when sampled (samp_taxgrtgroup); null where not recorded. */
  greatGroup: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface NormalizedPedon {
  pedon: PedonSummary;
  layers: Static<typeof LabLayer>[];
  /** Layers the answer holds at all (before the depth filter). */
  layerCount: number;
  /** Lab sample numbers of layers without a top or bottom depth: they cannot be placed in an interval. */
  layersWithoutDepth: string[];
  /** Lab sample numbers of layers with hzn_top = hzn_bot (kept when that depth lies in the interval). */
  zeroThicknessLayers: string[];
  /** Layers with depths that lie outside the requested interval (named in a warning, never dropped silently). */
  outsideInterval: LayerExtent[];
  /** The bottom of the deepest layer, cm; null when no layer has depths. */
  deepestBottom: number | null;
  /** Pairs of layers whose depth ranges overlap (e.g. a 0–5 cm increment beside a 0–13 cm Ap1), over the whole pedon. */
  overlappingLayers: Array<[LayerExtent, LayerExtent]>;
  /** Requested properties KSSL does not report. */
  unsupported: string[];
  /** Some organic carbon (or organic matter) came from KSSL's estimate, not from Walkley-Black. */
  usedEstimatedOrganicCarbon: boolean;
  /** Observations whose result is censored (value null, qualifier set). */
  censoredCount: number;
  /** Layers (lab sample numbers) whose results carry a prep_code other than 'S', with the code. */
  otherPreparations: { layer: string; prepCode: string }[];
}

export interface LayerExtent {
  sample: string;
  top: number;
  bottom: number;
  designation: string | null;
}

/** Layers of positive thickness whose ranges share some depth: a sum over depth would count that depth twice. */
function overlappingPairs(layers: readonly LayerExtent[]): Array<[LayerExtent, LayerExtent]> {
  const pairs: Array<[LayerExtent, LayerExtent]> = [];
  const sorted = [...layers].sort((a, b) => a.top - b.top || a.bottom - b.bottom);
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      const a = sorted[i]!;
      const b = sorted[j]!;
      if (a.top < b.bottom && b.top < a.bottom) pairs.push([a, b]);
    }
  }
  return pairs;
}

export interface PedonContext {
  properties: string[];
  depthTop: number;
  depthBottom: number;
}


/** Site coordinates only when both are real WGS84 numbers; anything else is "no coordinates". */
function coordinates(row: Row): { latitude: number | null; longitude: number | null } {
  const latitude = numberIn(row.latitude_decimal_degrees);
  const longitude = numberIn(row.longitude_decimal_degrees);
  if (latitude === null || longitude === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return { latitude: null, longitude: null };
  return { latitude, longitude };
}

function summary(row: Row): PedonSummary {
  return {
    pedonKey: trimmedIn(row.pedon_key) ?? trimmedIn(row.pedlabsampnum) ?? "",
    pedlabsampnum: trimmedIn(row.pedlabsampnum),
    upedonid: trimmedIn(row.upedonid),
    name: trimmedIn(row.samp_name) ?? trimmedIn(row.corr_name),
    greatGroup: trimmedIn(row.samp_taxgrtgroup),
    ...coordinates(row),
  };
}

// ---- the bounding-box collection ---------------------------------------------------------------

/**
 * Features of a lab_bbox answer in the source's pedon-key order. The answer holds at most limit + 1
 * rows; more than `limit` means more pedons exist than are listed.
 */
export function normalizeCollection(table: RowTable, limit: number): { features: Static<typeof PedonFeature>[]; truncated: boolean; last: string | null } {
  const rows = rowRecords(table);
  const features: Static<typeof PedonFeature>[] = [];
  for (const row of rows.slice(0, limit)) {
    const pedon = summary(row);
    // A pedon without coordinates cannot be placed in a box (the query excludes them; this is a guard).
    if (pedon.latitude === null || pedon.longitude === null || pedon.pedonKey === "") continue;
    const observed = dateIn(row.site_obsdate);
    const layerCount = numberIn(row.layer_count);
    features.push({
      type: "Feature",
      id: pedon.pedonKey,
      geometry: { type: "Point", coordinates: [pedon.longitude, pedon.latitude] },
      properties: {
        pedon_key: pedon.pedonKey,
        representative_of_bbox: false,
        pedlabsampnum: pedon.pedlabsampnum,
        upedonid: pedon.upedonid,
        name: pedon.name,
        site_observation_date: observed ? isoDay(observed) : null,
        // Linked by the pedons feature from the registry's series provider.
        series: null,
        layer_count: layerCount !== null && Number.isInteger(layerCount) && layerCount >= 0 ? layerCount : null,
      },
    });
  }
  // The page ends at its last row, listed or not, so the next page never repeats one.
  const lastRow = rows.slice(0, limit).at(-1);
  return { features, truncated: rows.length > limit, last: lastRow ? trimmedIn(lastRow.pedon_key) : null };
}

// ---- one pedon's layers and observations -------------------------------------------------------

/** A multiplication (1.35 * 1.724) at the documented precision (docs/decisions.md#precision); reported values are never rounded. */
const tidy = roundDerived;

function observe(row: Row, propertyId: string, mapping: KsslProperty): { observation: Static<typeof LabObservation>; source: LabColumn } | null {
  for (const source of mapping.columns) {
    const reported = parseReported(textIn(row[source.column]));
    // Nothing reported in this column: try the next one; an absent result is not a zero.
    if (reported.kind === "missing" || reported.reported_value === null) continue;
    const conversion = mapping.conversion;
    const convert = (value: number | null) => (value === null ? null : conversion ? tidy(value * conversion.factor) : value);
    const methodColumn = source.methodColumn;
    const warnings: string[] = [];
    if (conversion) warnings.push(conversion.warning);
    if (source.warning) warnings.push(source.warning);
    if (reported.warning) warnings.push(reported.warning);
    if (conversion && reported.reporting_limit !== null) {
      warnings.push(`The reporting limit ${reported.reporting_limit} of ${source.column} is converted with the same factor: ${convert(reported.reporting_limit)} ${mapping.unit}.`);
    }
    return {
      source,
      observation: {
        property: { id: propertyId, name: findProperty(propertyId)?.name ?? propertyId },
        value: convert(reported.value),
        reported_value: reported.reported_value,
        value_qualifier: reported.value_qualifier,
        reporting_limit: convert(reported.reporting_limit),
        unit: mapping.unit,
        original_column: `${source.table}.${source.column}`,
        method_code: methodColumn ? trimmedIn(row[methodColumn]) : null,
        measurement_method: conversion ? `Derived: ${source.method}, multiplied by ${conversion.factor}` : source.method,
        data_kind: conversion ? "derived" : source.dataKind,
        transformations: conversion ? [{ operation: conversion.operation, from_unit: source.unit, to_unit: mapping.unit, formula: `${conversion.formula}; ${PRECISION_RULE}` }] : [],
        warnings,
      },
    };
  }
  return null;
}

/**
 * Does a layer lie in the interval [top, bottom)? A layer that only touches it does not overlap; a
 * zero-thickness layer (hzn_top = hzn_bot, as recorded) counts where its one depth lies in the interval.
 */
function overlaps(layerTop: number, layerBottom: number, top: number, bottom: number): boolean {
  if (layerTop === layerBottom) return layerTop >= top && layerTop < bottom;
  return layerTop < bottom && layerBottom > top;
}

/** The great group each pedon of a lab_bbox answer was sampled as (samp_taxgrtgroup), by pedon key. */
export function greatGroupsOf(table: RowTable): Map<string, string | null> {
  return new Map(rowRecords(table).map((row) => [trimmedIn(row.pedon_key) ?? "", trimmedIn(row.samp_taxgrtgroup)] as const));
}

/** What a pedon answer says the pedon was sampled as (its first row), without normalizing its layers. */
export function sampledAs(table: RowTable): { name: string | null; greatGroup: string | null } {
  const first = rowRecords(table)[0];
  if (!first) return { name: null, greatGroup: null };
  const pedon = summary(first);
  return { name: pedon.name, greatGroup: pedon.greatGroup };
}

/** The pedon of a lab_pedon answer; null when the answer has no rows (no such pedon). */
export function normalizePedon(table: RowTable, context: PedonContext): NormalizedPedon | null {
  const rows = rowRecords(table);
  const first = rows[0];
  if (!first) return null;
  const result: NormalizedPedon = {
    pedon: summary(first),
    layers: [],
    layerCount: 0,
    layersWithoutDepth: [],
    zeroThicknessLayers: [],
    outsideInterval: [],
    deepestBottom: null,
    overlappingLayers: [],
    unsupported: context.properties.filter((id) => !(id in KSSL_PROPERTIES)),
    usedEstimatedOrganicCarbon: false,
    censoredCount: 0,
    otherPreparations: [],
  };
  const extents: LayerExtent[] = [];
  for (const row of rows) {
    const layerKey = trimmedIn(row.layer_key) ?? trimmedIn(row.labsampnum);
    // The snapshot answers a pedon without layers with one row whose layer columns are null.
    if (layerKey === null) continue;
    result.layerCount++;
    const sample = trimmedIn(row.labsampnum);
    const top = numberIn(row.hzn_top);
    const bottom = numberIn(row.hzn_bot);
    if (top === null || bottom === null) {
      result.layersWithoutDepth.push(sample ?? layerKey);
      continue;
    }
    if (top === bottom) result.zeroThicknessLayers.push(sample ?? layerKey);
    const extent = { sample: sample ?? layerKey, top, bottom, designation: trimmedIn(row.hzn_desgn) };
    extents.push(extent);
    result.deepestBottom = Math.max(result.deepestBottom ?? bottom, bottom);
    if (!overlaps(top, bottom, context.depthTop, context.depthBottom)) {
      result.outsideInterval.push(extent);
      continue;
    }
    // The snapshot carries no prep_code (null): nothing to say. 'S' is the standard <2 mm sample.
    const prepCode = trimmedIn(row.prep_code);
    if (prepCode !== null && prepCode !== "S") result.otherPreparations.push({ layer: sample ?? layerKey, prepCode });
    const observations: Static<typeof LabObservation>[] = [];
    for (const id of context.properties) {
      const mapping = KSSL_PROPERTIES[id];
      if (!mapping) continue;
      const observed = observe(row, id, mapping);
      if (!observed) continue;
      if (observed.source.column === "estimated_organic_carbon") result.usedEstimatedOrganicCarbon = true;
      if (observed.observation.value_qualifier !== null) result.censoredCount++;
      observations.push(observed.observation);
    }
    result.layers.push({
      layer_key: layerKey,
      lab_sample_key: sample,
      depth: { top_cm: top, bottom_cm: bottom },
      horizon_designation: trimmedIn(row.hzn_desgn),
      layer_type: trimmedIn(row.layer_type),
      observations,
    });
  }
  result.overlappingLayers = overlappingPairs(extents);
  return result;
}
