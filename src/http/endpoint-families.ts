/**
 * The API's endpoint families, listed at the top of the OpenAPI description (what /docs shows first),
 * built from the document's own paths so that a new endpoint is listed the day it is served.
 */
const FAMILY_NAMES: Record<string, string> = {
  meta: "Service: health, metadata, metrics",
  soil: "Mapped soil survey (SSURGO): points, map units, summaries, areas",
  pedons: "Laboratory pedons (KSSL): points in a box, layers",
  series: "Official Soil Series Descriptions",
  geochem: "Geochemistry of surface soil (USGS): sample sites and their elements",
  stations: "Sensor stations: soil moisture and temperature time series",
  properties: "Catalog: the property vocabulary",
  providers: "Catalog and raw upstream payloads, per provider",
  ogc: "OGC API - Features for GIS clients (QGIS, GDAL)",
};

/** "/v1/soil/location" → "soil"; "/ogc/collections" → "ogc"; /health, /metrics and /v1 → "meta". */
function familyOf(path: string): string {
  const parts = path.split("/").filter(Boolean);
  if (parts[0] === "v1") return parts[1] ?? "meta";
  return parts[0] === "health" || parts[0] === "metrics" || !parts[0] ? "meta" : parts[0];
}

export function endpointFamilies(paths: readonly string[]): string {
  const families = new Map<string, string[]>();
  for (const path of [...paths].sort()) {
    const family = familyOf(path);
    families.set(family, [...(families.get(family) ?? []), path]);
  }
  const order = Object.keys(FAMILY_NAMES);
  const rank = (family: string) => (order.includes(family) ? order.indexOf(family) : order.length);
  const lines = [...families.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([family, members]) => `- **${FAMILY_NAMES[family] ?? family}**: ${members.map((p) => "`" + p + "`").join(", ")}`);
  return "\n\nEndpoint families (every path of this document):\n\n" + lines.join("\n") + "\n\nThe map page (`/`) draws these answers, from this instance alone.";
}
