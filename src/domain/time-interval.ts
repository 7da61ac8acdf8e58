/**
 * The `datetime` of OGC API - Features Part 1 (OGC 17-069r4 §7.15.4; docs/decisions.md#ogc-api-features):
 * an instant or an interval, closed (`a/b`) or open at one end (`../b`, `a/..`; an empty end is
 * open too). An instant or an end is an RFC 3339 date-time or a full date; a date stands for its
 * whole UTC day (from its first to its last millisecond). A dated feature matches when its own time
 * intersects the interval. Each failure names the rule it broke.
 */
import { clip, ValidationError } from "../errors";
import { DAY_MS, utcDayStart, type TimeRange } from "./time-range";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

const refuse = (raw: string, why: string) =>
  new ValidationError(
    `Query parameter 'datetime' ${why}; got '${clip(raw)}'. Give an instant (2008-06-16 or 2008-06-16T12:00:00Z) or an interval: 2007-01-01/2008-12-31, ../2008-12-31 or 2008-01-01/.. (RFC 3339, OGC API - Features Part 1).`,
  );

const dayStart = (y: string, m: string, d: string) => utcDayStart(Number(y), Number(m), Number(d));

/** One instant as [first, last] millisecond: a date is its whole day, a date-time itself. Null: not one. */
function instant(text: string): [number, number] | null {
  const date = DATE.exec(text);
  if (date) {
    const start = dayStart(date[1]!, date[2]!, date[3]!);
    return start === null ? null : [start, start + DAY_MS - 1];
  }
  // A '+' of an offset arrives as a space when the client did not percent-encode it.
  const written = text.replace(/ (\d{2}:\d{2})$/, "+$1");
  const time = DATE_TIME.exec(written);
  if (!time) return null;
  const [, y, m, d, hh, mm, ss] = time;
  if (dayStart(y!, m!, d!) === null || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return null;
  // Milliseconds are the finest the comparison keeps.
  const at = Date.parse(written.replace(/\.(\d{1,3})\d*/, ".$1"));
  return Number.isFinite(at) ? [at, at] : null;
}

/** The parsed `datetime`; "" (absent) is null: no filter. */
export function parseDatetime(raw: string): TimeRange | null {
  if (raw === "") return null;
  const parts = raw.split("/");
  if (parts.length > 2) throw refuse(raw, "has more than one '/'");
  if (parts.length === 1) {
    const one = instant(raw);
    if (one === null) throw refuse(raw, "is not an RFC 3339 date-time or date");
    return { start: one[0], end: one[1] };
  }
  const [from, to] = parts as [string, string];
  const open = (end: string) => end === "" || end === "..";
  if (open(from) && open(to)) throw refuse(raw, "is open at both ends");
  const start = open(from) ? null : instant(from);
  const end = open(to) ? null : instant(to);
  if (start === null && !open(from)) throw refuse(raw, "has a start that is not an RFC 3339 date-time or date");
  if (end === null && !open(to)) throw refuse(raw, "has an end that is not an RFC 3339 date-time or date");
  if (start !== null && end !== null && start[0] > end[1]) throw refuse(raw, "ends before it starts");
  return { start: start?.[0] ?? null, end: end?.[1] ?? null };
}
