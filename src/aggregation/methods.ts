/**
 * The aggregation methods of a map-unit summary and which properties each fits: numbers are
 * averaged, searched for extremes or taken from the dominant component; classes are counted by
 * condition or taken from the dominant component. A method that does not fit is a 422 naming both.
 */
import { ValidationError } from "../errors";
import type { SummaryKind, SummaryProperty } from "../domain/summary-property";

export const SUMMARY_METHODS = ["weighted_average", "dominant_component", "dominant_condition", "min", "max"] as const;
export type SummaryMethod = (typeof SUMMARY_METHODS)[number];

const FITS: Record<SummaryKind, readonly SummaryMethod[]> = {
  numeric: ["weighted_average", "dominant_component", "min", "max"],
  class: ["dominant_condition", "dominant_component"],
};

/** The methods that fit a property, the default first. */
export function methodsFor(property: Pick<SummaryProperty, "kind">): readonly SummaryMethod[] {
  return FITS[property.kind];
}

/** The method used when the request names none: weighted_average for numbers, dominant_condition for classes. */
export function defaultMethod(property: Pick<SummaryProperty, "kind">): SummaryMethod {
  return FITS[property.kind][0]!;
}

export function methodFits(property: Pick<SummaryProperty, "kind">, method: SummaryMethod): boolean {
  return FITS[property.kind].includes(method);
}

/** Throws a ValidationError (422) naming the method and the property when they do not fit. */
export function assertMethodFits(property: Pick<SummaryProperty, "id" | "kind">, method: SummaryMethod): void {
  if (methodFits(property, method)) return;
  const what = property.kind === "class" ? "a class (category)" : "a number";
  throw new ValidationError(
    `Method '${method}' does not fit property '${property.id}': ${property.id} is ${what}, so it takes ${FITS[property.kind].map((m) => `'${m}'`).join(" or ")}.`,
  );
}
