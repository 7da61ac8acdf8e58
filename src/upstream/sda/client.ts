/**
 * USDA Soil Data Access as a transport: T-SQL over HTTP POST, answered as JSON+COLUMNNAME+METADATA.
 * Every failure becomes one of the typed upstream errors (what an answer means is `answer.ts`); the
 * deadline covers the whole exchange, headers and body, retry included, so a slow drip cannot outlive
 * it. The payload is handed back as SDA sent it; the provider's query decodes it.
 */
import { LoamError, UpstreamError, UpstreamUnreachableError } from "../../errors";
import type { Payload, QueryKind, SourceDescription, Transport } from "../transport";
import { CONNECTION_CLOSED, deadlineError, fetchWithinOrigin, hostOf, networkCause, readCapped, startDeadline, type Deadline } from "../http";
import { interpretAnswer, SERVICE, serviceExceptionText, type RawAnswer } from "./answer";
import { commentFree } from "./sql";
import { remoteSource } from "../public-url";

export { serviceException } from "./answer";

/** SDA's own JSON serialization limit per query (soilDB docs: "32Mb"). */
export const SDA_MAX_BODY_BYTES = 32 * 1024 * 1024;
export const SDA_FORMAT = "JSON+COLUMNNAME+METADATA";

/** One retry at most: a second failure in a row is not a blip, and SDA is a shared public service. */
const MAX_ATTEMPTS = 2;
/** The retry waits this long times a random factor from 0.5 to 1.5, so callers failed together do not return together. */
const RETRY_DELAY_MS = 250;
/** A retry is only worth it when at least this much of the deadline is left after the pause. */
const MIN_RETRY_BUDGET_MS = 1000;

export interface SdaTransportOptions {
  url: string;
  /** The deadline for one query, all attempts included (UPSTREAM_TIMEOUT_MS). */
  timeoutMs: number;
  maxBodyBytes?: number;
  fetch?: typeof fetch;
  /** Base pause before the one retry (default 250 ms, jittered ±50 %). */
  retryDelayMs?: number;
  random?: () => number;
  /** Sees every complete HTTP answer before it is interpreted (the smoke check saves them as captures). */
  onAnswer?: (answer: RawAnswer & { bytes: Uint8Array; sql: string; attempt: number; ms: number }) => void;
}

/** Failures worth one more try: a reset connection, SDA's gateway answering 502 or 503. */
const transient = new WeakSet<LoamError>();

export class SdaTransport implements Transport {
  readonly kind = "sda" as const;
  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private readonly fetchImpl: typeof fetch;
  private readonly retryDelayMs: number;
  private readonly random: () => number;
  private readonly onAnswer: SdaTransportOptions["onAnswer"];

  constructor(options: SdaTransportOptions) {
    this.url = options.url;
    this.timeoutMs = options.timeoutMs;
    this.maxBodyBytes = options.maxBodyBytes ?? SDA_MAX_BODY_BYTES;
    this.fetchImpl = options.fetch ?? fetch;
    this.retryDelayMs = options.retryDelayMs ?? RETRY_DELAY_MS;
    this.random = options.random ?? Math.random;
    this.onAnswer = options.onAnswer;
  }

  describe(): SourceDescription {
    // Served and logged: never the credentials an operator put in SDA_URL (docs/decisions.md#url-secrets).
    return remoteSource("sda", this.url);
  }

  async fetch<P>(query: QueryKind<P, unknown>, params: P): Promise<Payload> {
    const form = query.forms.sda;
    if (!form) throw new UpstreamError(`The ${query.kind} query has no Soil Data Access form.`);
    return this.query(form(params));
  }

  /** Send one T-SQL text and return SDA's JSON answer as sent, retrying once a transient failure the deadline leaves room for. */
  async query(sql: string): Promise<Payload> {
    commentFree(sql);
    const deadline = startDeadline(this.timeoutMs);
    try {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await this.post(sql, attempt, deadline);
        } catch (error) {
          if (deadline.passed || !(error instanceof LoamError) || !transient.has(error) || attempt >= MAX_ATTEMPTS) throw error;
          const pause = this.retryDelayMs * (0.5 + this.random());
          if (deadline.left() < pause + MIN_RETRY_BUDGET_MS) throw error;
          await Promise.race([Bun.sleep(pause), deadline.expired]);
        }
      }
    } catch (error) {
      if (deadline.passed) throw deadlineError(deadline, SERVICE, this.timeoutMs);
      throw error;
    } finally {
      deadline.end();
    }
  }

  private tooLarge(): UpstreamError {
    return new UpstreamError(`${SERVICE} sent an answer larger than ${this.maxBodyBytes} bytes, the most Loam reads for one query.`);
  }

  /** POST one query, read the complete answer and interpret it; a network failure becomes upstream_unreachable. */
  private async post(sql: string, attempt: number, deadline: Deadline): Promise<Payload> {
    const started = performance.now();
    let raw: RawAnswer;
    let bytes: Uint8Array;
    try {
      const refused = (why: string) => new UpstreamError(`${SERVICE} ${why}.`);
      const response = await fetchWithinOrigin(
        this.url,
        { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify({ query: sql, format: SDA_FORMAT }) },
        { fetch: this.fetchImpl, deadline, refused },
      );
      bytes = await readCapped(response, this.maxBodyBytes, deadline.expired, () => this.tooLarge(), refused);
      raw = {
        status: response.status,
        contentType: response.headers.get("content-type") ?? "",
        text: new TextDecoder().decode(bytes),
      };
    } catch (error) {
      if (error instanceof LoamError) throw error;
      const cause = networkCause(error);
      const unreachable = new UpstreamUnreachableError(`${SERVICE} (${hostOf(this.url)}) could not be reached: ${cause}.`);
      if (cause === CONNECTION_CLOSED) transient.add(unreachable);
      throw unreachable;
    }
    this.onAnswer?.({ ...raw, bytes, sql, attempt, ms: performance.now() - started });
    try {
      return interpretAnswer(raw);
    } catch (error) {
      // Only a plain gateway failure is retried: a 502/503 that carries SDA's own report means what the report says.
      const gateway = (raw.status === 502 || raw.status === 503) && serviceExceptionText(raw.text) === null;
      if (gateway && error instanceof UpstreamError) transient.add(error);
      throw error;
    }
  }
}
