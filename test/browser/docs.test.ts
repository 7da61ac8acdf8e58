/**
 * /docs in headless Chromium: Swagger UI renders Loam's own OpenAPI document from local assets, and no
 * request leaves 127.0.0.1.
 */
import { describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { artifactPath, useLoamAndBrowser, watchedPage } from "./browser";

const { loam, browser } = useLoamAndBrowser();

describe("/docs", () => {
  test("renders the API reference offline: the operations are listed, nothing is fetched from outside 127.0.0.1", async () => {
    const watched = await watchedPage(browser);
    const { page } = watched;
    await page.goto(loam.base + "/docs", { waitUntil: "load" });
    await page.waitForSelector(".opblock-summary-path", { timeout: 20_000 });
    const paths = await page.locator(".opblock-summary-path").allTextContents();
    const listed = paths.map((p) => p.replace(/\u200b/g, "").trim());
    for (const path of ["/v1/soil/location", "/v1/pedons", "/health", "/v1/providers"]) expect(listed).toContain(path);
    expect(watched.requests).toContain(loam.base + "/openapi.json");
    await page.screenshot({ path: artifactPath("docs.png") });
    expect(watched.foreign()).toEqual([]);
    expect(watched.errors).toEqual([]);
    await watched.close();
  }, 45_000);
});
