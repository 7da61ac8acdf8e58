/**
 * A keyset page of sites (docs/decisions.md#cursors): a query answers at most `limit` + 1 sites in key
 * order, the extra one saying that more exist. The page keeps `limit` and ends at its last key, where the
 * next page starts.
 */
export function pageOf<S>(sites: readonly S[], limit: number, keyOf: (site: S) => string): { sites: S[]; truncated: boolean; last: string | null } {
  const kept = sites.slice(0, limit);
  const last = kept.at(-1);
  return { sites: kept, truncated: sites.length > limit, last: last === undefined ? null : keyOf(last) };
}
