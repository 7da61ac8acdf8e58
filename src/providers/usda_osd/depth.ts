/**
 * A typical-pedon horizon's depth as the description writes it (docs/decisions.md#osd-depths): OSD
 * lines state inches ("Ap--0 to 6 inches") or centimetres first ("Ap--0 to 18 centimeters (0 to 7
 * inches)"). SoilKnowledgeBase's `top`/`bottom` are whole centimetres (6 in → 15); Loam keeps the
 * original and converts inches exactly (1 in = 2.54 cm by definition: 6 in → 15.24 cm), at the
 * documented precision. Pure functions.
 */
import { PRECISION_RULE, roundDerived } from "../../domain/precision";

export interface OriginalDepth {
  top: number;
  bottom: number | null;
  unit: "in" | "cm";
  /** The words of the line that state the depth, e.g. "0 to 6 inches". */
  text: string;
  /** How the served centimetres follow from the original; null when the original is centimetres. */
  conversion: string | null;
}

export const INCH_CM = 2.54;

export const INCH_CONVERSION = `cm = inches x ${INCH_CM} (exact by definition); ${PRECISION_RULE}. SoilKnowledgeBase's parse rounds to whole centimetres.`;

/** "Ap--0 to 6 inches; ..." or "R--60 inches; ..." or "A--0 to 18 centimeters (0 to 7 inches); ...". */
const DEPTH = /^[^;]*?--\s*((\d+(?:\.\d+)?)(?:\s+to\s+(\d+(?:\.\d+)?))?\s+(inches|inch|centimeters|centimetres|cm)\b)/i;

/** The depth the narrative states first; null when the line states none the pattern reads. */
export function originalDepth(narrative: string | null): OriginalDepth | null {
  if (narrative === null) return null;
  const m = DEPTH.exec(narrative);
  if (!m) return null;
  const inches = m[4]!.toLowerCase().startsWith("inch");
  return {
    top: Number(m[2]),
    bottom: m[3] === undefined ? null : Number(m[3]),
    unit: inches ? "in" : "cm",
    text: m[1]!,
    conversion: inches ? INCH_CONVERSION : null,
  };
}

/** The served centimetres of an original depth. */
export function centimetres(original: OriginalDepth): { top_cm: number; bottom_cm: number | null } {
  const cm = (v: number) => (original.unit === "in" ? roundDerived(v * INCH_CM) : v);
  return { top_cm: cm(original.top), bottom_cm: original.bottom === null ? null : cm(original.bottom) };
}
