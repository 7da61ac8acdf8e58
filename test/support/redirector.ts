/**
 * A stand-in upstream host on 127.0.0.1 that answers some paths with a redirect and passes every other
 * request through, method, headers and body, to a real stand-in (fake SDA, fake OSD, fake USGS) on
 * another port, so that a path of the redirector's own origin serves the real file or answer. Two
 * ports on 127.0.0.1 are two origins: a redirect from here to the stand-in's own address leaves the origin.
 */
export interface Redirector {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Requests answered, redirects and passed-through ones alike. */
  readonly calls: number;
  close(): void;
}

/** `route(path)` gives [status, Location] for a path to redirect, or null to pass the request through to `behind`. */
export function startRedirector(behind: string, route: (path: string) => [number, string] | null): Redirector {
  let calls = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      calls += 1;
      const url = new URL(request.url);
      const redirect = route(url.pathname);
      if (redirect) return new Response(null, { status: redirect[0], headers: { location: redirect[1] } });
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
      const passed = await fetch(new URL(url.pathname + url.search, behind), { method: request.method, headers: request.headers, body, redirect: "manual" });
      return new Response(await passed.arrayBuffer(), { status: passed.status, headers: { "content-type": passed.headers.get("content-type") ?? "text/plain" } });
    },
  });
  return {
    origin: `http://127.0.0.1:${server.port}`,
    get calls() {
      return calls;
    },
    close: () => void server.stop(true),
  };
}
