/**
 * `bun bench/scale/table.ts [mirror] [percent...]`: the growth tables of docs/benchmarks.md from the runs'
 * bench/tmp/scale-<p>/results.json (written by `npm run bench:scale`), or with `mirror` the national
 * mirror's bench/tmp/mirror-<p>/results.json (`npm run bench:scale -- mirror`), sizes side by side.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TMP } from "../lib";

const mirror = process.argv[2] === "mirror";
const asked = process.argv.slice(mirror ? 3 : 2);
const folder = (p: string) => join(TMP, `${mirror ? "mirror" : "scale"}-${p}`, "results.json");
const percents = (asked.length ? asked : ["1", "10", "100"]).filter((p) => existsSync(folder(p)));
const runs = percents.map((p) => JSON.parse(readFileSync(folder(p), "utf8")));
const head = `| | ${runs.map((r) => `${r.percent} %`).join(" | ")} |\n|---|${runs.map(() => "---:").join("|")}|`;
const row = (label: string, cell: (r: any) => string) => `| ${label} | ${runs.map(cell).join(" | ")} |`;
const lines = [head];
const imported = (i: { seconds: number; peakMb: number; bytes: number }) => `${i.seconds.toFixed(1)} s, ${Math.round(i.peakMb)}, ${(i.bytes / 1e6).toFixed(0)}`;
const span = (xs: number[], digits = 0) => `${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}`;
if (mirror) {
  const states = (r: any) => r.imports.slice(0, -1);
  lines.push(row("a state's file: import s, peak RSS MB, MB (ten files)", (r) => `${span(states(r).map((i: any) => i.seconds), 1)} s, ${span(states(r).map((i: any) => i.peakMb))}, ${span(states(r).map((i: any) => i.bytes / 1e6), 1)}`));
  lines.push(row("the lab database's file", (r) => imported(r.imports.at(-1))));
  lines.push(row("all 11 files: import s, MB", (r) => `${r.imports.reduce((t: number, i: any) => t + i.seconds, 0).toFixed(0)} s, ${(r.totalBytes / 1e6).toFixed(0)}`));
  lines.push(row("an 11th state's file added: import s, MB; the others unchanged; restart s", (r) => `${imported(r.addedState.import).replace(/, \d+, /, ", ")}; ${r.addedState.otherFilesUnchanged} unchanged; ${r.addedState.startSeconds.toFixed(2)}`));
} else {
  for (const [i, name] of ["SSURGO", "KSSL", "SCAN", "SoilGrids", "all four"].entries()) {
    lines.push(row(`import ${name}: s, peak RSS MB, snapshot MB`, (r) => imported(r.imports[i])));
  }
  lines.push(row("snapshot MB per million polygons", (r) => (r.bytesPerMillionPolygons / 1e6).toFixed(0)));
  lines.push(row("snapshot MB per million series values", (r) => (r.bytesPerMillionSeriesValues / 1e6).toFixed(1)));
}
lines.push(row("start-up to first /health, s (each start)", (r) => r.startupSeconds.map((s: number) => s.toFixed(2)).join(", ")));
for (const name of Object.keys(runs[0]?.queries ?? {})) {
  lines.push(row(`${name}: cold p50 / p95 ms (CPU ms)${mirror ? ", KB" : ""}`, (r) => `${r.queries[name].p50.toFixed(1)} / ${r.queries[name].p95.toFixed(1)} (${r.queries[name].cpuMs.toFixed(1)})${mirror ? `, ${Math.round(r.queries[name].bytes / 1e3)}` : ""}`));
}
lines.push(row("RSS serving, MB (peak)", (r) => `${Math.round(r.serving.rssMb)} (${Math.round(r.serving.peakMb)})`));
lines.push(row("load average at the end", (r) => r.load.split(" ")[0]));
console.log(lines.join("\n"));
