/**
 * A pass over the document @elysiajs/swagger generates, so that linters (Redocly recommended,
 * Spectral `spectral:oas`) and client generators accept it. It works on the finished JSON, not on
 * the route files, so it keeps working when routes move between files.
 *
 * - A nested schema that is a copy of a named component becomes a `$ref` to it: generated clients
 *   get one named type (SoilObservation, LabObservation, ...) instead of anonymous copies, and every
 *   component is used.
 * - Short operation ids, each declared by its route (the plugin would say getV1ProvidersByProviderIdRawPedonsByPedonKey).
 * - Parameter `examples` (the plugin copies the JSON Schema array) become the parameter's `example`.
 * - Patterns the route parsers enforce are declared in the parameters' own schemas (`pattern`).
 * - HEAD and 405 are noted on every operation: each GET also answers HEAD, other methods get 405.
 * - What the boundary refuses before any route is documented on every operation: a URI over its bound
 *   (414) and a query parameter given twice (422; on /ogc, with different values, OGC API's 400).
 */
import type { OpenAPIV3 } from "openapi-types";
import { endpointFamilies } from "./endpoint-families";
import { MAX_AOI_URI_LENGTH, MAX_URI_LENGTH } from "./boundary";
import { isOgcPath } from "./error-response";

/**
 * Operation ids are declared by each route (`detail.operationId`, next to its path): the names are a
 * public contract (generated clients use them as method names), and a route moving between files
 * keeps its name (docs/decisions.md#contract-lists). test/http/openapi-lint.test.ts fails on an operation without one.
 *
 * A route that cannot declare one may still be named here by "METHOD path" (a declared id wins).
 */
export const OPERATION_IDS: Record<string, string> = {};

const HEAD_NOTE = "Also answers HEAD with the same status and headers and no body.";

const METHOD_NOT_ALLOWED: OpenAPIV3.ResponseObject = {
  description: "A method other than GET, HEAD or a CORS preflight OPTIONS (code method_not_allowed); the Allow header lists GET, HEAD.",
  headers: { Allow: { description: "GET, HEAD", schema: { type: "string" } } },
  content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } },
};

const ERROR_CONTENT = { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } };

const URI_TOO_LONG: OpenAPIV3.ResponseObject = {
  description: `The request URI is over ${MAX_URI_LENGTH.toLocaleString("en")} characters (${MAX_AOI_URI_LENGTH.toLocaleString("en")} on /v1/soil/aoi) (code uri_too_long).`,
  content: ERROR_CONTENT,
};
const REPEATED: OpenAPIV3.ResponseObject = { description: "A query parameter given twice (code validation_error).", content: ERROR_CONTENT };
const OGC_REPEATED: OpenAPIV3.ResponseObject = { description: "A query parameter given twice with different values (code bad_request).", content: ERROR_CONTENT };

/**
 * A response model whose observations are of one kind with the providers served (document-sources.ts):
 * its `observations` items name that kind, so a generated client reads `survey_context` without a
 * type guard (docs/decisions.md#typed-observations). Every other model is as generated.
 */
function oneKind(name: string, schema: Json, observations: Readonly<Record<string, string>>): Json {
  const kind = observations[name];
  const properties = schema && typeof schema === "object" && !Array.isArray(schema) ? (schema.properties as Record<string, Json> | undefined) : undefined;
  const member = properties?.observations;
  if (kind === undefined || !member || typeof member !== "object" || Array.isArray(member)) return schema;
  return { ...(schema as Record<string, Json>), properties: { ...properties, observations: { ...member, items: { $ref: `#/components/schemas/${kind}` } } } };
}

/** The component names a document's paths and schemas refer to. */
function referencedNames(...parts: unknown[]): Set<string> {
  return new Set([...JSON.stringify(parts).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!));
}

/**
 * The components that were in use before oneKind named one kind and are in use no more (the union of
 * every kind, and the kinds only it named) are left out, so every component stays used; a component the
 * generated document never referred to is kept as it was.
 */
function dropUnreferenced(schemas: Record<string, Json>, paths: unknown, before: ReadonlySet<string>): void {
  for (;;) {
    const now = referencedNames(paths);
    for (const [name, schema] of Object.entries(schemas)) for (const used of referencedNames(schema)) if (used !== name) now.add(used);
    const gone = Object.keys(schemas).filter((name) => before.has(name) && !now.has(name));
    if (gone.length === 0) return;
    for (const name of gone) delete schemas[name];
  }
}

/** The boundary's refusals (boundary.ts), where the route did not document that status itself. */
function boundaryResponses(path: string, responses: Record<string, unknown> | undefined): Record<string, unknown> {
  const repeated = isOgcPath(path) ? { 400: OGC_REPEATED } : { 422: REPEATED };
  return { ...repeated, 405: METHOD_NOT_ALLOWED, 414: URI_TOO_LONG, ...responses };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]));
  }
  return value;
}

/**
 * Replace, below `node`, each schema that is an exact copy of component `title` by a `$ref` to it
 * (TypeBox keeps the `title` on the nested copy; the equality check means a copy changed on the way
 * is left inline rather than silently replaced by something else).
 */
function refCopies(node: Json, schemas: Record<string, Json>, isRoot: boolean): Json {
  if (Array.isArray(node)) return node.map((item) => refCopies(item, schemas, false));
  if (!node || typeof node !== "object") return node;
  const title = node.title;
  if (!isRoot && typeof title === "string" && title in schemas && sameJson(node, schemas[title])) {
    return { $ref: `#/components/schemas/${title}` };
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, refCopies(value, schemas, false)]));
}

/** The id a route declared; the plugin names every operation itself (getV1PedonsByPedonKey), so its own form is not one. */
function declaredId(operation: Record<string, any>): string | undefined {
  const id = operation.operationId;
  return typeof id === "string" && !/^(get|head)V1|^get[A-Z][a-z]+By/.test(id) ? id : undefined;
}

function polishParameter(parameter: Record<string, any>): Record<string, any> {
  const { examples, ...rest } = parameter;
  const out: Record<string, any> = { ...rest };
  if (Array.isArray(examples) && examples.length > 0) out.example = examples[0];
  else if (examples && typeof examples === "object") out.examples = examples;
  return out;
}

/** `families`: by endpoint family, the short name of the provider its routes answer from by default (endpoint-families.ts). */
export function polishDocument<T extends Record<string, any>>(doc: T, families: Readonly<Record<string, string>> = {}, observations: Readonly<Record<string, string>> = {}): T {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, Json>;
  const generated = Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, refCopies(schema, schemas, true)]));
  const componentSchemas = Object.fromEntries(Object.entries(generated).map(([name, schema]) => [name, oneKind(name, schema, observations)]));
  const paths: Record<string, Record<string, any>> = {};
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, any>>)) {
    const operations: Record<string, any> = {};
    for (const [method, operation] of Object.entries(item)) {
      const id = declaredId(operation) ?? OPERATION_IDS[`${method} ${path}`];
      const polished: Record<string, any> = {
        ...operation,
        ...(id ? { operationId: id } : {}),
        responses: boundaryResponses(path, operation.responses),
      };
      if (Array.isArray(operation.parameters)) polished.parameters = operation.parameters.map(polishParameter);
      if (method === "get" && !String(operation.description ?? "").includes(HEAD_NOTE)) {
        polished.description = operation.description ? `${operation.description} ${HEAD_NOTE}` : HEAD_NOTE;
      }
      operations[method] = refCopies(polished as Json, schemas, true);
    }
    paths[path] = operations;
  }
  const info = doc.info ? { ...doc.info, description: String(doc.info.description ?? "") + endpointFamilies(Object.keys(paths), families) } : doc.info;
  dropUnreferenced(componentSchemas, paths, referencedNames(paths, generated));
  return { ...doc, info, paths, components: { ...doc.components, schemas: componentSchemas } };
}
