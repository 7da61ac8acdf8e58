/**
 * A local stand-in for raw.githubusercontent.com serving ncss-tech/SoilKnowledgeBase's OSD files
 * (tests only; the real host is unreachable here). It serves the real files of the data directory's
 * `osd/` folder under the repository's own layout, `.../inst/extdata/OSD/<LETTER>/<NAME>.json`, as
 * text/plain like GitHub does, and GitHub's `404: Not Found` for anything else. Faults on demand.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export type OsdFault =
  | "http-500" // GitHub's own error page, status 500
  | "hang" // accepts the request, never answers
  | "garbage"; // 200 with an HTML page instead of the JSON file

export interface FakeOsd {
  /** An OSD_URL pattern pointing here ({letter} and {name}). */
  urlPattern: string;
  close(): void;
  setFault(fault: OsdFault | null): void;
  /**
   * Holds every answer until this many different files have been asked for, then gives them all (and
   * every later one at once): a client asking one file after another never gets past the first.
   */
  holdUntil(files: number): void;
  /** GET requests received so far, whatever was answered. */
  readonly calls: number;
  /** Paths requested, oldest first. */
  readonly paths: string[];
}

const PREFIX = "/ncss-tech/SoilKnowledgeBase/main/inst/extdata/OSD/";

export function startFakeOsd({ dataDir }: { dataDir: string }): FakeOsd {
  const folder = join(dataDir, "osd");
  let fault: OsdFault | null = null;
  let calls = 0;
  const paths: string[] = [];
  let hold: { files: number; asked: Set<string>; waiting: (() => void)[] } | null = null;
  const notFound = () => new Response("404: Not Found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });

  function handle(request: Request): Response | Promise<Response> {
    calls += 1;
    const path = new URL(request.url).pathname;
    paths.push(path);
    if (hold) {
      const held = hold;
      held.asked.add(path);
      const answered = new Promise<Response>((resolve) => held.waiting.push(() => resolve(answer(path))));
      if (held.asked.size >= held.files) {
        hold = null;
        for (const release of held.waiting) release();
      }
      return answered;
    }
    return answer(path);
  }

  function answer(path: string): Response | Promise<Response> {
    switch (fault) {
      case "hang":
        return new Promise<Response>(() => {});
      case "http-500":
        return new Response("<html><body><h1>500 Internal Server Error</h1></body></html>", { status: 500, headers: { "content-type": "text/html" } });
      case "garbage":
        return new Response("<!DOCTYPE html><html><body>Unicorn! This page is taking too long to load.</body></html>", { status: 200, headers: { "content-type": "text/html" } });
    }
    const match = path.startsWith(PREFIX) ? /^([A-Z])\/([A-Z_]+)\.json$/.exec(decodeURIComponent(path.slice(PREFIX.length))) : null;
    // The repository files each series under its first letter only.
    if (!match || match[2]!.charAt(0) !== match[1]) return notFound();
    const file = join(folder, `${match[2]}.json`);
    if (!existsSync(file)) return notFound();
    return new Response(readFileSync(file), { headers: { "content-type": "text/plain; charset=utf-8" } });
  }

  // idleTimeout at its maximum so a `hang` stays a hang rather than Bun closing the socket.
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 255, fetch: handle });
  return {
    urlPattern: `http://127.0.0.1:${server.port}${PREFIX}{letter}/{name}.json`,
    close: () => void server.stop(true),
    setFault: (next) => {
      fault = next;
    },
    holdUntil: (files) => {
      hold = { files, asked: new Set(), waiting: [] };
    },
    get calls() {
      return calls;
    },
    get paths() {
      return paths;
    },
  };
}
