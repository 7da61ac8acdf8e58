/** Route hook: apply the strict reader of `query.ts` before Elysia's own validation. */
import type { TObject } from "@sinclair/typebox";
import { readQuery } from "./query";

export function strictQuery(schema: TObject) {
  return ({ request, query }: { request: Request; query: Record<string, unknown> }) => {
    const parsed = readQuery(request.url, schema);
    for (const key of Object.keys(query)) if (!(key in parsed)) delete query[key];
    Object.assign(query, parsed);
  };
}
