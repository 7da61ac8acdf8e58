/**
 * SDA renders datetime columns as US-style text ("6/10/2020 2:56:26 AM"); the snapshot may hold
 * ISO text. Both are read as UTC (SDA gives no zone), returning null for anything else.
 */
const US = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(AM|PM)?)?\s*$/i;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?Z?)?$/;

export function parseSdaDateTime(text: string | null | undefined): Date | null {
  if (!text) return null;
  const trimmed = text.trim();
  let match = US.exec(trimmed);
  if (match) {
    const [, month, day, year, hour = "0", minute = "0", second = "0", meridiem] = match;
    let h = Number(hour) % 12;
    if (!meridiem) h = Number(hour);
    else if (meridiem.toUpperCase() === "PM") h += 12;
    return valid(Date.UTC(Number(year), Number(month) - 1, Number(day), h, Number(minute), Number(second)));
  }
  match = ISO.exec(trimmed);
  if (match) {
    const [, year, month, day, hour = "0", minute = "0", second = "0"] = match;
    return valid(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)));
  }
  return null;
}

function valid(ms: number): Date | null {
  return Number.isFinite(ms) ? new Date(ms) : null;
}

/** "2020-06-10" for citations. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
