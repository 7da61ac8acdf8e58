/**
 * Reading CSV back in tests, two independent ways: a strict RFC 4180 reader written from the RFC
 * (it refuses a bare LF line end, a quote inside an unquoted field, text after a closing quote),
 * and Python's csv module, the reader of Python users, when python3 is installed.
 */
import { python } from "./tools";

export function parseRfc4180(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const fail = (why: string) => {
    throw new Error(`not RFC 4180 at offset ${i}: ${why}`);
  };
  while (i < text.length) {
    let field = "";
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) fail("unterminated quoted field");
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== "," && text[i] !== "\r" && text[i] !== "\n") {
        if (text[i] === '"') fail("quote inside an unquoted field");
        field += text[i++];
      }
    }
    row.push(field);
    if (text[i] === ",") {
      i++;
      continue;
    }
    if (text.startsWith("\r\n", i)) {
      i += 2;
      rows.push(row);
      row = [];
      continue;
    }
    fail(i >= text.length ? "last record without CRLF" : `unexpected ${JSON.stringify(text[i])}`);
  }
  return rows;
}

/** Header row + records as objects keyed by header, checking every record has the header's width. */
export function records(rows: string[][]): Record<string, string>[] {
  const [header, ...body] = rows;
  if (!header) throw new Error("no header row");
  return body.map((cells, n) => {
    if (cells.length !== header.length) throw new Error(`record ${n + 1} has ${cells.length} fields, the header ${header.length}`);
    return Object.fromEntries(header.map((name, k) => [name, cells[k]!]));
  });
}

export const PYTHON = python("csv", "json");

/** Rows as Python's csv.reader sees the bytes (UTF-8, newline="" as the csv docs require). */
export async function parseWithPython(text: string): Promise<string[][]> {
  const script = "import csv,io,json,sys; print(json.dumps(list(csv.reader(io.TextIOWrapper(sys.stdin.buffer, encoding='utf-8', newline=''), strict=True))))";
  const child = Bun.spawn([PYTHON!, "-c", script], { stdin: new TextEncoder().encode(text), stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`python csv failed: ${err}`);
  return JSON.parse(out);
}
