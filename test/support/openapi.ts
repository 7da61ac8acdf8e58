/**
 * Validate bodies against the OpenAPI document Loam serves, with an independent JSON Schema
 * validator (ajv, draft 2020-12), not against the TypeBox objects that generated it.
 */
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";

export interface ContractChecker {
  doc: any;
  /** Throws with ajv's errors when `body` does not match `#/components/schemas/<model>`. */
  assert(model: string, body: unknown): void;
  /** The schema the document gives for `path` `get` response `status` (for route-level checks). */
  responseModel(path: string, status: number): string | undefined;
}

export async function contractFrom(base: string): Promise<ContractChecker> {
  const doc = await (await fetch(`${base}/openapi.json`)).json();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, "openapi");
  const compiled = new Map<string, ValidateFunction>();
  return {
    doc,
    assert(model, body) {
      let validate = compiled.get(model);
      if (!validate) {
        if (!doc.components?.schemas?.[model]) throw new Error(`the OpenAPI document has no schema ${model}`);
        validate = ajv.compile({ $ref: `openapi#/components/schemas/${model}` });
        compiled.set(model, validate);
      }
      if (!validate(body)) {
        throw new Error(`body does not match ${model}: ${JSON.stringify(validate.errors?.slice(0, 5), null, 1)}`);
      }
    },
    responseModel(path, status) {
      const ref = doc.paths?.[path]?.get?.responses?.[String(status)]?.content?.["application/json"]?.schema?.$ref as string | undefined;
      return ref?.split("/").pop();
    },
  };
}

/** A parameter of an operation in the served document, as the tests that walk it read one. */
export interface OperationParameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
  schema?: { enum?: unknown[]; anyOf?: { const?: unknown; enum?: unknown[] }[] };
}

/** A parameter's first documented example, as Swagger UI's "Try it out" fills it in. */
export const exampleOf = (p: OperationParameter): unknown => p.example ?? (p.examples ? Object.values(p.examples)[0]?.value : undefined);

/**
 * An operation's example request: the path template with its path parameters' examples and the query
 * parameters' examples, leaving out the names in `skip`. Null when a path parameter has no example.
 */
export function exampleRequest(template: string, parameters: readonly OperationParameter[], skip: readonly string[] = []): { path: string; query: URLSearchParams } | null {
  let path = template;
  const query = new URLSearchParams();
  for (const p of parameters) {
    const value = exampleOf(p);
    if (value === undefined) {
      if (p.in === "path") return null;
      continue;
    }
    if (skip.includes(p.name)) continue;
    if (p.in === "path") path = path.replace(`{${p.name}}`, encodeURIComponent(String(value)));
    else if (p.in === "query") query.set(p.name, String(value));
  }
  return { path, query };
}
