/**
 * A query parameter a `/v1` route does not read is not silent (docs/decisions.md#unknown-parameters):
 * the answer is the one the route gives without it, plus a warning naming the parameter and the closest
 * name the route does read (`property` -> `properties`, `depth` -> `depth_bottom_cm`). Not a 422: a
 * client that adds its own parameter (a cache buster, a tracking tag) keeps working; but a misspelt
 * parameter no longer quietly gives the defaults.
 */

/**
 * Names users reach for first, and the parameter they mean, when the route reads it. A Map: a name is
 * the client's (`__proto__`, `constructor`), never a key of an object's prototype.
 */
const MEANT: ReadonlyMap<string, readonly string[]> = new Map(Object.entries({
  depth: ["depth_bottom_cm", "depth_cm"],
  depth_cm: ["depth_bottom_cm"],
  top: ["depth_top_cm"],
  bottom: ["depth_bottom_cm"],
  property: ["properties", "property"],
  properties: ["property", "properties"],
  element: ["properties", "property", "element"],
  lat: ["latitude"],
  lon: ["longitude"],
  lng: ["longitude"],
  long: ["longitude"],
  provider: ["providers", "provider"],
  providers: ["provider", "providers"],
  page: ["cursor"],
  offset: ["cursor"],
  next: ["cursor"],
  box: ["bbox"],
}));

/** Unknown names listed in one warning at most; a longer name is clipped. */
const MAX_LISTED = 5;
const MAX_NAME = 40;

/** Edit distance (insertions, deletions, substitutions) between two short names. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** The declared name closest to `name`: a known alias first, else the nearest by edit distance (case aside) when near enough; null when none is. */
export function closestName(name: string, declared: readonly string[]): string | null {
  // A name longer than any parameter's is compared by its start: the edit distance stays a few hundred steps.
  const lower = name.toLowerCase().slice(0, MAX_NAME);
  const meant = MEANT.get(lower)?.find((candidate) => declared.includes(candidate));
  if (meant !== undefined) return meant;
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of declared) {
    const d = candidate.startsWith(lower) || lower.startsWith(candidate) ? Math.abs(candidate.length - lower.length) / 4 : distance(lower, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return bestDistance <= Math.max(2, Math.floor(lower.length / 3)) ? best : null;
}

const clipped = (name: string) => (name.length > MAX_NAME ? `${name.slice(0, MAX_NAME)}…` : name);

/** The warning of a request's unknown parameters, or null when it gave none. */
export function unknownParameterWarning(unknown: readonly string[], declared: readonly string[]): string | null {
  if (unknown.length === 0) return null;
  const named = unknown.slice(0, MAX_LISTED).map((name) => {
    const closest = closestName(name, declared);
    return `'${clipped(name)}'${closest === null ? " (no parameter of this route is close)" : ` (did you mean '${closest}'?)`}`;
  });
  const more = unknown.length > MAX_LISTED ? ` and ${unknown.length - MAX_LISTED} more` : "";
  return `Query parameter${unknown.length === 1 ? "" : "s"} ${named.join(", ")}${more} ${unknown.length === 1 ? "is" : "are"} not read by this route and ${unknown.length === 1 ? "was" : "were"} ignored: this answer is the one without ${unknown.length === 1 ? "it" : "them"}. ${declared.length === 0 ? "This route reads no query parameter" : `This route reads ${declared.join(", ")}`}.`;
}
