/**
 * What every HTTP transport shares: one deadline over the whole exchange, a body read with a size
 * cap, and failures told in plain words. The SDA transport and a provider's own HTTPS reader (the
 * OSD files) use these, so a slow drip, an endless body or a network error ends the same way for both.
 */

/** One exchange's time limit. Every await of the exchange is raced against `expired`. */
export interface Deadline {
  /** Aborts the fetch when the time is up (and when the exchange ends). */
  readonly signal: AbortSignal;
  /** Rejects when the time is up or the exchange has ended: racing against it bounds the call even if a fetch ignores its signal. */
  readonly expired: Promise<never>;
  /** True once the time ran out (as opposed to any other failure). */
  readonly passed: boolean;
  /** Milliseconds left. */
  left(): number;
  /** Stop the timer and abort whatever is still in flight; call it in a `finally`. */
  end(): void;
}

export function startDeadline(ms: number): Deadline {
  const controller = new AbortController();
  const startedAt = performance.now();
  let passed = false;
  const expired = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason));
  });
  expired.catch(() => {});
  const timer = setTimeout(() => {
    passed = true;
    controller.abort(new Error("deadline"));
  }, ms);
  return {
    signal: controller.signal,
    expired,
    get passed() {
      return passed;
    },
    left: () => ms - (performance.now() - startedAt),
    end() {
      clearTimeout(timer);
      controller.abort();
    },
  };
}

/** Read the body chunk by chunk, giving up (with `tooLarge()`) as soon as it passes the cap. */
export async function readCapped(response: Response, maxBytes: number, expired: Promise<never>, tooLarge: () => Error): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await Promise.race([reader.read(), expired]);
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The host of an upstream URL for a message; never the path or query. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "its configured address";
  }
}

/** The cause `networkCause` gives for a connection closed mid-answer (the one a retry may cure). */
export const CONNECTION_CLOSED = "the connection was closed before a complete answer arrived";

/** A plain-words cause of a network failure; never the raw error text. */
export function networkCause(error: unknown): string {
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  if (/ECONNREFUSED|ConnectionRefused/i.test(code)) return "connection refused";
  if (/ENOTFOUND|EAI_AGAIN|DNS/i.test(code)) return "the host name could not be resolved";
  if (/ECONNRESET|ConnectionClosed|EPIPE/i.test(code)) return CONNECTION_CLOSED;
  if (/CERT|TLS|SSL/i.test(code)) return "the secure connection could not be established";
  return /^[A-Za-z_]{1,40}$/.test(code) ? `network error ${code}` : "network error";
}
