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
