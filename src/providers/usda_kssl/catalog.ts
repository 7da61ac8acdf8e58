/** KSSL's catalog record (GET /v1/providers). */
import type { ProviderRecord } from "../../catalog/model";
import { SDA_LIMITS, USDA_NRCS_LICENSE } from "../usda";
import { KSSL_PROPERTY_COLUMNS } from "./columns";

export const KSSL_ID = "usda_kssl";
/** Accepted wherever the lab provider id is accepted; responses always name KSSL_ID. */
export const KSSL_ALIASES = ["kssl", "ncss_lab", "ncss_kssl"] as const;
export const KSSL_SOURCE_URL = "https://ncsslabdatamart.sc.egov.usda.gov/";

export const KSSL_RECORD: ProviderRecord = {
    id: KSSL_ID,
    name: "NCSS Soil Characterization Database (Kellogg Soil Survey Laboratory pedon data)",
    organization:
      "USDA-NRCS National Soil Survey Center, Kellogg Soil Survey Laboratory (KSSL), for the National Cooperative Soil Survey (NCSS)",
    coverage:
      "Laboratory-characterized pedons (points), mostly in the United States and its territories, with a small " +
      "number from other countries; NRCS describes more than 65,000 locations. Density is uneven: pedons cluster " +
      "where surveys and projects sampled. In offline snapshot mode only the pedons of the snapshot are served; " +
      "responses name that coverage in their warnings.",
    data_kind: "observed",
    status: "experimental",
    access_method:
      "NCSS Lab Data Mart tables (lab_combine_nasis_ncss, lab_layer, lab_physical_properties, " +
      "lab_chemical_properties) through USDA Soil Data Access (SDA) REST: T-SQL over HTTPS POST, " +
      "JSON+COLUMNNAME+METADATA, or an offline snapshot of Lab Data Mart-named CSV tables (LOAM_UPSTREAM=snapshot).",
    documentation_url: "https://ncsslabdatamart.sc.egov.usda.gov/datause.aspx",
    source_url: KSSL_SOURCE_URL,
    license: USDA_NRCS_LICENSE,
    authentication: "none: public service, no key (Soil Data Access is an open HTTPS endpoint; snapshot mode reads a local file).",
    operational: true,
    supported_properties: [...new Set(KSSL_PROPERTY_COLUMNS.map((c) => c.property))],
    limitations: [
      "Pedon coordinates are provider records whose accuracy varies, especially for older pedons (some were located from maps or recorded to the nearest minute; some pedons have none); horizontal accuracy is usually unknown.",
      "A pedon is a point. It is not representative of its search box, field, soil series or map unit without further evidence.",
      "Censored results (e.g. \"<0.05\") are kept as reported: value null, the reported string, the qualifier and the reporting limit. A censored result is never replaced by its limit.",
      "Walkley-Black organic carbon is no longer run on newer samples: KSSL measures total carbon by dry combustion and estimates organic carbon as total carbon minus carbonate carbon. Loam serves that estimate as data_kind derived, with its method stated, when no Walkley-Black value exists.",
      "Only selected analyses were requested for many pedons, so a layer often lacks some properties; an absent property is not a zero.",
      "Laboratory methods changed over the decades; the method codes (Kellogg Soil Survey Laboratory Methods Manual, Soil Survey Investigations Report No. 42) identify the procedure and must be checked before comparing pedons. Some records come from cooperating laboratories.",
      "Some measurements fall outside the working range of the standard method; for example clay dispersion is incomplete in soils from volcanic materials or rich in iron oxides, gypsum or carbonates.",
      "The laboratory tables do not include the companion morphological pedon descriptions (field horizon colors, structure, field texture); they are not joined.",
      ...SDA_LIMITS,
    ],
  };
