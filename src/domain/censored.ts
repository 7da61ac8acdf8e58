/**
 * Reading a laboratory result as the provider reported it. SDA sends every value as a string, and a
 * lab may report a censored result ("<0.05": below the reporting limit) instead of a number.
 *
 * The one rule (docs/decisions.md#censored): a censored result is never replaced by its limit. `value` is a number
 * only for a plain numeric result; the limit goes to `reporting_limit`, the string stays in
 * `reported_value`.
 *
 * Decisions:
 * - "<x" / "< x" / "<.x" → less_than with limit x; ">x" → greater_than with limit x.
 * - "ND", "n.d.", "BDL" (not detected, below detection limit) and "tr", "trace" (detected, too little
 *   to quantify) → less_than WITHOUT a limit: the result is known to lie below some limit the provider
 *   did not state. It is still a result (not a missing value and not zero), so it keeps its qualifier
 *   and a warning says which kind it was.
 * - Empty or null → missing: no result was reported, and no observation is made of it.
 * - Anything else that is not a plain decimal → value null, no qualifier, and a warning.
 */
import { decimal } from "../decimal";

export type ValueQualifier = "less_than" | "greater_than";

export type ResultKind = "number" | "censored" | "not_detected" | "trace" | "missing" | "unparseable";

export interface ReportedResult {
  kind: ResultKind;
  /** The number, only for an uncensored numeric result. */
  value: number | null;
  /** The string exactly as reported (null when nothing was reported). */
  reported_value: string | null;
  value_qualifier: ValueQualifier | null;
  /** The stated limit of a censored result; never copied into `value`. */
  reporting_limit: number | null;
  /** Why the value is null, for a censored, not-detected, trace or unparseable result. */
  warning: string | null;
}

const CENSORED = /^([<>])\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)$/;
const NOT_DETECTED = new Set(["nd", "n.d.", "n.d", "bdl", "not detected", "below detection limit"]);
const TRACE = new Set(["tr", "tr.", "trace"]);

function result(kind: ResultKind, reported: string | null, fields: Partial<ReportedResult> = {}): ReportedResult {
  return { kind, value: null, reported_value: reported, value_qualifier: null, reporting_limit: null, warning: null, ...fields };
}

export function parseReported(reported: string | null | undefined): ReportedResult {
  if (reported === null || reported === undefined || reported.trim() === "") return result("missing", null);
  const text = reported.trim();
  const value = decimal(text);
  if (value !== null) return result("number", reported, { value });

  const censored = CENSORED.exec(text);
  if (censored) {
    const limit = Number(censored[2]);
    if (Number.isFinite(limit)) {
      const lessThan = censored[1] === "<";
      return result("censored", reported, {
        value_qualifier: lessThan ? "less_than" : "greater_than",
        reporting_limit: limit,
        warning: `Censored result '${reported}': the value lies ${lessThan ? "below" : "above"} the reporting limit ${limit}, so value is null; the limit is not the value and must not be used as one.`,
      });
    }
  }
  const word = text.toLowerCase();
  if (NOT_DETECTED.has(word)) {
    return result("not_detected", reported, {
      value_qualifier: "less_than",
      warning: `Reported '${reported}' (not detected): below the method's detection limit, which the provider did not state; value is null, not zero.`,
    });
  }
  if (TRACE.has(word)) {
    return result("trace", reported, {
      value_qualifier: "less_than",
      warning: `Reported '${reported}' (trace): detected, but below the quantification limit, which the provider did not state; value is null, not zero.`,
    });
  }
  const shown = reported.length > 40 ? `${reported.slice(0, 40)}…` : reported;
  return result("unparseable", reported, { warning: `The reported result '${shown}' could not be read as a number or a censored result; value is null.` });
}
