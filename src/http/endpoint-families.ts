/**
 * The API's endpoint families, listed at the top of the OpenAPI description (what /docs shows first),
 * built from the document's own paths so that a new endpoint is listed the day it is served.
 */
const FAMILY_NAMES: Record<string, { name: string; members: string }> = {
  meta: { name: "Service", members: "health, metadata, metrics" },
  soil: { name: "Mapped soil survey", members: "points, map units, summaries, areas" },
  pedons: { name: "Laboratory pedons", members: "points in a box, layers" },
  series: { name: "Soil series descriptions", members: "the described concept of a series" },
  geochem: { name: "Geochemistry of surface soil", members: "sample sites and their elements" },
  stations: { name: "Sensor stations", members: "soil moisture and temperature time series" },
  properties: { name: "Catalog", members: "the property vocabulary" },
  providers: { name: "Catalog and raw upstream payloads, per provider", members: "" },
  ogc: { name: "OGC API - Features for GIS clients (QGIS, GDAL)", members: "" },
};

/** A family's line head: its name, the short name of the provider its routes answer from by default (docs/decisions.md#provider-words), and what it holds. */
function familyName(family: string, sources: Readonly<Record<string, string>>): string {
  const known = FAMILY_NAMES[family];
  if (!known) return family;
  const source = sources[family];
  return `${known.name}${source ? ` (${source})` : ""}${known.members ? `: ${known.members}` : ""}`;
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
  const order = Object.keys(FAMILY_NAMES);
  const rank = (family: string) => (order.includes(family) ? order.indexOf(family) : order.length);
  const lines = [...families.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([family, members]) => `- **${familyName(family, sources)}**: ${members.map((p) => "`" + p + "`").join(", ")}`);
  return "\n\nEndpoint families (every path of this document):\n\n" + lines.join("\n") + "\n\nThe map page (`/`) draws these answers, from this instance alone.";
}
