/**
 * The browser harness (test/browser/browser.ts, docs/decisions.md#test-readiness): when a test runs out
 * of its time, Bun kills the processes the file started; Chromium must not be one of them, and the slow
 * test's page must not stay open under the next tests (issue 43: one test over its budget, then nine
 * failing with "Target page, context or browser has been closed"). A child `bun test` runs a fixture
 * whose first test runs out of its 3 s on purpose; the three after it must pass.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BROWSER_TEST_MS } from "./browser";

const ROOT = join(import.meta.dir, "..", "..");

describe("the browser harness", () => {
  test("after a test that ran out of its time, the next tests of the file have a connected browser and only their own page", async () => {
    const child = Bun.spawn([process.execPath, "test", "./test/browser/fixtures/slow-test.fixture.ts"], { cwd: ROOT, stdout: "pipe", stderr: "pipe", env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" } });
    const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    const lines = `${out}\n${err}`.split("\n");
    const results = lines.filter((line) => /^\((pass|fail)\)/.test(line)).map((line) => line.replace(/ \[[\d.]+m?s\]$/, ""));
    expect(results).toEqual([
      "(fail) after a test that ran out of its time > slow: waits for a page state that never comes",
      "(pass) after a test that ran out of its time > next 1: a connected browser and a working page",
      "(pass) after a test that ran out of its time > next 2: a connected browser and a working page",
      "(pass) after a test that ran out of its time > next 3: a connected browser and a working page",
    ]);
    // The slow one failed for its time, not for anything else.
    expect(lines.some((line) => /timed out after 3000ms/.test(line))).toBe(true);
  }, BROWSER_TEST_MS);
});
