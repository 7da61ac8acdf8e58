/**
 * Area cuts a few at a time, each after a turn of the event loop (docs/decisions.md#area-cuts).
 * Cutting map-unit polygons to a large area is synchronous CPU work (polygon-clipping over the
 * snapshot; reading and measuring SDA's WKT), tens of milliseconds for a 1,000-vertex area. Bun hands
 * every request it has read to its handler in one go, and a handler's promise continuations run
 * before the next one is handed over: twenty areas used to be cut back to back inside that one turn,
 * and a GET /health read meanwhile waited for all of them. Here a cut never starts in the turn that
 * asked for it: it waits in a bounded queue and is started from setImmediate, one per turn, at most
 * `slots` running at once, so the server reads and answers what arrived between any two cuts. Past
 * the queue, a request is a 503 with Retry-After: Loam is busy, not the upstream.
 */
import { LoamBusyError } from "../errors";

export class CutGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;
  /** The most cuts that ever ran at once (what the tests hold to `slots`). */
  peak = 0;

  constructor(
    readonly slots: number,
    readonly queueLimit: number,
    readonly retryAfterSeconds: number,
  ) {}

  /** Cuts running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(cut: () => Promise<T>): Promise<T> {
    if (this.waiting.length >= this.queueLimit) {
      throw new LoamBusyError(
        `Loam is cutting ${this.running + this.waiting.length} areas of interest already, the most it takes on at once; retry after ${this.retryAfterSeconds} s.`,
        { retryAfterSeconds: this.retryAfterSeconds },
      );
    }
    await new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
    try {
      return await cut();
    } finally {
      this.running -= 1;
      this.schedule();
    }
  }

  /** Start the next waiting cut after this turn of the event loop, if a slot is free. */
  private schedule(): void {
    if (this.scheduled || this.running >= this.slots || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const next = this.waiting.shift();
      if (!next) return;
      this.running += 1;
      this.peak = Math.max(this.peak, this.running);
      next();
      this.schedule();
    });
  }
}

/**
 * One gate per process: the cuts share its one JavaScript thread. Two at once keeps live mode's SDA
 * round trips overlapping; 32 waiting is a second or two of cutting.
 */
export const AREA_CUTS = new CutGate(2, 32, 2);
