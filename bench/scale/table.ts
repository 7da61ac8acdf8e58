/**
 * `bun bench/scale/table.ts [percent...]`: the growth table of docs/benchmarks.md from the runs'
 * bench/tmp/scale-<p>/results.json (written by `npm run bench:scale`), sizes side by side.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TMP } from "../lib";

const percents = (process.argv.slice(2).length ? process.argv.slice(2) : ["1", "10", "100"]).filter((p) => existsSync(join(TMP, `scale-${p}`, "results.json")));
const runs = percents.map((p) => JSON.parse(readFileSync(join(TMP, `scale-${p}`, "results.json"), "utf8")));
const head = `| | ${runs.map((r) => `${r.percent} %`).join(" | ")} |\n|---|${runs.map(() => "---:").join("|")}|`;
const row = (label: string, cell: (r: any) => string) => `| ${label} | ${runs.map(cell).join(" | ")} |`;
const lines = [head];
for (const [i, name] of ["SSURGO", "KSSL", "SCAN", "SoilGrids", "all four"].entries()) {
  lines.push(row(`import ${name}: s, peak RSS MB, snapshot MB`, (r) => `${r.imports[i].seconds.toFixed(1)} s, ${Math.round(r.imports[i].peakMb)}, ${(r.imports[i].bytes / 1e6).toFixed(0)}`));
}
lines.push(row("snapshot MB per million polygons", (r) => (r.bytesPerMillionPolygons / 1e6).toFixed(0)));
lines.push(row("snapshot MB per million series values", (r) => (r.bytesPerMillionSeriesValues / 1e6).toFixed(1)));
lines.push(row("start-up to first /health, s (each start)", (r) => r.startupSeconds.map((s: number) => s.toFixed(2)).join(", ")));
for (const name of Object.keys(runs[0]?.queries ?? {})) {
  lines.push(row(`${name}: cold p50 / p95 ms (CPU ms)`, (r) => `${r.queries[name].p50.toFixed(1)} / ${r.queries[name].p95.toFixed(1)} (${r.queries[name].cpuMs.toFixed(1)})`));
}
lines.push(row("RSS serving, MB (peak)", (r) => `${Math.round(r.serving.rssMb)} (${Math.round(r.serving.peakMb)})`));
lines.push(row("load average at the end", (r) => r.load.split(" ")[0]));
console.log(lines.join("\n"));
