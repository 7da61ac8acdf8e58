// Property names, units and provider ids come from Loam's own catalog (GET /v1/properties and
// GET /v1/providers), not from copies in this page: a renamed property or unit shows up here as served.
import { describeError, getJson, urls } from "./api.js";
import { asArray } from "./dom.js";

/**
 * The catalog, loaded once. Never rejects: when a catalog endpoint fails, `problems` says so and the
 * page falls back to what each data answer names itself (observation property names and units, the
 * answer's provider).
 */
export async function loadCatalog() {
  const problems = [];
  const [properties, providers] = await Promise.all([
    getJson(urls.properties()).then((answer) => asArray(answer.properties), failed("The property catalog (/v1/properties)", problems)),
    getJson(urls.providers()).then((answer) => asArray(answer.providers), failed("The provider catalog (/v1/providers)", problems)),
  ]);
  return makeCatalog(properties, providers, problems);
}

function failed(what, problems) {
  return (error) => {
    problems.push(what + " could not be loaded (" + describeError(error) + "); labels come from the data answers only.");
    return [];
  };
}

function makeCatalog(properties, providers, problems) {
  const byId = new Map();
  for (const p of properties) if (p && typeof p.id === "string") byId.set(p.id, p);
  // The operational provider of each kind: laboratory pedons are `observed`, the soil survey `mapped_survey`.
  const operational = (kind) => providers.find((p) => p && p.operational === true && p.data_kind === kind) || null;
  // Several observed providers may be operational (KSSL pedons, USGS geochemistry sites): the lab provider is
  // the one serving the pedon columns (ph and clay), not the element totals of a geochemistry survey.
  const lab = providers.find((p) => p && p.operational === true && p.data_kind === "observed" && Array.isArray(p.supported_properties) && p.supported_properties.includes("clay")) || operational("observed");
  const survey = operational("mapped_survey");
  return {
    problems,
    labProvider: lab,
    surveyProvider: survey,
    /** A provider's record by id (GET /v1/providers), or null. */
    provider: (id) => providers.find((p) => p && p.id === id) || null,
    /** {id, name, unit} for a property id; the id itself when the catalog does not know it. */
    property(id) {
      const p = byId.get(id);
      return { id, name: p && p.name ? p.name : id, unit: p ? p.standard_unit : null, known: Boolean(p) };
    },
    /**
     * The numeric properties a provider serves, in the order of `preferred` first, then the rest of the
     * provider's list. Without a provider record, `preferred` as given.
     */
    numericProperties(provider, preferred) {
      if (!provider || !Array.isArray(provider.supported_properties)) return preferred.slice();
      const served = provider.supported_properties.filter((id) => !byId.has(id) || byId.get(id).standard_unit !== null);
      return preferred.filter((id) => served.includes(id)).concat(served.filter((id) => !preferred.includes(id)));
    },
    /** The page's preferred table columns that the provider serves (all of them without a provider record). */
    columns(provider, preferred) {
      if (!provider || !Array.isArray(provider.supported_properties)) return preferred.slice();
      return preferred.filter((id) => provider.supported_properties.includes(id));
    },
  };
}
