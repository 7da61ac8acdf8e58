/**
 * sha256 of a download, read in chunks (a national file does not fit in memory): a file's is the plain
 * sha256 of its bytes (what `sha256sum` prints); a folder's covers its files' relative names and bytes.
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join, relative } from "node:path";

function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((name) => filesUnder(join(path, name)));
}

export function contentHash(path: string): string {
  const hasher = new Bun.CryptoHasher("sha256");
  const chunk = Buffer.alloc(1 << 22);
  const folder = statSync(path).isDirectory();
  for (const file of filesUnder(path)) {
    if (folder) hasher.update(`${relative(path, file)}\0`);
    const fd = openSync(file, "r");
    try {
      for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) hasher.update(chunk.subarray(0, n));
    } finally {
      closeSync(fd);
    }
  }
  return hasher.digest("hex");
}
