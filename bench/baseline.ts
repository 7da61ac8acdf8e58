/**
 * The platform's limit: a bare `Bun.serve` answering each benchmarked path with the very bytes Loam
 * sent for it (pre-serialized, read once at start, held as a Blob), the same content type, nothing else.
 * Usage: PORT=<port> bun bench/baseline.ts <manifest.json>   (manifest: {"/path": "body file"})
 */
import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Record<string, string>;
// Blobs: the fastest body Bun sends (no copy per response; a string body is re-encoded each time).
const bodies = new Map<string, Blob>();
for (const [path, file] of Object.entries(manifest)) bodies.set(path, new Blob([readFileSync(file)]));
const headers = { "content-type": "application/json; charset=utf-8" };

Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  fetch(request) {
    const url = request.url;
    const start = url.indexOf("/", url.indexOf("//") + 2);
    const end = url.indexOf("?", start);
    const body = bodies.get(url.slice(start, end === -1 ? undefined : end));
    if (body !== undefined) return new Response(body, { headers });
    return new Response('{"status":"healthy"}', { headers });
  },
});
