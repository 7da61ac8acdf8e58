/**
 * Raw HTTP/1.x over a TCP socket, for requests `fetch` cannot send: an odd or missing Host header,
 * HTTP/1.0, a target with `//`. One request per connection (`Connection: close`).
 */
import { connect } from "node:net";

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Map<string, string>;
  body: string;
}

/** Send `head` (request line and headers, without the blank line) and read the answer to the end. */
export function rawRequest(port: number, head: string, timeoutMs = 5000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1", () => socket.write(`${head}\r\n\r\n`));
    const timer = setTimeout(() => socket.destroy(new Error(`no complete answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (error) => (clearTimeout(timer), reject(error)));
    socket.on("close", () => {
      clearTimeout(timer);
      const bytes = Buffer.concat(chunks);
      const split = bytes.indexOf("\r\n\r\n");
      const text = bytes.subarray(0, Math.max(split, 0)).toString("latin1");
      if (split === -1) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.split("\r\n");
      const headers = new Map<string, string>();
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      const rest = bytes.subarray(split + 4);
      resolve({ status: Number(statusLine!.split(" ")[1]), headers, body: headers.get("transfer-encoding") === "chunked" ? dechunk(rest) : rest.toString("utf8") });
    });
  });
}

/** GET `target` with the given Host header line (null: none) over HTTP/1.1, or HTTP/1.0 when asked. */
export function rawGet(port: number, target: string, host: string | null, version: "1.0" | "1.1" = "1.1"): Promise<RawResponse> {
  const lines = [`GET ${target} HTTP/${version}`];
  if (host !== null) lines.push(`Host: ${host}`);
  lines.push("Connection: close");
  return rawRequest(port, lines.join("\r\n"));
}

function dechunk(bytes: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf("\r\n", at);
    const size = parseInt(bytes.subarray(at, lineEnd).toString("latin1"), 16);
    if (!(size > 0)) return Buffer.concat(parts).toString("utf8");
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
