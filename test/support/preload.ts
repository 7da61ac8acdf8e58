/**
 * Loaded before the test files (bunfig.toml `preload`). Bun 1.4 ignores `[test] timeout` in bunfig.toml
 * (it is only `bun test --timeout`), and `setDefaultTimeout` holds for one file only, so every test and
 * hook without its own timeout stopped at Bun's default 5,000 ms (issue 27: three tests timed out so on
 * a busy 2-core machine). This plugin starts each test file with `setDefaultTimeout(60_000)`, whatever
 * command line runs the suite.
 */
import { plugin } from "bun";

export const TEST_TIMEOUT_MS = 60_000;

plugin({
  name: "loam-test-timeout",
  setup(build) {
    build.onLoad({ filter: /\.test\.ts$/ }, async ({ path }) => ({
      // One line, prepended without a line break, so line numbers in failures stay those of the file.
      contents: `import { setDefaultTimeout as __loamTimeout } from "bun:test"; __loamTimeout(${TEST_TIMEOUT_MS});${await Bun.file(path).text()}`,
      loader: "ts",
    }));
  },
});
