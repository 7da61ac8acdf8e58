/**
 * Row warnings of the tables as short stable codes (docs/decisions.md#csv-warning-codes): a CSV row
 * carries only the warnings specific to it, each as its code; the answer's warnings appear once (the
 * first row's `answer_warnings`). The JSON keeps every warning's full text; a code names which one.
 *
 * The codes are matched on the stable opening of each warning's text. A warning no code matches is
 * kept as its full text, so no caveat is ever lost (tables/warning-codes tests keep that from happening
 * for the known cases).
 */
export interface WarningCode {
  code: string;
  meaning: string;
  pattern: RegExp;
}

export const WARNING_CODES: readonly WarningCode[] = [
  { code: "mapped_survey", meaning: "A mapped-survey estimate for a map-unit component, not a laboratory observation at the point.", pattern: /^Mapped survey data are not a laboratory observation/ },
  { code: "derived_organic_carbon", meaning: "Organic carbon derived from organic matter (OM / 1.724); not a measurement.", pattern: /^Derived value, not a measurement: organic carbon =/ },
  { code: "derived_organic_matter", meaning: "Organic matter derived from organic carbon (OC x 1.724); not a measurement.", pattern: /^Derived value, not a measurement: organic matter =/ },
  { code: "estimated_organic_carbon", meaning: "The laboratory's estimated organic carbon (total C minus carbonate C), not Walkley-Black.", pattern: /^Derived value: no Walkley-Black organic carbon was reported/ },
  { code: "minor_component", meaning: "From a minor component (majcompflag No).", pattern: /^Minor component \(majcompflag No\)/ },
  { code: "miscellaneous_placeholder", meaning: "A miscellaneous area's zero sand, silt or clay: the survey's placeholder, not an estimate.", pattern: /^Miscellaneous area.*placeholder/ },
  { code: "miscellaneous_not_soil", meaning: "A miscellaneous area's value (e.g. Beaches): the survey's estimate for the area's material, which may not be soil.", pattern: /^Miscellaneous area.*may not be soil/ },
  { code: "censored", meaning: "Censored result: value null; reported_value, value_qualifier and reporting_limit say what was reported.", pattern: /^Censored result/ },
  { code: "not_detected", meaning: "Reported as not detected: value null, not zero.", pattern: /^Reported '.*' \(not detected\)/ },
  { code: "trace", meaning: "Reported as trace: detected below the quantification limit; value null.", pattern: /^Reported '.*' \(trace\)/ },
  { code: "unparseable", meaning: "The reported result is neither a number nor a censored result; value null.", pattern: /^The reported result '.*' could not be read/ },
  { code: "components_without_value", meaning: "Some components have no value over the interval and do not contribute (JSON names them).", pattern: /^\d+ component\(s\), .* have no / },
  { code: "partial_depth", meaning: "Some components' data cover only part of the interval (JSON names them and the covered depth).", pattern: /^Some components' .* cover only part of/ },
  { code: "components_left_out", meaning: "include_minors=false or miscellaneous_areas=exclude left components out (JSON names them).", pattern: /do not count; NRCS muaggatt counts every component/ },
  { code: "tie", meaning: "Components or classes tie; the tie-break is stated in the JSON.", pattern: /^(Tie: |Components .* share the highest percent)/ },
  { code: "dominant_without_data", meaning: "The dominant component has no data: the value is null, as Web Soil Survey shows it.", pattern: /^The dominant component, .* has no / },
  { code: "no_dominant_condition", meaning: "Components without a class cover more of the map unit than any class: null, as muaggatt reports it.", pattern: /^Components without a .* make up/ },
  { code: "no_data", meaning: "No component has data for the property (over the interval): the summary is null.", pattern: /^No component has .* data/ },
  { code: "no_components", meaning: "The map unit has no components.", pattern: /^The map unit has no components/ },
  { code: "no_component_percent", meaning: "The components with a value have no comppct_r: no weighted average.", pattern: /^The components with a value have no component percent/ },
];

/** A warning's code, or its full text when no code names it. */
export function warningCode(warning: string): string {
  return WARNING_CODES.find((c) => c.pattern.test(warning))?.code ?? warning;
}
