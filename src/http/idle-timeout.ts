/**
 * How long a connection may stay silent. Bun closes a connection that sends and receives nothing for
 * `idleTimeout` seconds, also while its request is still being answered; a request waiting on the
 * upstream is silent for up to UPSTREAM_TIMEOUT_MS. With the idle timeout below that, the client
 * got "Empty reply from server" instead of the 504. So the idle timeout covers the upstream timeout
 * plus a margin (for normalizing and writing the answer), and never goes below 30 s; Bun accepts at
 * most 255 s, which bounds UPSTREAM_TIMEOUT_MS.
 */
import { IDLE_MARGIN_SECONDS as MARGIN_SECONDS, MAX_IDLE_TIMEOUT_SECONDS } from "../config";

export const MIN_IDLE_TIMEOUT_SECONDS = 30;
export { MAX_IDLE_TIMEOUT_SECONDS, MAX_UPSTREAM_TIMEOUT_MS } from "../config";

export function idleTimeoutFor(upstreamTimeoutMs: number): number {
  return Math.min(MAX_IDLE_TIMEOUT_SECONDS, Math.max(MIN_IDLE_TIMEOUT_SECONDS, Math.ceil(upstreamTimeoutMs / 1000) + MARGIN_SECONDS));
}
