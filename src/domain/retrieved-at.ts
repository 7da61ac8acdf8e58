/** One meaning of `retrieved_at` for every answer (docs/decisions.md#retrieved-at). */

/**
 * `retrieved_at` everywhere (docs/decisions.md#retrieved-at): when Loam's source read the data. For the
 * offline snapshot that is the source file's own date where the provider knows it (SoilGrids' clips, SCAN's ISMN
 * files), else when the snapshot was built from the exports; otherwise the upstream call
 * (when the cached answer was stored). A survey's own version date is never a retrieved_at.
 */
/** What a source says of itself here (the transports' SourceDescription has these members). */
interface ReadingSource {
  kind: string;
  builtAt?: string;
}

export function retrievedAt(source: ReadingSource, storedAt: number, fileDate?: string): string {
  // Offline, a source file that is dated dates its data, not the snapshot build that copied it.
  if (source.kind === "snapshot" && fileDate) return fileDate;
  if (source.kind === "snapshot" && source.builtAt) {
    const built = new Date(source.builtAt);
    if (Number.isFinite(built.getTime())) return built.toISOString();
  }
  return new Date(storedAt).toISOString();
}
