/** The `properties` parameter: comma-separated ids or aliases, resolved to canonical ids (docs/decisions.md#limits). */
import { clip } from "../answer/providers";
import { ValidationError } from "../errors";
import { resolvePropertyId } from "./properties";

export const MAX_PROPERTIES = 8;

/** Lists already read (a few clients ask the same lists again and again); bounded, emptied when full. */
const parsed = new Map<string, readonly string[]>();
const PARSED_MAX = 512;

export function parseProperties(raw: string): string[] {
  let ids = parsed.get(raw);
  if (ids === undefined) {
    ids = resolveList(raw);
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(raw, ids);
  }
  return [...ids];
}

function resolveList(raw: string): string[] {
  const ids: string[] = [];
  for (const item of raw.split(",")) {
    const name = item.trim();
    if (name === "") throw new ValidationError("Query parameter 'properties' has an empty item; give comma-separated property ids such as 'ph,clay'.");
    const id = resolvePropertyId(name);
    if (id === undefined) {
      throw new ValidationError(`Query parameter 'properties' names an unknown property '${clip(name)}'; GET /v1/properties lists the ids and their aliases.`);
    }
    if (!ids.includes(id)) ids.push(id);
  }
  if (ids.length > MAX_PROPERTIES) {
    throw new ValidationError(`Query parameter 'properties' names ${ids.length} distinct properties; at most ${MAX_PROPERTIES} are allowed per request.`);
  }
  return ids;
}
