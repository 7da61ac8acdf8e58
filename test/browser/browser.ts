/**
 * Headless Debian Chromium driven by playwright-core, for the browser tests. Never downloads a browser:
 * /usr/bin/chromium must be installed (Debian package `chromium`; CI installs it). If it is missing the
 * tests fail with a message saying so; nothing is skipped silently.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { late, startLoam, type RunningLoam, type StartOptions } from "../support/server";
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page, type Request } from "playwright-core";

export const CHROMIUM = process.env.LOAM_CHROMIUM ?? "/usr/bin/chromium";

/** Flags for this machine's closed network: no background connections, no component updates. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const ARTIFACTS = join(import.meta.dir, "..", "artifacts");

/**
 * A browser test's budget (docs/decisions.md#test-readiness): what a 2-core machine with other work
 * beside it meets; a test alone takes 5 to 40 s. Readiness inside a test is awaited (selectors, page
 * states, answers), each wait bounded by READY_MS, never slept for.
 */
export const BROWSER_TEST_MS = 300_000;
export const READY_MS = 120_000;

export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Browser tests need Debian's Chromium at ${CHROMIUM} (install it with: apt-get install -y chromium). ` +
        "playwright-core never downloads a browser; set LOAM_CHROMIUM to use another Chromium binary.",
    );
  }
}

/** Launch Chromium. Playwright gives every launch a fresh, empty temporary --user-data-dir. */
export async function launchChromium(): Promise<Browser> {
  requireChromium();
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: READY_MS });
}

export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  /** Every request the page made (URL strings), in order. */
  requests: string[];
  /** Console messages of type error, page errors, and failed requests. */
  errors: string[];
  /** Requests whose host is not 127.0.0.1 (should stay empty). */
  foreign(): string[];
  close(): Promise<void>;
}

/** A new page that records every request and every console error. */
export async function watchedPage(browser: Browser, viewport = { width: 1360, height: 860 }, device: { hasTouch?: boolean; isMobile?: boolean } = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, serviceWorkers: "block", ...device });
  // Every action and navigation without a bound of its own waits as long as a loaded machine needs (Playwright's default: 30 s).
  context.setDefaultTimeout(READY_MS);
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (request: Request) => requests.push(request.url()));
  page.on("console", (message: ConsoleMessage) => {
    if (message.type() === "error") errors.push(`console: ${message.text()} @ ${message.location().url}`);
  });
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("requestfailed", (request) => {
    const failure = request.failure()?.errorText ?? "failed";
    // An aborted stale request (AbortController) is intended, not an error.
    if (failure !== "net::ERR_ABORTED") errors.push(`requestfailed: ${request.url()} ${failure}`);
  });
  return {
    context,
    page,
    requests,
    errors,
    foreign: () => requests.filter((url) => !isLoopback(url)),
    close: () => context.close(),
  };
}

/** http(s)://127.0.0.1:port/... (data: URLs never leave the page). */
export function isLoopback(url: string): boolean {
  if (url.startsWith("data:") || url.startsWith("blob:")) return true;
  try {
    return new URL(url).hostname === "127.0.0.1";
  } catch {
    return false;
  }
}

export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}

/**
 * One Chromium for the browser tests of this process, launched while this module loads. When a test
 * runs out of its time, Bun kills every process the file's hooks and tests started (its "dangling
 * processes"), Chromium with them, and every later test failed with "Target page, context or browser
 * has been closed" (issue 43: one slow test, then nine such failures); a process started while a
 * module loads is not among them. Playwright closes it when the process exits.
 */
let shared: Browser = await launchChromium();

/**
 * The shared Chromium for a test file's tests: each test's own contexts (watchedPage) are closed after
 * it, also when it ran out of time, so a slow test leaves nothing running under the next; a browser that
 * is no longer connected (it crashed) is launched again before the next test.
 */
export function useBrowser(): Browser {
  let before = new Set<BrowserContext>();
  beforeEach(async () => {
    if (!shared.isConnected()) shared = await launchChromium();
    before = new Set(shared.contexts());
  }, READY_MS + 10_000);
  afterEach(async () => {
    await Promise.all(shared.contexts().filter((context) => !before.has(context)).map((context) => context.close().catch(() => {})));
  }, READY_MS);
  return late(() => shared, "browser");
}

/**
 * Loam and a Chromium for a whole test file, started before its tests and closed after; `options` as
 * startLoam's (e.g. `providers`: a second provider of a shape registered beside the defaults).
 */
export function useLoamAndBrowser(options: StartOptions = {}): { loam: RunningLoam; browser: Browser } {
  let loam: RunningLoam | undefined;
  beforeAll(async () => {
    loam = await startLoam(options);
  }, READY_MS);
  afterAll(async () => {
    await loam?.stop();
  });
  return { loam: late(() => loam, "loam"), browser: useBrowser() };
}

/** A phone: 390 x 844 CSS pixels, a touch screen, no hovering pointer. */
export const PHONE = { viewport: { width: 390, height: 844 }, device: { hasTouch: true, isMobile: true } };
export const DESKTOP = { viewport: { width: 1440, height: 900 }, device: {} };

/** The page raised no error and asked nothing of any host but Loam's. */
export function expectClean(watched: WatchedPage): void {
  expect(watched.errors).toEqual([]);
  expect(watched.foreign()).toEqual([]);
}

/** The page position of a lat/lon on the map page's Leaflet map (window.loamMap), for mouse clicks. */
export async function pixelOf(page: Page, lat: number, lon: number): Promise<{ x: number; y: number }> {
  return page.evaluate(
    ([la, lo]) => {
      const map = (window as any).loamMap;
      const point = map.latLngToContainerPoint([la, lo]);
      const rect = map.getContainer().getBoundingClientRect();
      return { x: rect.left + point.x, y: rect.top + point.y };
    },
    [lat, lon] as const,
  );
}

/**
 * The RGB of points of a screenshot (page pixels, deviceScaleFactor 1), decoded in a blank page of the same
 * browser: what was painted, whatever drew it (SVG, canvas, CSS).
 */
export async function screenshotPixels(browser: Browser, png: Buffer, points: { x: number; y: number }[]): Promise<number[][]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    return await page.evaluate(
      async ({ data, pts }) => {
        const image = new Image();
        image.src = "data:image/png;base64," + data;
        await image.decode();
        const canvas = document.createElement("canvas");
        canvas.width = image.width;
        canvas.height = image.height;
        const context2d = canvas.getContext("2d")!;
        context2d.drawImage(image, 0, 0);
        return pts.map((p) => [...context2d.getImageData(Math.round(p.x), Math.round(p.y), 1, 1).data].slice(0, 3));
      },
      { data: png.toString("base64"), pts: points },
    );
  } finally {
    await context.close();
  }
}

/** "#rrggbb" → [r, g, b]. */
export const rgbOf = (hex: string): number[] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
/** Two colours alike within `tolerance` on each channel (antialiasing, opacity over a pale basemap). */
export const near = (a: number[], b: number[], tolerance = 40): boolean => a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);
