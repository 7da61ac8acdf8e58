/**
 * What a KSSL pedon answer says beside its layers: citation, retrieval date, and the warnings a
 * reader needs to use lab results (docs/decisions.md#censored, #prep-code).
 */
import { notServedWarning } from "../../catalog/not-served";
import type { SourceDescription } from "../../upstream/transport";
import type { RowAnswer } from "../../upstream/sda/rows";
import type { PedonDetail, PedonDetailContext } from "../provider";
import type { PedonKey } from "../../domain/pedon-key";
import { KSSL_ID, KSSL_SOURCE_URL } from "./catalog";
import { retrievedAt as retrievedAtOf } from "../../domain/retrieved-at";
import { KSSL_PROPERTIES } from "./columns";
import { normalizePedon, type NormalizedPedon, type PedonSummary } from "./normalize";

export const POINT_WARNING = "A pedon is a point. It is not representative of its search box, field, soil series or map unit without further evidence.";
export const COORDINATE_WARNING =
  "Pedon coordinates are provider records whose accuracy varies, especially for older pedons (some were located from maps or recorded to the nearest minute); horizontal accuracy is unknown.";
const ABSENT_NOTE = "Only selected analyses were run on many layers: a property missing from a layer was not reported for it, which is not a zero.";

/** Snapshot coverage, for answers that found nothing. */
export function coverageNote(source: SourceDescription): string {
  if (source.kind !== "snapshot") return "";
  const coverage = source.coverage?.filter((c) => c.startsWith("KSSL")) ?? [];
  return coverage.length > 0 ? ` The offline snapshot holds only ${coverage.join("; ")}.` : " The offline snapshot holds no laboratory pedons.";
}

export function notFoundMessage(key: PedonKey, source: SourceDescription): string {
  const snapshotKeys =
    source.kind === "snapshot" && key.form === "pedon_key" ? " Offline snapshot pedons are keyed by their pedlabsampnum (e.g. 02N0245), not by SDA's integer pedon_key." : "";
  return `No ${KSSL_ID} pedon has the key '${key.value}'.${coverageNote(source)}${snapshotKeys}`;
}

/** When Loam's source read the values: the snapshot build, or the upstream call (docs/decisions.md#retrieved-at). */
const retrievedAt = (context: PedonDetailContext): string => retrievedAtOf(context.source, context.storedAt);

function citation(pedon: PedonSummary, retrieved: string, snapshot: boolean): string {
  const id = pedon.pedlabsampnum ?? pedon.pedonKey;
  const user = pedon.upedonid ? ` (${pedon.upedonid})` : "";
  const name = pedon.name ? `, sampled as ${pedon.name}` : "";
  const copy = snapshot ? " (offline snapshot of a Lab Data Mart-named export)" : "";
  return `National Cooperative Soil Survey, Kellogg Soil Survey Laboratory. Pedon ${id}${user}${name}. NCSS Soil Characterization Database / Lab Data Mart, ${KSSL_SOURCE_URL}. Retrieved ${retrieved.slice(0, 10)}${copy}. Soil Survey Staff, Natural Resources Conservation Service, United States Department of Agriculture.`;
}

function pedonWarnings(normalized: NormalizedPedon, context: PedonDetailContext): string[] {
  const { pedon, layers } = normalized;
  const warnings = [POINT_WARNING];
  warnings.push(pedon.latitude === null ? `Pedon ${pedon.pedonKey} has no site coordinates in the provider's record: location is null.` : COORDINATE_WARNING);
  warnings.push(ABSENT_NOTE);
  for (const id of normalized.unsupported) {
    warnings.push(notServedWarning(KSSL_ID, id, Object.keys(KSSL_PROPERTIES)));
  }
  if (normalized.usedEstimatedOrganicCarbon) {
    warnings.push(
      "Where no Walkley-Black organic carbon was reported, organic carbon (and organic matter derived from it) comes from KSSL's estimated organic carbon (total carbon minus carbonate carbon): data_kind derived, method stated on each observation.",
    );
  }
  if (context.properties.includes("organic_matter")) {
    warnings.push(`organic_matter is not measured by KSSL: it is derived from organic carbon x ${KSSL_PROPERTIES.organic_matter?.conversion?.factor}; see each observation's transformations and warnings.`);
  }
  if (normalized.censoredCount > 0) {
    warnings.push(
      `${normalized.censoredCount} result(s) are censored: value is null, and reported_value, value_qualifier and reporting_limit keep what was reported. A reporting limit is never a value.`,
    );
  }
  if (layers.some((layer) => layer.observations.some((o) => o.method_code === null))) {
    warnings.push("Some results carry no KSSL method code (method_code null); measurement_method then names the column's standard method. Compare results only of the same method.");
  }
  if (normalized.otherPreparations.length > 0) {
    const listed = normalized.otherPreparations.map((p) => `${p.layer} (${p.prepCode})`).join(", ");
    warnings.push(
      `Layer(s) ${listed} are labelled with a preparation other than 'S' (the <2 mm air-dry sieved sample the standard results refer to); the label is one per layer while its results may come from several preparations, so check the method codes before comparing them.`,
    );
  }
  if (normalized.layersWithoutDepth.length > 0) {
    warnings.push(
      `Layer(s) ${normalized.layersWithoutDepth.join(", ")} have no reported depth and cannot be placed in the depth interval, so they are left out; the raw endpoint shows them.`,
    );
  }
  if (normalized.zeroThicknessLayers.length > 0) {
    warnings.push(`Layer(s) ${normalized.zeroThicknessLayers.join(", ")} are recorded with zero thickness (hzn_top = hzn_bot); such a layer is kept, as recorded, when that depth lies in the interval.`);
  }
  if (normalized.overlappingLayers.length > 0) {
    const show = (l: { sample: string; top: number; bottom: number; designation: string | null }) => `${l.sample} (${l.designation ?? "no designation"}, ${l.top}–${l.bottom} cm)`;
    const pairs = normalized.overlappingLayers.map(([a, b]) => `${show(a)} and ${show(b)}`).join("; ");
    warnings.push(
      `Overlapping layers: ${pairs}. They describe some of the same depth (for example a fixed-depth increment beside a horizon; see each layer's layer_type), so a sum over depth across all layers would count the shared depth twice; use one set of layers.`,
    );
  }
  if (normalized.outsideInterval.length > 0) {
    const asked = Number.isFinite(context.depthBottom) ? `${context.depthTop}–${context.depthBottom} cm` : `below ${context.depthTop} cm`;
    const show = (l: { sample: string; top: number; bottom: number; designation: string | null }) => `${l.sample} (${l.designation ?? "no designation"}, ${l.top}–${l.bottom} cm)`;
    warnings.push(
      `Layer(s) ${normalized.outsideInterval.map(show).join(", ")} lie outside the requested ${asked} and are not listed; depth_top_cm and depth_bottom_cm reach down to 1000 cm, and without depth_bottom_cm the answer covers the whole pedon.`,
    );
  }
  if (normalized.layerCount === 0) warnings.push(`Pedon ${pedon.pedonKey} has no laboratory layers.`);
  else if (layers.length === 0) warnings.push(`No layer of pedon ${pedon.pedonKey} overlaps ${context.depthTop}–${Number.isFinite(context.depthBottom) ? context.depthBottom : "the bottom of the pedon"} cm.`);
  return warnings;
}

/** The pedon answer's KSSL part; the caller has checked that the answer holds the pedon. */
export function pedonDetail(answer: RowAnswer, context: PedonDetailContext): PedonDetail {
  const normalized = normalizePedon(answer.typed, { properties: context.properties, depthTop: context.depthTop, depthBottom: context.depthBottom });
  if (!normalized) throw new Error("pedonDetail: the answer holds no pedon");
  const retrieved = retrievedAt(context);
  return {
    pedonKey: normalized.pedon.pedonKey,
    name: normalized.pedon.name,
    location: { latitude: normalized.pedon.latitude, longitude: normalized.pedon.longitude, horizontal_accuracy_m: null },
    citation: citation(normalized.pedon, retrieved, context.source.kind === "snapshot"),
    sourceUrl: KSSL_SOURCE_URL,
    retrievedAt: retrieved,
    layers: normalized.layers,
    deepestBottomCm: normalized.deepestBottom,
    greatGroup: normalized.pedon.greatGroup,
    warnings: pedonWarnings(normalized, context),
    afterSourceWarnings:
      context.source.kind === "snapshot" ? ["The KSSL export in the snapshot states no export date: retrieved_at is when Loam built its snapshot from it."] : [],
  };
}
