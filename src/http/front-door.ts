/**
 * The front door (docs/decisions.md#repeat-answers): the server's fetch handler. A GET the pipeline
 * has answered before from a kept rendering, whose bytes still stand, is answered here, without
 * routing: admitted by the boundary as any request is (request id, client, one rate-limit decision),
 * conditional on If-None-Match, with its Cache-Control counted down to its entry's end, and
 * recorded in the access log and metrics as the route's own request. Everything else, and a repeat
 * the rate limit refuses (the boundary sends the 429 with that one decision), goes to the app.
 */
import type { Server } from "bun";
import type { Admitted, Boundary } from "./boundary";
import { matchingTag } from "./conditional";
import { dataCacheControl, maxAgeSeconds } from "./headers";
import type { KeptShape } from "./access-log";
import { writeRateLimit, type RateDecision } from "./rate-limit";
import type { RepeatAnswer, RepeatAnswers } from "./repeat-answers";
import { routableRequest } from "./request-path";

export type FetchHandler = (request: Request, server: Server<undefined>) => Response | Promise<Response>;

export interface FrontDoorOptions {
  boundary: Boundary;
  repeats: RepeatAnswers;
  now: () => number;
  /** The app's own handler: routing, validation, the services. */
  route: FetchHandler;
}

export function createFrontDoor(options: FrontDoorOptions): FetchHandler {
  const { boundary, repeats, now, route } = options;
  const keptFor = keptPerAnswer();

  /** The admitted repeat, once the rate limit has decided. */
  function send(request: Request, server: Server<undefined>, answer: RepeatAnswer, matched: string | null, at: number, trace: Admitted, decided: RateDecision): Response | Promise<Response> {
    if (!decided.allowed) {
      boundary.leave(request, trace);
      return route(request, server);
    }
    const status = matched ? 304 : 200;
    const kept = keptFor(answer);
    let response: Response;
    try {
      const standing = standingHeaders(kept, answer, decided, at);
      // A Response copies the headers it is made with (Fetch: "fill"), so the standing ones are
      // reused with this request's own values set on them. A 304 names the variant of the tag the
      // client holds (conditional.ts): when that is not the one the 200 was sent with, it gets a copy.
      let headers = matched ? standing.notModified : standing.ok;
      if (matched !== null && matched !== standing.etag) {
        headers = new Headers(headers);
        headers.set("etag", matched);
      }
      headers.set("x-request-id", trace.requestId);
      headers.set("ratelimit-remaining", String(decided.remaining));
      response = new Response(matched ? null : answer.body, { status, headers });
    } catch {
      // Never a bare 500 from here: the route answers, with this admission.
      boundary.leave(request, trace);
      return route(request, server);
    }
    if (answer.cache) trace.cache = answer.cache;
    if (answer.upstreamMs !== null) trace.upstreamMs = answer.upstreamMs;
    boundary.record(trace, { method: "GET", route: answer.route, status, query: answer.query, shape: matched ? kept.notModifiedLine : kept.okLine });
    return response;
  }

  return (request, server) => {
    // A bare target (an odd Host, or none) is routed as a copy with an absolute URL (request-path.ts); it is never a kept answer's.
    const routable = routableRequest(request);
    if (routable !== request) {
      boundary.adopt(request, routable, () => server.requestIP(request)?.address);
      return route(routable, server);
    }
    if (request.method !== "GET") return route(request, server);
    const at = now();
    const answer = repeats.find(request, at);
    if (answer === undefined) return route(request, server);
    // The tag may still stand (a 304) when the bytes have turned (the route renders them again).
    const matched = matchingTag(request, answer.tag);
    if (matched === null && at >= answer.until) return route(request, server);
    const trace = boundary.admit(request, () => server.requestIP(request)?.address);
    const decision = trace.decision;
    return decision instanceof Promise ? decision.then((decided) => send(request, server, answer, matched, at, trace, decided)) : send(request, server, answer, matched, at, trace, decision);
  };
}

/** An answer's headers that stand for a second or more, and the values they were made for. */
interface Standing {
  maxAge: number;
  limit: number;
  reset: number;
  ok: Headers;
  notModified: Headers;
  /** The tag the 200 was sent with. */
  etag: string | null;
}

/** What the front door makes from an answer and keeps while the answer stands. */
interface Kept {
  /** Made again when a counted-down value turns. */
  standing?: Standing;
  /** The access-log line's shape of its 200s and its 304s (access-log.ts), made from the first of each. */
  okLine: KeptShape;
  notModifiedLine: KeptShape;
}

function keptPerAnswer(): (answer: RepeatAnswer) => Kept {
  const kept = new WeakMap<RepeatAnswer, Kept>();
  return (answer) => {
    let found = kept.get(answer);
    if (found === undefined) kept.set(answer, (found = { okLine: {}, notModifiedLine: {} }));
    return found;
  };
}

/**
 * The headers of a repeat that hold for every client until a counted-down value turns: the kept
 * ones, Server-Timing, RateLimit-Limit and -Reset (one fixed window for every client), and a data
 * answer's max-age. They are made once per answer and second, and each request sets only its own id
 * and remaining count on them: a header set per request, and a copy of them, were a measurable part
 * of a small answer's cost (docs/decisions.md#repeat-answers).
 */
function standingHeaders(kept: Kept, answer: RepeatAnswer, decision: RateDecision, at: number): Standing {
  const maxAge = answer.expiresAt === undefined ? -1 : maxAgeSeconds(answer.expiresAt, at);
  const made = kept.standing;
  if (made !== undefined && made.maxAge === maxAge && made.reset === decision.resetSeconds && made.limit === decision.limit) return made;
  const fill = (headers: Headers): Headers => {
    writeRateLimit(decision, (name, value) => headers.set(name, value));
    if (answer.expiresAt !== undefined) headers.set("cache-control", dataCacheControl(answer.expiresAt, at));
    if (answer.serverTiming !== undefined) headers.set("server-timing", answer.serverTiming);
    return headers;
  };
  const ok = fill(new Headers(answer.headers));
  return (kept.standing = { maxAge, limit: decision.limit, reset: decision.resetSeconds, ok, notModified: fill(new Headers(answer.notModifiedHeaders)), etag: ok.get("etag") });
}
