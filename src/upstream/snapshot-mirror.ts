/**
 * A national mirror: several snapshot files (one per state or region, each written by its own
 * `loam import --snapshot <file>`) served as one source (docs/decisions.md#national-mirror). Each query
 * goes to the files that may hold its answer (the form's `datasets` and `reach`); one file's answer is
 * handed over as it is, several files' answers are made one by the form's `merge`. Opening reads each
 * file's `snapshot_info` only, so start-up does not grow with the files' size.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { UpstreamError } from "../errors";
import { coverageOf, SnapshotTransport } from "./snapshot";
import { formOf, type Box, type Payload, type QueryKind, type SnapshotForm, type SourceDescription, type Transport } from "./transport";

/** What the mirror knows of one file: its transport, and per dataset kind the boxes of its datasets (null: a dataset without one). */
interface MirrorFile {
  transport: SnapshotTransport;
  kinds: Map<string, (Box | null)[]>;
}

const meets = (a: Box, b: Box) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/**
 * The snapshot files LOAM_SNAPSHOT names: a file; a directory (every `*.sqlite` in it, by name); or
 * several of either separated by commas. A name that is neither stops the start.
 */
export function snapshotFiles(spec: string): string[] {
  const files: string[] = [];
  for (const name of spec.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
    if (!existsSync(name)) throw new Error(`LOAM_SNAPSHOT: no snapshot database at ${name}`);
    if (statSync(name).isDirectory()) {
      const inside = readdirSync(name).filter((f) => f.endsWith(".sqlite")).sort().map((f) => join(name, f));
      if (inside.length === 0) throw new Error(`LOAM_SNAPSHOT: the directory ${name} holds no *.sqlite snapshot file`);
      files.push(...inside);
    } else files.push(name);
  }
  if (files.length === 0) throw new Error("LOAM_SNAPSHOT: names no snapshot file");
  return files;
}

/** Does LOAM_SNAPSHOT name a mirror (a directory, or several names) rather than one file? */
export function namesMirror(spec: string): boolean {
  return spec.includes(",") || (existsSync(spec) && statSync(spec).isDirectory());
}

/** One snapshot file's transport, or a mirror of several. */
export function openSnapshots(spec: string): Transport {
  const files = snapshotFiles(spec);
  return files.length === 1 ? new SnapshotTransport(files[0]!) : new SnapshotMirror(files);
}

export class SnapshotMirror implements Transport {
  readonly kind = "snapshot" as const;
  private readonly files: MirrorFile[] = [];
  private readonly description: SourceDescription;

  constructor(paths: readonly string[]) {
    const holder = new Map<string, string>();
    try {
      for (const path of paths) {
        const transport = new SnapshotTransport(path);
        this.files.push({ transport, kinds: new Map() });
        for (const d of transport.describe().datasets ?? []) {
          // A dataset in two files would be answered twice: the mirror refuses it (docs/decisions.md#national-mirror).
          const key = `${d.kind}:${d.id}`;
          const other = holder.get(key);
          if (other !== undefined) throw new Error(`LOAM_SNAPSHOT: the dataset ${key} is in both ${other} and ${path}; a mirror holds each dataset in one file`);
          holder.set(key, path);
          const kinds = this.files.at(-1)!.kinds;
          const boxes = kinds.get(d.kind);
          if (boxes) boxes.push(d.bbox ?? null);
          else kinds.set(d.kind, [d.bbox ?? null]);
        }
      }
    } catch (error) {
      this.close();
      throw error;
    }
    const described = this.files.map((f) => f.transport.describe());
    const hasher = new Bun.CryptoHasher("sha256");
    for (const d of described) hasher.update(d.identity ?? d.location).update("\0");
    this.description = {
      kind: "snapshot",
      location: paths.join(","),
      builtAt: described.map((d) => d.builtAt).filter((t): t is string => t !== undefined).sort().at(-1),
      // In one file's order, so a mirror's answers name its coverage as one file holding its datasets would.
      coverage: coverageOf(described.flatMap((d) => d.datasets ?? [])),
      datasets: described.flatMap((d) => d.datasets ?? []),
      // The mirror's answers are its files' together: its identity is theirs, in order (docs/decisions.md#snapshot-identity).
      identity: `mirror:${hasher.digest("hex").slice(0, 16)}`,
      areas: described.flatMap((d) => d.areas ?? []).sort((a, b) => a.symbol.localeCompare(b.symbol)),
    };
  }

  /** The files that may hold an answer to `form` at `params`; none: the first file, whose answer is an empty one of the right shape. */
  private filesFor<P>(form: SnapshotForm<P>, params: P): MirrorFile[] {
    const reach = form.reach?.(params);
    const asked = this.files.filter((file) => {
      const boxes = form.datasets === undefined ? [...file.kinds.values()].flat() : file.kinds.get(form.datasets);
      if (form.datasets !== undefined && boxes === undefined) return false;
      return reach === undefined || boxes === undefined || boxes.some((box) => box === null || meets(box, reach));
    });
    return asked.length > 0 ? asked : this.files.slice(0, 1);
  }

  async fetch<P>(query: QueryKind<P, unknown>, params: P): Promise<Payload> {
    const form = formOf<SnapshotForm<P>, P>(query, "snapshot", "offline snapshot");
    const asked = this.filesFor(form, params);
    if (asked.length === 1) return asked[0]!.transport.fetch(query, params);
    if (!form.merge) throw new UpstreamError(`The snapshot mirror cannot put the ${query.kind} answers of several files together.`);
    const answers: Payload[] = [];
    for (const file of asked) answers.push(await file.transport.fetch(query, params));
    return form.merge(answers, params);
  }

  describe(): SourceDescription {
    return this.description;
  }

  close(): void {
    for (const file of this.files) file.transport.close();
  }
}
