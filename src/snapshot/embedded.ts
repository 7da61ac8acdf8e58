/**
 * The snapshot embedded by `bun run build` (scripts/build.ts writes `embedded-path.generated.ts`
 * for the compile step). When running from source there is none and this returns null.
 */
export function resolveEmbeddedSnapshot(): string | null {
  return null;
}
