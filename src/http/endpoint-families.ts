/**
 * The API's endpoint families, listed at the top of the OpenAPI description (what /docs shows first),
 * built from the document's own paths so that a new endpoint is listed the day it is served.
 */
/**
 * One row per endpoint family, the one table its texts come from: `name` and `members` head its line in
 * the endpoint-family list (absent: not listed there), `tag` is its OpenAPI tag's description (a
 * `text` naming no source, or head, the provider's short name, then rest; absent: no tag), and `role`
 * the provider role its routes answer from by default, whose short name both texts give
 * (docs/decisions.md#provider-words). The order is the list's and the tags'. A role is written as a
 * string, since http/ knows no provider: its literal type is kept, and src/meta/document-sources.ts,
 * which reads it, checks it is a provider role.
 */
interface Family {
  name?: string;
  members?: string;
  tag?: { text: string } | { head: string; rest: string };
  role?: string;
}

export const FAMILIES = {
  meta: { name: "Service", members: "health, metadata, metrics", tag: { text: "Service health, metadata and catalogs." } },
  soil: { name: "Mapped soil survey", members: "points, map units, summaries, areas", tag: { text: "Mapped-survey values for one point." }, role: "mapped_location" },
  pedons: { name: "Laboratory pedons", members: "points in a box, layers", tag: { text: "Laboratory pedons (points) and their layers." }, role: "lab_pedons" },
  series: { name: "Soil series descriptions", members: "the described concept of a series", tag: { head: "Soil series descriptions", rest: ": the described concept of a soil series." }, role: "series" },
  geochem: { name: "Geochemistry of surface soil", members: "sample sites and their elements", tag: { head: "Soil geochemistry sample sites", rest: ": element contents of 0-5 cm samples." }, role: "sample_sites" },
  stations: {
    name: "Sensor stations",
    members: "soil moisture and temperature time series",
    tag: { head: "Sensor stations", rest: " and their soil moisture and soil temperature time series." },
    role: "site_series",
  },
  raw: { tag: { text: "Untouched upstream payloads inside a labelled wrapper." } },
  properties: { name: "Catalog", members: "the property vocabulary" },
  providers: { name: "Catalog and raw upstream payloads, per provider", members: "" },
  ogc: { name: "OGC API - Features for GIS clients (QGIS, GDAL)", members: "", tag: { text: "OGC API - Features Part 1 (core, GeoJSON) for GIS clients: QGIS, GDAL/OGR, OWSLib." } },
} as const satisfies Readonly<Record<string, Family>>;

/** The table by family name, for lookups by a path's family. */
const BY_FAMILY: Readonly<Record<string, Family>> = FAMILIES;

/** With the short name of the family's default provider where the registry has one. */
const sourced = (head: string, source: string | undefined, rest: string) => `${head}${source ? ` (${source})` : ""}${rest}`;

/** The OpenAPI tags, one per family that has one, in the table's order. */
export function familyTags(sources: Readonly<Record<string, string>>): { name: string; description: string }[] {
  return Object.entries(BY_FAMILY).flatMap(([family, { tag }]) =>
    tag ? [{ name: family, description: "text" in tag ? tag.text : sourced(tag.head, sources[family], tag.rest) }] : [],
  );
}

/** A family's line head: its name, the short name of the provider its routes answer from by default (docs/decisions.md#provider-words), and what it holds. */
function familyName(family: string, sources: Readonly<Record<string, string>>): string {
  const known = BY_FAMILY[family];
  if (!known?.name) return family;
  return `${sourced(known.name, sources[family], "")}${known.members ? `: ${known.members}` : ""}`;
}

/** "/v1/soil/location" → "soil"; "/ogc/collections" → "ogc"; /health, /metrics and /v1 → "meta". */
function familyOf(path: string): string {
  const parts = path.split("/").filter(Boolean);
  if (parts[0] === "v1") return parts[1] ?? "meta";
  return parts[0] === "health" || parts[0] === "metrics" || !parts[0] ? "meta" : parts[0];
}

/** `sources`: by family, the short name of the registry's default provider of its routes (none: not named). */
export function endpointFamilies(paths: readonly string[], sources: Readonly<Record<string, string>> = {}): string {
  const families = new Map<string, string[]>();
  for (const path of [...paths].sort()) {
    const family = familyOf(path);
    families.set(family, [...(families.get(family) ?? []), path]);
  }
  const order = Object.keys(BY_FAMILY).filter((family) => BY_FAMILY[family]?.name);
  const rank = (family: string) => (order.includes(family) ? order.indexOf(family) : order.length);
  const lines = [...families.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([family, members]) => `- **${familyName(family, sources)}**: ${members.map((p) => "`" + p + "`").join(", ")}`);
  return "\n\nEndpoint families (every path of this document):\n\n" + lines.join("\n") + "\n\nThe map page (`/`) draws these answers, from this instance alone.";
}
