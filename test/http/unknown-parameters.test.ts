/**
 * A query parameter a /v1 route does not read is not silent (issue 45, DESIGN §19,
 * docs/decisions.md#unknown-parameters): the answer is the one without it, plus one warning naming it
 * and the closest name the route reads. Every /v1 operation of the served document is asked with its
 * examples, then with an unknown parameter added: same status, same data, one more warning.
 */
import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";
import { parseRfc4180 } from "../support/csv";
import { exampleRequest, type OperationParameter } from "../support/openapi";

const { loam } = useLoam();

/** The body without what changes between two asks of the same thing (the cache's hit and age). */
const comparable = (body: any) => {
  const { cache: _cache, warnings, ...rest } = body;
  return { rest, warnings };
};

describe("unknown /v1 query parameters", () => {
  test("every /v1 route answers the same data with one more warning naming the parameter and its closest known name", async () => {
    const document = (await loam.json("/openapi.json")).body;
    let withWarnings = 0;
    let routes = 0;
    for (const [template, item] of Object.entries<any>(document.paths)) {
      if (!template.startsWith("/v1/") || !item.get) continue;
      const parameters: OperationParameter[] = item.get.parameters ?? [];
      const request = exampleRequest(template, parameters, ["format"]);
      if (!request) continue;
      const { path, query } = request;
      const plain = await loam.get(`${path}?${query}`);
      if (plain.status !== 200 || !plain.headers.get("content-type")?.includes("json")) continue;
      const before = comparable(await plain.json());
      query.set("limt", "5");
      const asked = await loam.json(`${path}?${query}`);
      routes++;
      expect({ template, status: asked.status }).toEqual({ template, status: 200 });
      // A next link keeps the request's query, the unknown parameter too (its next page says so again).
      const after = comparable(JSON.parse(JSON.stringify(asked.body).replaceAll("&limt=5", "")));
      expect({ template, data: after.rest }).toEqual({ template, data: before.rest });
      if (!Array.isArray(before.warnings)) continue;
      withWarnings++;
      const added = after.warnings.filter((w: string) => !before.warnings.includes(w));
      expect({ template, added: added.length }).toEqual({ template, added: 1 });
      expect(added[0]).toContain("'limt'");
      expect(added[0]).toContain("not read by this route");
      // The closest name is one the route reads: limit where it pages, none otherwise.
      const reads = parameters.filter((p) => p.in === "query").map((p) => p.name);
      if (reads.includes("limit")) expect(added[0]).toContain("did you mean 'limit'?");
    }
    expect(routes).toBeGreaterThanOrEqual(15);
    expect(withWarnings).toBeGreaterThanOrEqual(10);
  });

  test("a parameter named like a property of every object (__proto__, constructor, toString) is an unknown parameter like any other, never a 500", async () => {
    const point = "/v1/soil/location?latitude=41.944131&longitude=-94.359608";
    const defaults = (await loam.json(point)).body;
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
      const asked = await loam.json(`${point}&${name}=`);
      expect({ name, status: asked.status }).toEqual({ name, status: 200 });
      expect(asked.body.observations).toEqual(defaults.observations);
      expect(asked.body.warnings.find((w: string) => w.includes("not read by this route"))).toContain(`'${name}'`);
    }
  });

  test("property=clay on the point query: the default properties, and a warning pointing to properties; depth=30 points to depth_bottom_cm", async () => {
    const point = "/v1/soil/location?latitude=41.944131&longitude=-94.359608";
    const defaults = (await loam.json(point)).body;
    const misspelt = await loam.json(`${point}&property=clay&depth=30`);
    expect(misspelt.status).toBe(200);
    expect(misspelt.body.observations).toEqual(defaults.observations);
    const warning = misspelt.body.warnings.find((w: string) => w.includes("not read by this route"));
    expect(warning).toContain("'property' (did you mean 'properties'?)");
    expect(warning).toContain("'depth' (did you mean 'depth_bottom_cm'?)");
    // The CSV carries it once, with the answer's warnings.
    const [header, ...rows] = parseRfc4180(await (await loam.get(`${point}&property=clay&format=csv`)).text());
    const at = header!.indexOf("answer_warnings");
    expect(rows[0]![at]).toContain("did you mean 'properties'?");
    expect(rows.slice(1).every((row) => !row[at]!.includes("not read"))).toBe(true);
  });

  test("a route that reads `property` (the map-unit polygons) takes it as known: no warning", async () => {
    const body = (await loam.json("/v1/soil/mapunits?bbox=-94.37,41.934,-94.35,41.954&property=clay")).body;
    expect(body.features.length).toBeGreaterThan(0);
    expect(body.features.some((f: any) => f.properties.summary?.value != null)).toBe(true);
    expect(body.warnings.some((w: string) => w.includes("not read by this route"))).toBe(false);
  });

  test("the answer with an unknown parameter has its own entity tag, and a name no route has is told so", async () => {
    const plain = await loam.get("/v1/pedons?bbox=-96,38.5,-95,39.5");
    const odd = await loam.json("/v1/pedons?bbox=-96,38.5,-95,39.5&zzzzzzzz=1");
    expect(odd.headers.get("etag")).not.toBe(plain.headers.get("etag"));
    expect(odd.body.warnings.find((w: string) => w.includes("'zzzzzzzz'"))).toContain("no parameter of this route is close");
  });
});
