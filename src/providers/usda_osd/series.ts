/**
 * The series answer from a parsed OSD and where it came from (pure). The pipeline adds `cache`.
 */
import type { SeriesBody } from "../../domain/series";
import type { ParsedOsd } from "./parse";

export const OSD_PROVIDER_ID = "usda_osd";
export const OSD_ORGANIZATION = "USDA Natural Resources Conservation Service (NRCS), Soil Survey Staff, National Cooperative Soil Survey";

export interface SeriesProvenance {
  apiVersion: string;
  /** Where this description was read: the fetched URL, or in snapshot mode the file's home in SoilKnowledgeBase. */
  sourceUrl: string;
  /** ISO date-time: when it was fetched, or when the snapshot was built. */
  retrievedAt: string;
  /** Offline snapshot: the answer says so, and that the live description may be newer. */
  snapshot: boolean;
}

const CONCEPT_WARNING =
  "An Official Series Description describes the central concept of a soil series (a typical pedon and the ranges allowed around it), not a measurement at any place.";
const PARSE_WARNING =
  "Horizon fields (depths, colours, texture, structure, reaction) are SoilKnowledgeBase's automatic parse of the typical pedon; each horizon's narrative and the TYPICAL PEDON section are authoritative where they differ.";
const SNAPSHOT_WARNING =
  "Served from an offline snapshot of the SoilKnowledgeBase OSD files, not a live query; the description may have been revised since (see source.retrieved_at and the revision date in the citation).";

/** The citation USDA-NRCS asks for, naming the series and the revision the answer reflects. */
export function seriesCitation(parsed: ParsedOsd, provenance: SeriesProvenance): string {
  const { date, by } = parsed.revision;
  const revision = date ? `, revised ${date}${by ? ` (${by})` : ""}` : "";
  const copy = provenance.snapshot ? " (offline snapshot)" : "";
  return (
    `Soil Survey Staff, Natural Resources Conservation Service, United States Department of Agriculture. ` +
    `Official Soil Series Descriptions: ${parsed.series.name} series${revision}. ` +
    `Parsed to JSON by ncss-tech SoilKnowledgeBase, ${provenance.sourceUrl}. Retrieved ${provenance.retrievedAt.slice(0, 10)}${copy}.`
  );
}

export function buildSeriesBody(parsed: ParsedOsd, provenance: SeriesProvenance): SeriesBody {
  const warnings = [CONCEPT_WARNING];
  if (parsed.horizons.length > 0) warnings.push(PARSE_WARNING);
  else warnings.push("The description's typical pedon could not be parsed into horizons; read the TYPICAL PEDON section.");
  if (provenance.snapshot) warnings.push(SNAPSHOT_WARNING);
  warnings.push(...parsed.warnings);
  return {
    api_version: provenance.apiVersion,
    status: "experimental",
    provider: OSD_PROVIDER_ID,
    data_kind: "mapped_survey",
    series: parsed.series,
    sections: parsed.sections,
    horizons: parsed.horizons,
    source: {
      provider: OSD_PROVIDER_ID,
      organization: OSD_ORGANIZATION,
      citation: seriesCitation(parsed, provenance),
      source_url: provenance.sourceUrl,
      retrieved_at: provenance.retrievedAt,
    },
    warnings,
  };
}
