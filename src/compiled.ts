/**
 * What the single executable runs. scripts/build.ts generates the compile entry (dist/entry.ts),
 * which imports the snapshot `with { type: "file" }`, so that `bun build --compile` embeds it, and
 * hands it here; from then on the executable is the ordinary command line (src/cli.ts).
 */
import { registerEmbeddedSnapshot, type EmbeddedSnapshot } from "./snapshot/embedded";

export async function runCompiled(snapshot: EmbeddedSnapshot): Promise<void> {
  registerEmbeddedSnapshot(snapshot);
  await import("./cli");
}
