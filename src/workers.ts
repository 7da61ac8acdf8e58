/**
 * LOAM_WORKERS=N (N > 1): one supervisor and N server processes on one port. Bun answers on one
 * JavaScript thread, so one process uses one core; with `reusePort` the kernel spreads connections
 * over the N processes listening on the same address.
 *
 * The supervisor serves nothing itself. Before any worker starts it does the once-only work: the
 * snapshot is resolved (built, or copied out of the executable) and LOAM_DB is migrated, so workers
 * only open what exists. Each worker is this same program (`loam serve --worker <n>`: the compiled
 * executable runs itself, from source `bun src/cli.ts`), with LOAM_SNAPSHOT pointing at the resolved
 * snapshot. All share LOAM_DB (the rate counters draw disjoint tickets; see src/http/rate-limit.ts).
 *
 * A worker that exits unasked is started again after a back-off that doubles while it keeps dying
 * young (never a hot loop). SIGTERM/SIGINT is passed to every worker, which finishes its in-flight
 * requests (src/server.ts); the supervisor exits 0 when all stopped cleanly, 1 otherwise.
 */
import type { Subprocess } from "bun";
import type { Config } from "./config";
import { snapshotPath } from "./server";
import { openStateDatabase } from "./state-db";

type Log = (line: Record<string, unknown>) => void;

export interface SuperviseOptions {
  log: Log;
  /** Restart delays: from `minMs`, doubling per early death up to `maxMs`. */
  backoff?: { minMs: number; maxMs: number };
  /** A worker that ran this long before dying starts over from the shortest delay. */
  stableMs?: number;
}

/** The workers' own grace (src/server.ts) and a margin: after it the supervisor kills what is left. */
const STOP_DEADLINE_MS = 15_000;

/**
 * The command that runs this program again with `args`: the compiled executable is the program
 * (its runtime flags are baked in); from source it is bun, bun's flags, and the script.
 */
export function selfCommand(args: string[]): string[] {
  const script = process.argv[1];
  const compiled = !script || script.startsWith("/$bunfs/") || /^[A-Z]:[\\/]~BUN[\\/]/.test(script);
  return compiled ? [process.execPath, ...args] : [process.execPath, ...process.execArgv, script, ...args];
}

interface Slot {
  id: number;
  proc?: Subprocess;
  startedAt: number;
  failures: number;
  restart?: ReturnType<typeof setTimeout>;
}

export async function supervise(config: Config, options: SuperviseOptions): Promise<void> {
  const { log } = options;
  const backoff = options.backoff ?? { minMs: 500, maxMs: 30_000 };
  const stableMs = options.stableMs ?? 30_000;

  // Once-only work, before any worker exists: LOAM_DB checked (a damaged one moved aside here, not
  // by N workers at once; a bad path a LOAM_DB error) and migrated, and the snapshot.
  openStateDatabase(config.dbPath, log).$client.close();
  const env: Record<string, string | undefined> = { ...process.env };
  if (config.upstream === "snapshot") env.LOAM_SNAPSHOT = await snapshotPath(config);

  const slots: Slot[] = Array.from({ length: config.workers }, (_, i) => ({ id: i + 1, startedAt: 0, failures: 0 }));
  let stopping = false;
  let clean = true;

  const start = (slot: Slot) => {
    slot.restart = undefined;
    slot.startedAt = Date.now();
    const proc = Bun.spawn(selfCommand(["serve", "--worker", String(slot.id)]), { env, stdin: "ignore", stdout: "inherit", stderr: "inherit" });
    slot.proc = proc;
    log({ level: "info", msg: `worker ${slot.id} started`, worker: slot.id, pid: proc.pid });
    void proc.exited.then((code) => exited(slot, proc, code));
  };

  const exited = (slot: Slot, proc: Subprocess, code: number) => {
    if (slot.proc === proc) slot.proc = undefined;
    const how = { worker: slot.id, pid: proc.pid, code, signal: proc.signalCode ?? null };
    if (stopping) {
      if (code !== 0) clean = false;
      log({ level: code === 0 ? "info" : "error", msg: `worker ${slot.id} stopped`, ...how });
      if (slots.every((s) => !s.proc)) finish();
      return;
    }
    const lived = Date.now() - slot.startedAt;
    slot.failures = lived >= stableMs ? 1 : slot.failures + 1;
    const delay = Math.min(backoff.maxMs, backoff.minMs * 2 ** (slot.failures - 1));
    log({ level: "error", msg: `worker ${slot.id} exited unexpectedly; restarting in ${delay} ms`, ...how, lived_ms: lived, restart_in_ms: delay });
    slot.restart = setTimeout(() => start(slot), delay);
  };

  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));

  const stop = (signal: "SIGTERM" | "SIGINT") => {
    if (!stopping) {
      stopping = true;
      log({ level: "info", msg: `${signal}: stopping ${slots.filter((s) => s.proc).length} workers` });
      for (const slot of slots) if (slot.restart) clearTimeout(slot.restart);
      setTimeout(() => {
        for (const slot of slots) slot.proc?.kill("SIGKILL");
        clean = false;
      }, STOP_DEADLINE_MS).unref();
      if (slots.every((s) => !s.proc)) finish();
    }
    // A second signal reaches the workers too: they cut their in-flight requests short.
    for (const slot of slots) slot.proc?.kill(signal);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  for (const slot of slots) start(slot);
  log({ level: "info", msg: `loam supervising ${config.workers} workers on http://${config.host}:${config.port}`, workers: config.workers });

  await finished;
  log({ level: "info", msg: clean ? "all workers stopped cleanly" : "workers stopped with errors" });
  process.exit(clean ? 0 : 1);
}
