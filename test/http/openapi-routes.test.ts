/**
 * Each route declares its operation once (`documentedRoute`, src/http/openapi.ts): the model of its 200,
 * its statuses, ETag, CSV and other representations. These tests hold the declaration to what the
 * routes answer: for every GET operation of the served document, the example request's answer carries
 * the headers and media type its 200 documents, a route documenting CSV answers CSV, and one that does
 * not never does.
 */
import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { documentedOperation, documentedRoute } from "../../src/http/openapi";
import { useLoam } from "../support/server";
import { exampleRequest, type OperationParameter } from "../support/openapi";

const { loam, contract } = useLoam();

/** The operation's first example request, as Swagger UI's "Try it out" sends it. */
function exampleUrl(template: string, parameters: OperationParameter[], extra: Record<string, string> = {}): string {
  const { path, query } = exampleRequest(template, parameters) ?? { path: template, query: new URLSearchParams() };
  for (const [name, value] of Object.entries(extra)) query.set(name, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

const mediaTypeOf = (response: Response) => (response.headers.get("content-type") ?? "").split(";")[0]!.trim();

describe("every operation's 200 documents what the route answers", () => {
  test("the example's answer has the documented media type, ETag exactly when the 200 documents ETag and a 304, and Cache-Control exactly when documented", async () => {
    const seen: string[] = [];
    const wrong: unknown[] = [];
    for (const [path, item] of Object.entries<any>(contract.doc.paths)) {
      const operation = item.get;
      if (!operation) continue;
      const ok = operation.responses["200"];
      const response = await loam.get(exampleUrl(path, operation.parameters ?? []));
      await response.arrayBuffer();
      const documentsEtag = ok.headers?.ETag !== undefined;
      const found = { status: response.status, media: mediaTypeOf(response), etag: response.headers.has("etag"), cacheControl: response.headers.has("cache-control"), notModified: operation.responses["304"] !== undefined };
      const documented = { status: 200, media: Object.keys(ok.content).includes(found.media) ? found.media : Object.keys(ok.content), etag: documentsEtag, cacheControl: ok.headers?.["Cache-Control"] !== undefined, notModified: documentsEtag };
      if (!Bun.deepEquals(found, documented)) wrong.push({ path, found, documented });
      seen.push(operation.operationId);
    }
    expect(wrong).toEqual([]);
    expect(seen.length).toBeGreaterThanOrEqual(30);
  }, 60_000);

  test("a route that documents format=csv answers it as a CSV attachment; one that does not never answers CSV", async () => {
    let csv = 0;
    for (const [path, item] of Object.entries<any>(contract.doc.paths)) {
      const operation = item.get;
      if (!operation) continue;
      const format = (operation.parameters ?? []).find((p: any) => p.name === "format" && p.in === "query");
      const response = await loam.get(exampleUrl(path, operation.parameters ?? [], { format: "csv" }));
      const text = await response.text();
      if (format?.schema?.enum?.includes("csv")) {
        csv++;
        expect({ path, status: response.status, media: mediaTypeOf(response) }).toEqual({ path, status: 200, media: "text/csv" });
        expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="loam-.+\.csv"$/);
        expect(text.split("\r\n")[0]!.length).toBeGreaterThan(0);
      } else {
        expect({ path, media: mediaTypeOf(response) }).not.toEqual({ path, media: "text/csv" });
      }
    }
    expect(csv).toBeGreaterThanOrEqual(10);
  }, 60_000);
});

describe("documentedRoute", () => {
  const Body = Type.Object({ n: Type.Number() }, { title: "Body" });
  const Other = Type.Object({ m: Type.String() }, { title: "Other" });

  test("names the 200's model by its title, types the route with it, and adds 429 and 500 to the route's own statuses", () => {
    const route = documentedRoute({ operationId: "getBody", tag: "meta", summary: "s", description: "d", ok: [Body, "A body."], errors: { 404: ["ErrorResponse", "Not found."] } });
    expect(route.response[200]).toBe(Body);
    expect(route.detail.operationId).toBe("getBody");
    expect(route.detail.tags).toEqual(["meta"]);
    expect(Object.keys(route.detail.responses).sort()).toEqual(["200", "404", "429", "500"]);
    expect((route.detail.responses["200"] as any).content).toEqual({ "application/json": { schema: { $ref: "#/components/schemas/Body" } } });
    expect((route.detail.responses["429"] as any).headers["Retry-After"]).toBeDefined();
  });

  test("etag documents ETag and Cache-Control on the 200 and a 304; csv documents the table on the 200 (text/csv, its rows, Content-Disposition), JSON its one media type", () => {
    const { detail } = documentedRoute({ operationId: "x", tag: "soil", summary: "s", description: "d", ok: [Body, "A body."], etag: true, csv: "one row per n" });
    const ok = detail.responses["200"] as any;
    expect(Object.keys(ok.headers)).toEqual(expect.arrayContaining(["ETag", "Cache-Control", "Content-Disposition", "Vary"]));
    expect(ok.description).toContain("text/csv; charset=utf-8; header=present");
    expect(ok.description).toContain("one row per n");
    // One media type, so a typed client (openapi-fetch) types the body as the model (docs/decisions.md#typed-clients).
    expect(Object.keys(ok.content)).toEqual(["application/json"]);
    expect(detail.responses["304"]).toBeDefined();
    const plain = documentedRoute({ operationId: "x", tag: "soil", summary: "s", description: "d", ok: [Body, "A body."] }).detail;
    expect(plain.responses["304"]).toBeUndefined();
    expect((plain.responses["200"] as any).headers.ETag).toBeUndefined();
  });

  test("a media type replaces JSON, an alternative is added beside it and widens the declared body, a link documents the Link header", () => {
    const geo = documentedOperation({ operationId: "x", tag: "ogc", summary: "s", description: "d", ok: [Body, "A body."], mediaType: "application/geo+json", link: "The next page." });
    expect(Object.keys((geo.responses["200"] as any).content)).toEqual(["application/geo+json"]);
    expect((geo.responses["200"] as any).headers.Link.description).toBe("The next page.");
    const both = documentedRoute({ operationId: "x", tag: "soil", summary: "s", description: "d", ok: [Body, "A body."], alternative: ["application/geo+json", Other] });
    expect((both.detail.responses["200"] as any).content["application/geo+json"]).toEqual({ schema: { $ref: "#/components/schemas/Other" } });
    expect(both.response[200].anyOf).toEqual([Body, Other]);
  });

  test("a model without a title is refused: it would name no component", () => {
    expect(() => documentedRoute({ operationId: "x", tag: "soil", summary: "s", description: "d", ok: [Type.Object({}), "A body."] })).toThrow(/title/);
  });
});
