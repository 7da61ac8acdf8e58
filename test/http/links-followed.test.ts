/**
 * Every link in every answer works when followed (issue 45, DESIGN §19): each GET operation of the served
 * document is asked with its examples; every link its answer carries (a member named `href` or `next`, the
 * values of a `links` object, a string of this instance's own URL) is followed, one level, and answers 200
 * with data: a list a link names is not empty, since each link here points at what the snapshot holds.
 * Links to other sites (citations, source URLs) are not followed: tests make no network calls.
 */
import { describe, expect, test } from "bun:test";
import { useLoam } from "../support/server";
import { exampleRequest, type OperationParameter } from "../support/openapi";

const { loam } = useLoam();

/** Every request the document's examples make, path and query filled in. */
async function exampleRequests(): Promise<string[]> {
  const document = (await loam.json("/openapi.json")).body;
  const out: string[] = [];
  for (const [template, item] of Object.entries<any>(document.paths)) {
    const request = item.get ? exampleRequest(template, (item.get.parameters ?? []) as OperationParameter[], ["format"]) : null;
    if (!request) continue;
    const { path, query } = request;
    out.push(query.size > 0 ? `${path}?${query}` : path);
  }
  return out;
}

/** The links of an answer: `href` and `next` members, a `links` object's values, and strings of this instance's URL. */
function linksOf(value: unknown, base: string, key = "", into = new Set<string>()): Set<string> {
  if (typeof value === "string") {
    const own = value.startsWith(base) ? value.slice(base.length) : value;
    if ((key === "href" || key === "next" || key === "link" || value.startsWith(base)) && own.startsWith("/")) into.add(own);
  } else if (Array.isArray(value)) {
    for (const item of value) linksOf(item, base, key, into);
  } else if (value && typeof value === "object") {
    for (const [name, member] of Object.entries(value)) linksOf(member, base, key === "links" && typeof member === "string" ? "link" : name, into);
  }
  return into;
}

/** An empty answer is data enough where the answer says the point lies outside the offline snapshot. */
const outsideSnapshot = (body: any) => Array.isArray(body?.warnings) && body.warnings.some((w: string) => w.includes("outside this offline snapshot"));

/** What a followed link's answer holds: its list members' lengths, or 1 for a document with no list. */
function dataIn(body: any): number {
  const lists = ["features", "observations", "rows", "values", "layers", "collections", "summaries", "providers", "properties", "horizons"].filter((name) => Array.isArray(body?.[name]));
  if (lists.length === 0) return body && typeof body === "object" ? 1 : 0;
  return Math.max(...lists.map((name) => body[name].length));
}

describe("every link in every answer", () => {
  test("answers 200 with data when followed", async () => {
    const followed = new Map<string, string>();
    for (const path of await exampleRequests()) {
      const response = await loam.get(path);
      if (response.status !== 200 || !response.headers.get("content-type")?.match(/json/)) continue;
      for (const link of linksOf(await response.json(), loam.base)) if (!followed.has(link)) followed.set(link, path);
    }
    // The answers name pedons, series, map units, sites, stations, pages and OGC documents: a real walk.
    expect(followed.size).toBeGreaterThan(20);
    if (process.env.SHOW_LINKS) console.log([...followed.keys()].join("\n"));
    const broken: string[] = [];
    for (const [link, from] of followed) {
      if (link.startsWith("/docs") || link === "/openapi.json" || link === "/metrics") continue;
      const response = await loam.get(link);
      const type = response.headers.get("content-type") ?? "";
      if (response.status !== 200) {
        broken.push(`${link} (from ${from}): ${response.status}`);
        await response.arrayBuffer();
        continue;
      }
      if (!type.includes("json")) {
        await response.arrayBuffer();
        continue;
      }
      const body = await response.json();
      if (dataIn(body) === 0 && !outsideSnapshot(body)) broken.push(`${link} (from ${from}): no data`);
    }
    expect(broken).toEqual([]);
  }, 120_000);
});
