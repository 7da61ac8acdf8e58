/**
 * Loaded before every test file (bunfig.toml `preload`). Bun 1.4 reads `[test] timeout` from bunfig.toml
 * only as `bun test --timeout`: the key was ignored and every test and hook without its own timeout
 * stopped at Bun's default 5,000 ms (issue 27: three tests timed out so on a busy 2-core machine).
 * setDefaultTimeout here gives them the configured 60,000 ms, whatever command line runs the suite.
 */
import { setDefaultTimeout } from "bun:test";

export const TEST_TIMEOUT_MS = 60_000;
setDefaultTimeout(TEST_TIMEOUT_MS);
