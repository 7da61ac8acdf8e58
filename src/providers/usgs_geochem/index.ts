/**
 * usgs_geochem: USGS Data Series 801, Appendix 2b, soil geochemistry of the conterminous US at 0-5 cm
 * (role `sample_sites`, docs/decisions.md#geochem). Snapshot mode reads the tables the snapshot build
 * imported; live mode (LOAM_UPSTREAM=sda) reads the same file from GEOCHEM_URL through its own transport.
 */
import { pageOf } from "../../domain/site-page";
import type { ConnectContext, SampleSiteProvider } from "../provider";
import { offlineSnapshot } from "../connect";
import type { SourceDescription } from "../../upstream/transport";
import { settingOf } from "../../config";
import { DS801_CITATION, DS801_URL, GEOCHEM_CATALOG_RECORD, GEOCHEM_ORGANIZATION, GEOCHEM_URL_SETTING } from "./catalog";
import { readSites } from "./decode";
import { ELEMENT_PROPERTIES, ELEMENTS, elementColumn } from "./elements";
import { findProperty } from "../../catalog/properties";
import { NEAREST_SITES_QUERY, SITE_QUERY, SITES_IN_BOX_QUERY } from "./queries";
import { GEOCHEM_PROVIDER_ID, type GeochemRows } from "./rows";
import { geochemLiveTransport } from "./transport";
import { createGeochemTables, GEOCHEM_FORMATS, GEOCHEM_LAYOUT, geochemFormatOf, importGeochem, importGeochemFiles } from "./import";

/** The warnings every site answer carries (docs/decisions.md#geochem). */
const SITE_WARNINGS = [
  "One 0-5 cm soil sample per about 1,600 km2 (USGS DS 801): a site is not representative of a field, a map unit or the box it was found in.",
  "Sampled 2007-2011 (all but 6 of the 4,857 sites by 2010, as the file's CollDate says); the land cover classes are from the 1992 National Land Cover Database, not the time of sampling.",
  "Coordinates are recorded to 4 decimal degrees (about 10 m); they locate the sampling site, not the exact sample.",
  "Element contents are total or near-total (strong-acid digestion), not plant-available, exchangeable or bioaccessible contents, and are not comparable to soil-test extractions.",
];

/** What DS 801 says of its methods: said once on a site's answer. */
const METHOD_NOTE =
  "measurement_method states what USGS Data Series 801 says of all elements (total or near-total contents); the method and reporting limit of each element are in Appendix 5 of the report (https://pubs.usgs.gov/ds/801/), which Loam does not serve.";

const SNAPSHOT_NOTE = "Served from Loam's offline snapshot of the USGS DS 801 file (a static 2013 release, Appendix 2b), not from a live download.";

export const usgsGeochem: SampleSiteProvider<GeochemRows> = {
  id: GEOCHEM_PROVIDER_ID,
  aliases: [],
  role: "sample_sites",
  record: GEOCHEM_CATALOG_RECORD,
  shortName: "USGS DS 801",
  settings: [GEOCHEM_URL_SETTING],
  // The elements are columns of one file (read by ./decode.ts); each answers its vocabulary id.
  columns: ELEMENTS.map((el) => ({
    property: el.property,
    table: "Appendix_2b_Top5",
    column: elementColumn(el),
    unit: findProperty(el.property)?.standard_unit ?? "",
    meaning: `Total or near-total ${el.name} content of the 0-5 cm sample`,
    methodColumn: null,
  })),
  queries: { inBox: SITES_IN_BOX_QUERY, nearest: NEAREST_SITES_QUERY, site: SITE_QUERY },
  // The DS 801 file, stored cell for cell in usgs_geochem_* (docs/decisions.md#geochem-file).
  snapshot: { layout: GEOCHEM_LAYOUT, create: createGeochemTables, import: importGeochem, formats: GEOCHEM_FORMATS, formatOf: geochemFormatOf, importFiles: importGeochemFiles },
  // As the series provider does: the offline snapshot when that is what Loam opened, else the live file.
  connect({ config, upstreams, now }: ConnectContext) {
    return offlineSnapshot(upstreams) ?? geochemLiveTransport({ url: settingOf(config, GEOCHEM_URL_SETTING), timeoutMs: config.upstreamTimeoutMs, now });
  },
  sites: {
    properties: ELEMENT_PROPERTIES,
    methodNote: METHOD_NOTE,
    scope: { samples: "0-5 cm soil", area: "the conterminous United States" },
    key: { parse: (raw) => (/^[1-9][0-9]{0,8}$/.test(raw) ? Number(raw) : null), syntax: "a DS 801 SiteID, a positive whole number (8 to 31081 in the file)", example: "3560" },
    inBox: SITES_IN_BOX_QUERY,
    nearest: NEAREST_SITES_QUERY,
    one: { query: SITE_QUERY, params: (siteId) => ({ siteId }), found: (answer) => answer.rows.length > 0 },
    page: (answer, limit, params) => pageOf(readSites(answer, params.property === null ? [] : [params.property]), limit, (r) => String(r.site.site_id)),
    where: (r) => [r.site.longitude, r.site.latitude],
    matched: (answer) => answer.matched ?? null,
    read: readSites,
    source: (answer, source) => ({
      provider: GEOCHEM_PROVIDER_ID,
      organization: GEOCHEM_ORGANIZATION,
      citation: DS801_CITATION,
      source_url: source.kind === "snapshot" ? DS801_URL : source.location,
      retrieved_at: answer.retrieved_at,
    }),
    warnings: (answer: GeochemRows, source: SourceDescription) => [...SITE_WARNINGS, ...(source.kind === "snapshot" ? [SNAPSHOT_NOTE] : []), ...(answer.note ? [answer.note] : [])],
    raw(answer) {
      const row = answer.rows[0] ?? [];
      return {
        row: Object.fromEntries(answer.columns.map((c, i) => [c, row[i] ?? ""])),
        units: Object.fromEntries(answer.columns.map((c, i) => [c, answer.units[i] ?? ""])),
      };
    },
    rawNotes: ["The DS 801 file's row for this site beside its unit row, every cell a string as written: '<1' is a censored result, 'N.S.' no sample, an empty cell no value (the mineralogy and carbon columns are empty in the 0-5 cm table)."],
  },
};
