/**
 * What the upstream layer knows of the request it works for (docs/decisions.md#upstream-budget): its
 * id (for logs written far from the route) and its budget of upstream calls. The HTTP boundary opens
 * a scope per counted request; code that runs for it (the cache, the connect layer) reads it without
 * each call site passing it down. Outside a request (start-up, tests calling services directly) there
 * is no scope and nothing is counted.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export interface RequestScope {
  requestId: string;
  /** Calls to a remote upstream made for this request so far (cache hits and shared calls excluded). */
  upstreamCalls: number;
  /** The client's rate-limit key (its address), for an upstream budget's per-client share (docs/decisions.md#upstream-call-budget). */
  client?: string;
  /** Spend one more unit of the client's rate budget: false when it is spent. */
  charge?: () => boolean | Promise<boolean>;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** Open the scope of the request being handled: everything that runs for it from here on sees it. */
export function enterRequestScope(scope: RequestScope): void {
  scopes.enterWith(scope);
}

/** The scope of the request this code runs for, if any. */
export function currentRequest(): RequestScope | undefined {
  return scopes.getStore();
}
