/**
 * Where the data directory keeps the Munsell renotation table (the RIT `all.dat`, gzip), and its
 * rows read from there: the snapshot build and live mode both read the same file this one way.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { parseRenotationText, type RenotationRow } from "./munsell";

export const MUNSELL_FILE = join("munsell", "munsell-all.dat.gz");

export function readRenotationFile(gzPath: string): RenotationRow[] {
  return parseRenotationText(gunzipSync(readFileSync(gzPath)).toString("utf8"));
}
