/**
 * The 44 element columns of USGS Data Series 801, Appendix 2b, and the vocabulary id each one answers
 * (docs/decisions.md#geochem-vocabulary). One id is one measured quantity: where the vocabulary already
 * names an exchangeable or extractable form of an element (calcium, iron, phosphorus, ...), the survey's
 * total content takes `<element>_total`; an element new to the vocabulary takes its name (lead, cadmium).
 * Units are not listed here: they come from the file's unit row.
 */

export interface Element {
  /** Chemical symbol as the column names it (`Top5_As` → As). */
  symbol: string;
  /** Canonical property id (GET /v1/properties). */
  property: string;
  /** The element's name (English, US spelling as the report uses). */
  name: string;
}

const e = (symbol: string, property: string, name: string): Element => ({ symbol, property, name });

/** In the file's column order (alphabetical by symbol). */
export const ELEMENTS: readonly Element[] = [
  e("Ag", "silver", "silver"),
  e("Al", "aluminum", "aluminum"),
  e("As", "arsenic", "arsenic"),
  e("Ba", "barium", "barium"),
  e("Be", "beryllium", "beryllium"),
  e("Bi", "bismuth", "bismuth"),
  e("Ca", "calcium_total", "calcium"),
  e("Cd", "cadmium", "cadmium"),
  e("Ce", "cerium", "cerium"),
  e("Co", "cobalt", "cobalt"),
  e("Cr", "chromium", "chromium"),
  e("Cs", "cesium", "cesium"),
  e("Cu", "copper_total", "copper"),
  e("Fe", "iron_total", "iron"),
  e("Ga", "gallium", "gallium"),
  e("Hg", "mercury", "mercury"),
  e("In", "indium", "indium"),
  e("K", "potassium_total", "potassium"),
  e("La", "lanthanum", "lanthanum"),
  e("Li", "lithium", "lithium"),
  e("Mg", "magnesium_total", "magnesium"),
  e("Mn", "manganese_total", "manganese"),
  e("Mo", "molybdenum", "molybdenum"),
  e("Na", "sodium_total", "sodium"),
  e("Nb", "niobium", "niobium"),
  e("Ni", "nickel", "nickel"),
  e("P", "phosphorus_total", "phosphorus"),
  e("Pb", "lead", "lead"),
  e("Rb", "rubidium", "rubidium"),
  e("S", "sulfur", "sulfur"),
  e("Sb", "antimony", "antimony"),
  e("Sc", "scandium", "scandium"),
  e("Se", "selenium", "selenium"),
  e("Sn", "tin", "tin"),
  e("Sr", "strontium", "strontium"),
  e("Te", "tellurium", "tellurium"),
  e("Th", "thorium", "thorium"),
  e("Ti", "titanium", "titanium"),
  e("Tl", "thallium", "thallium"),
  e("U", "uranium", "uranium"),
  e("V", "vanadium", "vanadium"),
  e("W", "tungsten", "tungsten"),
  e("Y", "yttrium", "yttrium"),
  e("Zn", "zinc_total", "zinc"),
];

/** The column of an element in the file (`Top5_As`). */
export const elementColumn = (element: Element) => `Top5_${element.symbol}`;

export const ELEMENT_BY_PROPERTY = new Map(ELEMENTS.map((el) => [el.property, el]));

/** The served property ids, in file order. */
export const ELEMENT_PROPERTIES: readonly string[] = ELEMENTS.map((el) => el.property);
