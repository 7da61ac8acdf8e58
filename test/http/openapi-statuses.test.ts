/**
 * The OpenAPI document lists every status an operation answers with (docs/decisions.md#contract-lists):
 * for each GET operation the document declares, a set of requests made from the document itself (its
 * examples, then each path id unknown and over-long, each required parameter left out, each declared
 * query parameter given a value no rule accepts, a parameter given twice with different values, a URI
 * over the bound) is sent to a running Loam, and every status that comes back must be one the
 * operation documents. A new operation is covered without editing this file.
 */
import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";

const { loam, contract } = useLoam();

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  example?: unknown;
  schema?: { examples?: unknown[]; default?: unknown };
}

const exampleOf = (p: Parameter) => String(p.example ?? p.schema?.examples?.[0] ?? p.schema?.default ?? "x");

/** The requests for one operation: [why, path and query]. */
function requestsFor(template: string, parameters: Parameter[]): [string, string][] {
  const pathParams = parameters.filter((p) => p.in === "path");
  const queryParams = parameters.filter((p) => p.in === "query");
  const required = queryParams.filter((p) => p.required);
  const pathWith = (name?: string, value?: string) =>
    template.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(n === name ? value! : exampleOf(pathParams.find((p) => p.name === n)!)));
  const query = (params: Parameter[], extra: string[] = []) => {
    const text = [...params.map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(exampleOf(p))}`), ...extra].join("&");
    return text ? `?${text}` : "";
  };
  const base = pathWith();
  const requests: [string, string][] = [["the document's example", base + query(required)]];
  for (const p of pathParams) {
    requests.push([`${p.name} unknown`, pathWith(p.name, "zz9999zz") + query(required)]);
    requests.push([`${p.name} over-long`, pathWith(p.name, "7".repeat(60)) + query(required)]);
  }
  for (const p of required) requests.push([`${p.name} left out`, base + query(required.filter((q) => q !== p))]);
  for (const p of queryParams) {
    const others = required.filter((q) => q !== p);
    requests.push([`${p.name} not a value its rule accepts`, base + query(others, [`${encodeURIComponent(p.name)}=%7E%21zz`])]);
    requests.push([`${p.name} 20 digits`, base + query(others, [`${encodeURIComponent(p.name)}=${"9".repeat(20)}`])]);
  }
  requests.push(["a parameter given twice with different values", base + query(required, ["limit=1", "limit=2"])]);
  requests.push(["a URI over the bound", base + query(required, [`pad=${"a".repeat(70_000)}`])]);
  return requests;
}

describe("the OpenAPI document lists every status", () => {
  test("every status each operation answers the document's own requests with is documented for it (414, 400 on OGC items/{id}, 422 on /v1/providers included)", async () => {
    const paths = contract.doc.paths as Record<string, Record<string, { parameters?: Parameter[]; responses: Record<string, unknown> }>>;
    const undocumented: string[] = [];
    let sent = 0;
    const seen = new Set<string>();
    for (const [template, operations] of Object.entries(paths)) {
      const get = operations.get;
      if (!get) continue;
      for (const [why, target] of requestsFor(template, get.parameters ?? [])) {
        const response = await loam.get(target);
        await response.arrayBuffer();
        sent += 1;
        seen.add(`${template} ${response.status}`);
        if (!(String(response.status) in get.responses)) undocumented.push(`GET ${template} (${why}): ${response.status}`);
      }
    }
    expect(undocumented).toEqual([]);
    expect(sent).toBeGreaterThan(100);
    // The requests reach the statuses the issue names, so the check above is not empty for them.
    for (const status of ["/ogc/collections/{collection_id}/items/{feature_id} 400", "/v1/providers 422", "/v1/providers 414", "/ogc/collections/{collection_id}/items 400", "/ogc/collections/{collection_id} 404"]) {
      expect({ status, reached: seen.has(status) }).toEqual({ status, reached: true });
    }
  }, 120_000);

  test("the OGC limit is an integer in the document", () => {
    const items = contract.doc.paths["/ogc/collections/{collection_id}/items"].get;
    const limit = items.parameters.find((p: Parameter) => p.name === "limit");
    expect(limit.schema.type).toBe("integer");
    expect(limit.schema.minimum).toBe(1);
  });
});
