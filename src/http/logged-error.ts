/**
 * An unexpected failure as the log shows it (docs/decisions.md#logged-failures): its name and message,
 * and the functions it passed through, innermost first. Never a file path: a stack's frames name the
 * files of the machine and the build, which a log shipped elsewhere must not carry; and a message's
 * absolute paths are cut to the file's name.
 */
const FRAMES_KEPT = 8;

/** `/srv/loam/data/x.sqlite` → `x.sqlite` (a path of two or more segments, POSIX or Windows). */
function withoutPaths(text: string): string {
  return text.replace(/(?:[A-Za-z]:)?(?:[\\/][^\\/\s:'"()]+){2,}/g, (path) => path.split(/[\\/]/).at(-1) ?? "");
}

export function loggedError(error: unknown): { error: string; frames?: string[] } {
  if (!(error instanceof Error)) return { error: withoutPaths(String(error)) };
  const frames = (error.stack ?? "")
    .split("\n")
    .flatMap((line) => {
      const frame = /^\s+at (?:async )?([^\s(]+) \(/.exec(line);
      return frame ? [frame[1]!] : [];
    })
    .slice(0, FRAMES_KEPT);
  return { error: withoutPaths(`${error.name}: ${error.message}`), ...(frames.length > 0 ? { frames } : {}) };
}
