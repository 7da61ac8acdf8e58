/**
 * A live check of Soil Data Access from where you run it: the three kinds of query Loam sends (the
 * IA073 known point, a KSSL bbox around pedon 02N0245, that pedon's detail), through Loam's own SDA
 * client, printing row counts and timings and saving each raw answer as a capture (bytes, status,
 * content type), so a changed wire format can be compared with the recorded ones.
 *
 *   bun run sda:smoke [--out DIR]
 *
 * SDA_URL picks the endpoint (default: the public one); UPSTREAM_TIMEOUT_MS the deadline per query
 * (default 60000: this is a check, not a server). Exit status 1 when any query failed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { DEFAULT_SDA_URL } from "../src/config";
import { LoamError } from "../src/errors";
import { bboxQuery, pedonQuery } from "../src/providers/usda_kssl/queries";
import { pointQuery } from "../src/providers/usda_ssurgo/queries";
import { SdaTransport } from "../src/upstream/sda/client";
import type { SdaAnswer, SdaTable } from "../src/upstream/sda/payload";
import type { QueryKind, Transport } from "../src/upstream/transport";

interface SmokeQuery {
  name: string;
  what: string;
  /** The T-SQL sent and how its answer is read: the provider's own query, decoder (column check) included. */
  ask: Asking;
  /** The known answer (from the published source data), as a note for the report. */
  known: (table: SdaTable) => string;
}

interface Asking {
  sql: string;
  run(transport: Transport): Promise<SdaAnswer>;
}

/** A provider's query with its parameters, as the app asks it (without the cache). */
function asking<P>(query: QueryKind<P, SdaAnswer>, params: P): Asking {
  const form = query.forms.sda;
  if (!form) throw new Error(`the ${query.kind} query has no Soil Data Access form`);
  return { sql: form(params), run: async (transport) => query.decode(await transport.fetch(query, params)) };
}

const column = (table: SdaTable, name: string) => table.rows.map((row) => row[table.columns.indexOf(name)]);

export const QUERIES: SmokeQuery[] = [
  {
    name: "ssurgo_point_ia073",
    what: "SSURGO point 41.944131, -94.359608 (IA073)",
    ask: asking(pointQuery, { latitude: 41.944131, longitude: -94.359608 }),
    known: (t) => (column(t, "mukey").includes("2765528") ? "map unit 2765528 as known" : "map unit 2765528 NOT in the answer"),
  },
  {
    name: "kssl_bbox_02n0245",
    what: "KSSL pedons in -95.78,39.07,-95.76,39.09",
    ask: asking(bboxQuery, { bbox: [-95.78, 39.07, -95.76, 39.09], limit: 50 }),
    known: (t) => (column(t, "pedlabsampnum").includes("02N0245") ? "pedon 02N0245 as known" : "pedon 02N0245 NOT in the answer"),
  },
  {
    name: "kssl_pedon_02n0245",
    what: "KSSL pedon 02N0245 with its layers",
    ask: asking(pedonQuery, { pedonKey: { form: "pedlabsampnum", value: "02N0245" } }),
    known: (t) => `${new Set(column(t, "labsampnum").filter((v) => v !== null)).size} layers (8 known)`,
  },
];

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

/** The output folder as a user would type it: relative when it is under the working directory. */
function shown(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? dir : rel;
}

function extensionOf(contentType: string): string {
  const mime = contentType.split(";")[0]!.trim().toLowerCase();
  if (mime.endsWith("json")) return "json";
  if (mime.endsWith("xml")) return "xml";
  if (mime === "text/html") return "html";
  return "txt";
}

export async function smoke(options: { url: string; outDir: string; timeoutMs: number; print: (line: string) => void }) {
  const { url, outDir, timeoutMs, print } = options;
  mkdirSync(outDir, { recursive: true });
  print(`Soil Data Access smoke check: ${url} (deadline ${timeoutMs} ms per query)`);
  const records = [];
  for (const query of QUERIES) {
    let last: { status: number; contentType: string; bytes: Uint8Array; ms: number; attempt: number } | undefined;
    const transport = new SdaTransport({ url, timeoutMs, onAnswer: (answer) => (last = answer) });
    writeFileSync(join(outDir, `${query.name}.sql`), `${query.ask.sql}\n`);
    const started = performance.now();
    const record: Record<string, unknown> = { name: query.name, what: query.what, sql_file: `${query.name}.sql` };
    let line: string;
    try {
      const { table } = await query.ask.run(transport);
      const note = query.known(table);
      Object.assign(record, { outcome: "ok", rows: table.rows.length, columns: table.columns.length, known_answer: note });
      line = `${table.rows.length} rows, ${table.columns.length} columns; ${note}`;
    } catch (error) {
      const failure = error instanceof LoamError ? { code: error.code, status: error.status, message: error.message } : { code: "script_error", message: String(error) };
      Object.assign(record, { outcome: failure.code, error: failure });
      line = `FAILED ${failure.code}: ${failure.message}`;
    }
    const ms = Math.round(performance.now() - started);
    record.total_ms = ms;
    if (last) {
      const file = `${query.name}.${extensionOf(last.contentType)}`;
      writeFileSync(join(outDir, file), last.bytes);
      Object.assign(record, { capture_file: file, http_status: last.status, content_type: last.contentType, attempts: last.attempt, answer_ms: Math.round(last.ms), bytes: last.bytes.byteLength });
    }
    records.push(record);
    const http = last ? `HTTP ${last.status} ${last.contentType || "(no content type)"}, ${last.bytes.byteLength} bytes` : "no answer";
    print(`  ${query.name.padEnd(20)} ${String(ms).padStart(6)} ms  ${http}  ${line}`);
  }
  const failed = records.filter((r) => r.outcome !== "ok").length;
  writeFileSync(join(outDir, "index.json"), `${JSON.stringify({ recorded_at: new Date().toISOString(), sda_url: url, timeout_ms: timeoutMs, queries: records }, null, 2)}\n`);
  print(`${QUERIES.length - failed} of ${QUERIES.length} queries answered; captures and index.json in ${shown(outDir)}`);
  return { failed, records };
}

if (import.meta.main) {
  const timeoutMs = Number(process.env.UPSTREAM_TIMEOUT_MS ?? 60_000);
  const { failed } = await smoke({
    url: process.env.SDA_URL || DEFAULT_SDA_URL,
    outDir: argument("--out") ?? join(process.cwd(), "captures"),
    timeoutMs: Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : 60_000,
    print: (line) => console.log(line),
  });
  process.exit(failed ? 1 : 0);
}
