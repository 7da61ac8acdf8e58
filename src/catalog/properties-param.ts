/** The `properties` parameter: comma-separated ids or aliases, resolved to canonical ids (docs/decisions.md#limits). */
import { clip } from "../errors";
import { ValidationError } from "../errors";
import { resolvePropertyId } from "./properties";
import { Memo } from "../lru";

export const MAX_PROPERTIES = 8;

/** Lists already read (a few clients ask the same lists again and again). */
const parsed = new Memo<string, readonly string[]>(512);

export function parseProperties(raw: string): string[] {
  return [...parsed.of(raw, resolveList)];
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
