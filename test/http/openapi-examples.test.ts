/**
 * Every operation's OpenAPI examples, sent as they are, answer 2xx (docs/decisions.md#contract-lists): what Swagger UI's
 * "Try it out" sends with the document's own examples. The test walks the served document, so a new
 * operation or a changed example is covered without editing this file.
 */
import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";

const { loam, contract } = useLoam();

interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}

/** The example values of a parameter, as the document gives them (`example`, or each of `examples`). */
function examplesOf(p: Parameter): unknown[] {
  if (p.example !== undefined) return [p.example];
  if (p.examples) return Object.values(p.examples).map((e) => e.value);
  return [];
}

/** Requests built from an operation's examples: all first examples together, then each further example in turn. */
function requestsOf(path: string, parameters: Parameter[]): string[] {
  const first = new Map(parameters.filter((p) => examplesOf(p).length > 0).map((p) => [p, examplesOf(p)[0]]));
  const build = (values: Map<Parameter, unknown>) => {
    let url = path;
    const query = new URLSearchParams();
    for (const [p, v] of values) {
      if (p.in === "path") url = url.replace(`{${p.name}}`, encodeURIComponent(String(v)));
      else if (p.in === "query") query.set(p.name, String(v));
    }
    const text = query.toString();
    return text ? `${url}?${text}` : url;
  };
  const urls = [build(first)];
  for (const p of first.keys()) for (const v of examplesOf(p).slice(1)) urls.push(build(new Map([...first, [p, v]])));
  return urls;
}

describe("the OpenAPI document's examples", () => {
  test("every operation, sent with its examples as they are, answers 2xx with its documented body", async () => {
    const doc = contract.doc;
    let sent = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      const operation = item.get;
      if (!operation) continue;
      const parameters: Parameter[] = operation.parameters ?? [];
      // A required parameter without an example cannot be tried out as documented.
      const missing = parameters.filter((p) => p.required && examplesOf(p).length === 0).map((p) => p.name);
      expect({ operation: operation.operationId, missing }).toEqual({ operation: operation.operationId, missing: [] });
      for (const url of requestsOf(path, parameters)) {
        const response = await loam.get(url);
        const type = response.headers.get("content-type") ?? "";
        const body = type.includes("json") ? await response.json() : await response.text();
        expect({ operation: operation.operationId, url, status: response.status, error: response.status >= 300 ? body : undefined }).toEqual({
          operation: operation.operationId,
          url,
          status: expect.any(Number),
          error: undefined,
        });
        expect(response.status).toBeLessThan(300);
        const model = contract.responseModel(path, 200);
        if (model && type.includes("json")) contract.assert(model, body);
        sent++;
      }
    }
    expect(sent).toBeGreaterThanOrEqual(Object.keys(doc.paths).length);
  });
});
