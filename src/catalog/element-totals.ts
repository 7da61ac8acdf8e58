/**
 * Vocabulary rows of the total element contents USGS Data Series 801 reports (docs/decisions.md#geochem-vocabulary).
 * Data, as ./properties.ts: one id is one measured quantity. An element the vocabulary already names as an
 * exchangeable or extractable quantity (calcium, iron, phosphorus, ...) keeps that id, and its total content is
 * `<element>_total`; an element new to the vocabulary takes its name (lead). The chemical symbol is an alias only
 * where no other property uses it (`ca` stays exchangeable calcium's). Every row carries the warning that a total
 * content is not a plant-available, exchangeable or bioaccessible content.
 */
import type { PropertyRecord } from "./model";

/** The warning every total element content carries. */
export const TOTAL_CONTENT_WARNING =
  "Total or near-total content (strong-acid digestion such as the four-acid digestion of USGS DS 801, or XRF) is not " +
  "plant-available, exchangeable, extractable or bioaccessible content and is not comparable to soil-test extractions " +
  "(Mehlich-3, DTPA, NH4OAc, Bray, Olsen); near-total digestions leave resistant minerals partly undissolved, so values " +
  "can fall short of a complete (HF or XRF) total.";

const MG_KG_NOTE = "mg/kg = ppm by weight = ug/g; 1 % = 10,000 mg/kg.";
const PERCENT_NOTE = "% by weight (wt. %) = g/100 g; 1 % = 10,000 mg/kg.";

function total(id: string, element: string, symbol: string, unit: "mg/kg" | "%", aliases: string[], note = ""): PropertyRecord {
  return {
    id,
    name: `${element[0]!.toUpperCase()}${element.slice(1)} (total)`,
    description: `Total (or near-total) ${element} (${symbol}) content of the fine-earth (<2 mm) fraction.`,
    standard_unit: unit,
    accepted_aliases: aliases,
    conversion_notes: unit === "%" ? PERCENT_NOTE : MG_KG_NOTE,
    method_dependency_warning: note ? `${TOTAL_CONTENT_WARNING} ${note}` : TOTAL_CONTENT_WARNING,
    status: "experimental",
  };
}

/** A new element: its name is the id, its symbol an alias. */
const element = (name: string, symbol: string, unit: "mg/kg" | "%" = "mg/kg", note = "") =>
  total(name, name, symbol, unit, [symbol.toLowerCase(), `total_${name}`], note);

/** An element whose plain id is an exchangeable or extractable quantity: `<name>_total`, no symbol alias. */
const totalOf = (name: string, symbol: string, unit: "mg/kg" | "%", plain: string) =>
  total(`${name}_total`, name, symbol, unit, [`total_${name}`], `The vocabulary's '${name}' is ${plain}, a different quantity.`);

export const ELEMENT_TOTAL_PROPERTIES: readonly PropertyRecord[] = [
  element("silver", "Ag"),
  element("aluminum", "Al", "%", "Exchangeable (KCl-extractable) aluminum, which governs acidity, is a different quantity."),
  element("barium", "Ba"),
  element("beryllium", "Be"),
  element("bismuth", "Bi"),
  totalOf("calcium", "Ca", "%", "exchangeable calcium (NH4OAc at pH 7)"),
  element("cadmium", "Cd"),
  element("cerium", "Ce"),
  element("cobalt", "Co"),
  element("chromium", "Cr"),
  element("cesium", "Cs"),
  totalOf("copper", "Cu", "mg/kg", "extractable (micronutrient) copper"),
  totalOf("iron", "Fe", "%", "extractable (micronutrient) iron"),
  element("gallium", "Ga"),
  element("mercury", "Hg"),
  element("indium", "In"),
  totalOf("potassium", "K", "%", "exchangeable potassium (NH4OAc at pH 7)"),
  element("lanthanum", "La"),
  element("lithium", "Li"),
  totalOf("magnesium", "Mg", "%", "exchangeable magnesium (NH4OAc at pH 7)"),
  totalOf("manganese", "Mn", "mg/kg", "extractable (micronutrient) manganese"),
  element("molybdenum", "Mo"),
  totalOf("sodium", "Na", "%", "exchangeable sodium (NH4OAc at pH 7)"),
  element("niobium", "Nb"),
  element("nickel", "Ni"),
  totalOf("phosphorus", "P", "mg/kg", "extractable (soil-test) phosphorus"),
  element("lead", "Pb"),
  element("rubidium", "Rb"),
  element("sulfur", "S", "%", "Sulfate-S extracted for soil tests is a different quantity."),
  element("antimony", "Sb"),
  element("scandium", "Sc"),
  element("tin", "Sn"),
  element("strontium", "Sr"),
  element("tellurium", "Te"),
  element("thorium", "Th"),
  element("titanium", "Ti", "%"),
  element("thallium", "Tl"),
  element("uranium", "U"),
  element("vanadium", "V"),
  element("tungsten", "W"),
  element("yttrium", "Y"),
  totalOf("zinc", "Zn", "mg/kg", "extractable (micronutrient) zinc"),
];
