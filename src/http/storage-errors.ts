/**
 * LOAM_DB faults that were skipped instead of failing a request (disk full, read-only, I/O error):
 * each is counted in /metrics, and logged at most once per store and operation every minute so a
 * full disk under load does not flood the log.
 */
import type { Metrics } from "./metrics";

const LOG_EVERY_MS = 60_000;

type Log = (line: Record<string, unknown>) => void;

export function storageErrorReporter(store: string, metrics: Metrics, log?: Log, now: () => number = Date.now) {
  const lastLogged = new Map<string, number>();
  const skipped = new Map<string, number>();
  return (operation: string, error: unknown): void => {
    metrics.observeStorageError(store, operation);
    const at = now();
    const previous = lastLogged.get(operation);
    if (previous !== undefined && at - previous < LOG_EVERY_MS) {
      skipped.set(operation, (skipped.get(operation) ?? 0) + 1);
      return;
    }
    lastLogged.set(operation, at);
    const alsoFailed = skipped.get(operation) ?? 0;
    skipped.delete(operation);
    log?.({
      level: "error",
      msg: `LOAM_DB ${store} ${operation} failed and was skipped; requests are still answered`,
      error: error instanceof Error ? `${(error as { code?: string }).code ?? error.name}: ${error.message}` : String(error),
      ...(alsoFailed ? { also_failed_since_last_report: alsoFailed } : {}),
    });
  };
}
