/**
 * What the single executable runs. scripts/build.ts generates the compile entry (dist/entry.ts),
 * which imports the snapshot and every page asset (src/pages/assets.ts `assets()`) `with { type:
 * "file" }`, so that `bun build --compile` embeds them, and hands them here; from then on the
 * executable is the ordinary command line (src/cli.ts).
 */
import { registerEmbeddedSnapshot, type EmbeddedSnapshot } from "./snapshot/embedded";
import { registerEmbeddedAssets, type Asset } from "./pages/assets";

export async function runCompiled(snapshot: EmbeddedSnapshot, assets: Record<string, Asset>): Promise<void> {
  registerEmbeddedSnapshot(snapshot);
  registerEmbeddedAssets(assets);
  await import("./cli");
}
