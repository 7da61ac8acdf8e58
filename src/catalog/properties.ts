/**
 * The canonical soil-property vocabulary served by `GET /v1/properties` (docs/decisions.md#vocabulary).
 *
 * This file is data. Canonical ids and units: docs/decisions.md#units. Alias rules:
 * - aliases are lower case, unique across the vocabulary, and never equal a canonical id;
 * - an alias names the same quantity as its canonical id. Where the canonical property is defined by a
 *   method (pH in 1:1 water, CEC by NH4OAc at pH 7, EC of the saturated paste, bulk density at 1/3 bar),
 *   names of a different method (ph_cacl2, ecec, ec_1to5, bulk_density_oven_dry ...) are deliberately
 *   NOT aliases; for the not-yet-served properties no method-specific name is an alias at all.
 * - SSURGO's representative-value column names as users type them (claytotal_r, om_r, ph1to1h2o_r, awc_r,
 *   ksat_r, ...) are aliases too (docs/decisions.md#ssurgo-column-aliases).
 * - provider column names are aliases where they denote the canonical quantity (SSURGO ph1to1h2o, om,
 *   claytotal ...; KSSL ph_h2o, clay_total ...; SoilGrids phh2o, soc, bdod, nitrogen).
 */
import type { PropertyRecord } from "./model";
import { ELEMENT_TOTAL_PROPERTIES, TOTAL_CONTENT_WARNING } from "./element-totals";

/** PropertiesResponse.warning. */
export const VOCABULARY_WARNING =
  "Values of one property measured by different methods are not interchangeable (for example pH in water vs " +
  "in CaCl2, Walkley-Black vs dry-combustion carbon, Bray-1 vs Olsen vs Mehlich-3 phosphorus, saturated-paste " +
  "vs 1:5 EC). Before comparing or combining values, including values from different providers, check " +
  "measurement_method, units, data_kind and transformations.";

/** Conventional organic matter / organic carbon factor, the one constant for both directions (docs/decisions.md#units). */
export const OM_OC_FACTOR = 1.724;

const OM_OC_NOTE =
  "OM = OC x 1.724 and OC = OM / 1.724: the conventional factor (often called the Van Bemmelen factor; it " +
  "assumes organic matter is 58 % carbon). Pribyl (2010) found a median factor near 1.9, with a range of about " +
  "1.4 to 2.5 between soils and horizons, so a converted value is an estimate, not a measurement.";

const PERCENT_NOTE = "% by weight = g/100 g; 1 % = 10 g/kg.";

export const PROPERTIES: readonly PropertyRecord[] = [
  // ---- served (status experimental) ------------------------------------------------
  {
    id: "ph",
    name: "pH (1:1 water)",
    description:
      "Soil reaction measured in a 1:1 soil:water suspension (SSURGO ph1to1h2o, KSSL ph_h2o): the negative " +
      "logarithm of the hydrogen-ion activity.",
    standard_unit: "pH",
    accepted_aliases: ["phh2o", "ph_h2o", "ph_water", "ph1to1h2o", "soil_ph", "ph1to1h2o_r"],
    conversion_notes:
      "pH units; no unit conversion. SoilGrids phh2o is stored as pH x 10 (divide by 10). There is no general " +
      "conversion between pH in water and pH in CaCl2 or KCl; published regressions are soil-specific.",
    method_dependency_warning:
      "pH depends on the solution and the soil:solution ratio. pH in 0.01 M CaCl2 is typically about 0.5 unit " +
      "lower than pH in 1:1 water (the difference shrinks in saline soils), pH in 1 M KCl is lower still, and " +
      "1:2, 1:2.5 and 1:5 water ratios or saturated-paste pH give other values. Only pH in 1:1 water is served as ph.",
    status: "experimental",
  },
  {
    id: "organic_carbon",
    name: "Organic carbon",
    description:
      "Organic carbon content of the fine-earth (<2 mm) fraction. KSSL: Walkley-Black organic carbon when " +
      "reported, otherwise KSSL's estimated organic carbon (total carbon minus carbonate carbon, derived); " +
      "SSURGO: derived from organic matter (om_r / 1.724).",
    standard_unit: "% (by weight)",
    accepted_aliases: ["soc", "oc", "organic_c", "soil_organic_carbon"],
    conversion_notes:
      `${PERCENT_NOTE} ${OM_OC_NOTE} KSSL estimated organic carbon = total C - (CaCO3 equivalent x 0.12). ` +
      "SoilGrids soc is in dg/kg (divide by 100 for %).",
    method_dependency_warning:
      "Walkley-Black dichromate oxidation recovers only part of the organic carbon (its standard calculation " +
      "assumes about 77 % recovery, but recovery varies between soils) and is no longer run by KSSL on newer " +
      "samples. Dry combustion measures total carbon, which includes carbonate carbon in calcareous soils, so " +
      "organic carbon must come from subtracting inorganic carbon or from acid pretreatment. Total carbon is not " +
      "organic carbon. Values derived from organic matter inherit the uncertainty of the OM/OC factor.",
    status: "experimental",
  },
  {
    id: "organic_matter",
    name: "Organic matter",
    description:
      "Soil organic matter content of the fine-earth fraction. SSURGO: om_r (a representative estimate); " +
      "KSSL: derived from organic carbon (OC x 1.724).",
    standard_unit: "% (by weight)",
    accepted_aliases: ["om", "som", "soil_organic_matter", "om_r"],
    conversion_notes: `${PERCENT_NOTE} ${OM_OC_NOTE}`,
    method_dependency_warning:
      "Organic matter is rarely measured directly. It is estimated from organic carbon with a factor (1.724 " +
      "conventional; 1.9 to 2 often fits better) or from loss on ignition, which also counts water lost from " +
      "clays and gypsum and, at high temperatures, carbonate, and depends on temperature and duration. Values " +
      "obtained by different routes are not interchangeable.",
    status: "experimental",
  },
  {
    id: "sand",
    name: "Sand (<2 mm fraction)",
    description: "Total sand (0.05 to 2 mm, USDA) as a percentage by weight of the fine-earth (<2 mm) fraction.",
    standard_unit: "%",
    accepted_aliases: ["sandtotal", "sand_total", "total_sand", "sandtotal_r"],
    conversion_notes:
      "% of the <2 mm fraction by weight; 1 % = 10 g/kg. SoilGrids sand is in g/kg (divide by 10). Values on a " +
      "whole-soil basis (including coarse fragments) must be rescaled to the fine-earth basis.",
    method_dependency_warning:
      "Particle-size results depend on the method (pipette, the KSSL standard; hydrometer; laser diffraction, " +
      "which typically reports less clay), on pretreatment and dispersion (incomplete in volcanic, iron-oxide-rich, " +
      "gypsic or calcareous soils) and on the size limits: the USDA sand/silt limit is 0.05 mm, FAO/ISO systems " +
      "use 0.063 mm and the international (Atterberg) system 0.02 mm. Always on the <2 mm fraction.",
    status: "experimental",
  },
  {
    id: "silt",
    name: "Silt (<2 mm fraction)",
    description: "Total silt (0.002 to 0.05 mm, USDA) as a percentage by weight of the fine-earth (<2 mm) fraction.",
    standard_unit: "%",
    accepted_aliases: ["silttotal", "silt_total", "total_silt", "silttotal_r"],
    conversion_notes:
      "% of the <2 mm fraction by weight; 1 % = 10 g/kg. SoilGrids silt is in g/kg (divide by 10). Silt is often " +
      "computed by difference (100 - sand - clay), so it carries the errors of both.",
    method_dependency_warning:
      "Particle-size results depend on the method (pipette, hydrometer, laser diffraction), pretreatment and " +
      "dispersion, and on the size limits: USDA silt is 0.002 to 0.05 mm, FAO/ISO silt 0.002 to 0.063 mm, " +
      "international (Atterberg) silt 0.002 to 0.02 mm. Silt from different systems is not comparable.",
    status: "experimental",
  },
  {
    id: "clay",
    name: "Clay (<2 mm fraction)",
    description: "Total clay (<0.002 mm) as a percentage by weight of the fine-earth (<2 mm) fraction.",
    standard_unit: "%",
    accepted_aliases: ["claytotal", "clay_total", "total_clay", "claytotal_r"],
    conversion_notes:
      "% of the <2 mm fraction by weight; 1 % = 10 g/kg. SoilGrids clay is in g/kg (divide by 10).",
    method_dependency_warning:
      "Clay depends on the method: pipette (the KSSL standard) and hydrometer sedimentation differ, laser " +
      "diffraction typically reports markedly less clay, and dispersion is incomplete in soils from volcanic " +
      "materials or rich in iron oxides, gypsum or carbonates. Field (hand-texture) clay estimates are not " +
      "laboratory values.",
    status: "experimental",
  },
  {
    id: "bulk_density",
    name: "Bulk density, 1/3 bar",
    description:
      "Oven-dry mass of the fine-earth fraction per unit volume at 1/3 bar (33 kPa) water retention " +
      "(SSURGO dbthirdbar, KSSL bulk_density_third_bar).",
    standard_unit: "g/cm3",
    // Judgment: bdod (SoilGrids) is listed because it names bulk density of the fine earth; its training data
    // mix methods, which the warning states.
    accepted_aliases: ["bd", "db", "bdod", "dbthirdbar", "bulk_density_third_bar", "dbthirdbar_r"],
    conversion_notes:
      "g/cm3 = Mg/m3 = kg/dm3 (numerically equal); lb/ft3 x 0.016018 = g/cm3. SoilGrids bdod is in cg/cm3 " +
      "(divide by 100).",
    method_dependency_warning:
      "Bulk density depends on the moisture state and the method. KSSL's standard is the coated-clod method " +
      "equilibrated at 1/3 bar; oven-dry clod density is higher in shrink-swell soils; core and excavation " +
      "methods measure field-moist whole soil, including coarse fragments unless corrected. SSURGO dbthirdbar " +
      "is an estimate for the horizon. Values at different moisture states are not interchangeable.",
    status: "experimental",
  },
  {
    id: "cec",
    name: "CEC, NH4OAc pH 7",
    description:
      "Cation exchange capacity measured with 1 M ammonium acetate buffered at pH 7 (SSURGO cec7, KSSL " +
      "cec_nh4_ph_7).",
    standard_unit: "cmol(+)/kg",
    accepted_aliases: ["cec7", "cec_nh4", "cec_ph7", "cec_nh4_ph_7", "cation_exchange_capacity", "cec7_r"],
    conversion_notes:
      "meq/100 g = cmol(+)/kg (numerically equal, no conversion needed). SoilGrids cec is in mmol(c)/kg " +
      "(divide by 10).",
    method_dependency_warning:
      "CEC depends on the pH and the index cation of the method. CEC at pH 7 (NH4OAc) exceeds the effective CEC " +
      "(ECEC: sum of bases plus KCl-extractable Al at the soil's own pH) of acid soils with pH-dependent charge, " +
      "and is lower than CEC at pH 8.2 (sum of cations with BaCl2-TEA acidity, or sodium acetate). In calcareous " +
      "or gypsiferous soils ammonium acetate dissolves carbonates and gypsum. ECEC and CEC-8.2 are not served as cec.",
    status: "experimental",
  },
  {
    id: "total_nitrogen",
    name: "Total nitrogen",
    description: "Total nitrogen of the fine-earth fraction (KSSL total_nitrogen_ncs, dry combustion). Not part of SSURGO.",
    standard_unit: "%",
    accepted_aliases: ["tn", "total_n", "n_total", "nitrogen", "total_nitrogen_ncs"],
    conversion_notes:
      `${PERCENT_NOTE} SoilGrids nitrogen is in cg/kg (divide by 1,000 for %).`,
    method_dependency_warning:
      "Dry combustion (Dumas) measures all nitrogen; Kjeldahl digestion misses most nitrate and nitrite and " +
      "some fixed nitrogen unless modified, so it usually reads somewhat lower. Total nitrogen is not " +
      "plant-available nitrogen (nitrate, ammonium or mineralizable N).",
    status: "experimental",
  },
  {
    id: "ec",
    name: "Electrical conductivity, saturated paste",
    description:
      "Electrical conductivity of the saturated-paste extract, ECe (SSURGO ec, KSSL electrical_conductivity_satx): " +
      "the reference measure of soil salinity.",
    standard_unit: "dS/m",
    accepted_aliases: ["electrical_conductivity", "ece", "ec_satx", "ec_se", "electrical_conductivity_satx", "ec_r"],
    conversion_notes:
      "dS/m = mS/cm = mmhos/cm (numerically equal); uS/cm / 1,000 = dS/m.",
    method_dependency_warning:
      "EC of the saturated-paste extract (ECe) and EC of 1:1, 1:2 or 1:5 soil:water mixtures are not " +
      "interchangeable: the diluted mixtures read lower, and the ratio to ECe depends on texture, salt " +
      "composition and gypsum, so only soil-specific regressions relate them. Only ECe is served as ec.",
    status: "experimental",
  },

  {
    id: "calcium",
    name: "Calcium (exchangeable)",
    description: "Exchangeable calcium (Ca2+) by 1 M NH4OAc at pH 7 (KSSL ca_nh4_ph_7; KSSL does not report it for samples with carbonates or soluble salts).",
    // Judgment: exchangeable base cations keep the CEC unit, as KSSL reports them; soil-test mg/kg converts.
    standard_unit: "cmol(+)/kg",
    accepted_aliases: ["ca", "exchangeable_calcium", "exch_ca", "ca_nh4_ph_7"],
    conversion_notes:
      "cmol(+)/kg = meq/100 g. mg/kg = cmol(+)/kg x 200.4 for Ca2+ (soil-test reports often use mg/kg or ppm).",
    method_dependency_warning:
      "NH4OAc at pH 7 (KSSL), Mehlich-3 (soil-test laboratories) and other extractants give different values. " +
      "Ammonium acetate dissolves calcium carbonate and gypsum, so 'exchangeable' calcium in calcareous or " +
      "gypsiferous soils is inflated and can exceed the CEC. Total calcium (acid digestion, XRF) is a different quantity.",
    status: "experimental",
  },
  {
    id: "potassium",
    name: "Potassium (exchangeable)",
    description: "Exchangeable potassium (K+) by 1 M NH4OAc at pH 7 (KSSL k_nh4_ph_7).",
    standard_unit: "cmol(+)/kg",
    accepted_aliases: ["k", "exchangeable_potassium", "exch_k", "k_nh4_ph_7"],
    conversion_notes: "cmol(+)/kg = meq/100 g. mg/kg = cmol(+)/kg x 391.0 for K+. K2O = K x 1.205.",
    method_dependency_warning:
      "NH4OAc at pH 7 and Mehlich-3 extract similar but not identical amounts, and soil-test interpretations are " +
      "extractant-specific; air-drying can release or fix potassium in some soils. Interlayer (fixed) potassium " +
      "is not extracted, and total potassium in feldspars and micas is far larger and not plant-available.",
    status: "experimental",
  },
  {
    id: "phosphorus_mehlich3",
    name: "Phosphorus (Mehlich-3 extractable)",
    description: "Phosphorus extracted by the Mehlich-3 solution (KSSL phosphorus_mehlich_3), mg/kg of the <2 mm fraction.",
    standard_unit: "mg/kg",
    accepted_aliases: ["phosphorus_mehlich_3", "p_mehlich3", "mehlich3_p", "m3_p"],
    conversion_notes:
      "mg/kg = ppm by weight. P2O5 = P x 2.291. Agronomic lb/acre figures assume a furrow-slice mass (about " +
      "2,000,000 lb per acre, so lb/acre is about 2 x mg/kg) and should be converted back with that assumption stated.",
    method_dependency_warning:
      "Mehlich-3 phosphorus is not Olsen or Bray-1 phosphorus (different extractants, different values and " +
      "interpretation thresholds), and colorimetric and ICP determinations of the same Mehlich-3 extract differ. " +
      "Olsen phosphorus is served as phosphorus_olsen.",
    status: "experimental",
  },
  {
    id: "phosphorus_olsen",
    name: "Phosphorus (Olsen extractable)",
    description: "Phosphorus extracted by 0.5 M sodium bicarbonate at pH 8.5 (Olsen; KSSL phosphorus_olsen), mg/kg of the <2 mm fraction; an indicator of available phosphorus in calcareous soils.",
    standard_unit: "mg/kg",
    accepted_aliases: ["p_olsen", "olsen_p", "olsen_phosphorus"],
    conversion_notes:
      "mg/kg = ppm by weight. P2O5 = P x 2.291. Agronomic lb/acre figures assume a furrow-slice mass (about " +
      "2,000,000 lb per acre, so lb/acre is about 2 x mg/kg) and should be converted back with that assumption stated.",
    method_dependency_warning:
      "Olsen phosphorus is not Mehlich-3 or Bray-1 phosphorus (different extractants, different values and " +
      "interpretation thresholds). Mehlich-3 phosphorus is served as phosphorus_mehlich3.",
    status: "experimental",
  },
  // ---- not served yet ----------------------------------------------------------------------------------
  // Judgment on status: "planned" where a source already holds the quantity and only normalization is missing
  // (the other NH4OAc cations; SSURGO/KSSL texture class); "researching" where the choice of method or source is
  // itself open (micronutrients, selenium, arsenic).
  {
    id: "phosphorus",
    name: "Phosphorus (extractable)",
    description:
      "Plant-available (extractable) phosphorus as determined by a named soil-test extractant. Loam serves it " +
      "by method only, as phosphorus_mehlich3 and phosphorus_olsen (KSSL): one number without its extractant " +
      "cannot be interpreted.",
    standard_unit: "mg/kg",
    accepted_aliases: ["p", "phos", "soil_p", "extractable_phosphorus"],
    conversion_notes:
      "mg/kg = ppm by weight. P2O5 = P x 2.291. Agronomic lb/acre figures assume a furrow-slice mass (about " +
      "2,000,000 lb per acre, so lb/acre is about 2 x mg/kg) and should be converted back with that assumption stated.",
    method_dependency_warning:
      "Extractable phosphorus depends entirely on the extractant: Bray-1 (acid soils; it underestimates in " +
      "calcareous soils), Olsen (sodium bicarbonate at pH 8.5, for neutral and calcareous soils) and Mehlich-3 " +
      "(wide range; colorimetric and ICP determinations of the same extract differ) give different values and " +
      "have different interpretation thresholds. Water-extractable and total phosphorus are other quantities.",
    status: "planned",
  },
  {
    id: "magnesium",
    name: "Magnesium (exchangeable)",
    description: "Exchangeable magnesium (Mg2+), e.g. by 1 M NH4OAc at pH 7 (KSSL mg_nh4_ph_7).",
    standard_unit: "cmol(+)/kg",
    accepted_aliases: ["mg", "exchangeable_magnesium", "exch_mg"],
    conversion_notes: "cmol(+)/kg = meq/100 g. mg/kg = cmol(+)/kg x 121.5 for Mg2+.",
    method_dependency_warning:
      "NH4OAc at pH 7 and Mehlich-3 give different values; ammonium acetate partly dissolves dolomite and other " +
      "Mg carbonates, inflating the value in calcareous soils. Total magnesium is a different quantity.",
    status: "planned",
  },
  {
    id: "sodium",
    name: "Sodium (exchangeable)",
    description: "Exchangeable sodium (Na+), e.g. by 1 M NH4OAc at pH 7 (KSSL na_nh4_ph_7).",
    standard_unit: "cmol(+)/kg",
    accepted_aliases: ["na", "exchangeable_sodium", "exch_na"],
    conversion_notes:
      "cmol(+)/kg = meq/100 g. mg/kg = cmol(+)/kg x 229.9 for Na+. Exchangeable sodium percentage (ESP) = " +
      "exchangeable Na / CEC x 100.",
    method_dependency_warning:
      "Ammonium acetate also extracts soluble sodium salts, so exchangeable sodium in saline soils requires " +
      "subtracting water-soluble (saturated-paste) sodium; extractable and exchangeable sodium are not the same. " +
      "Sodium adsorption ratio (SAR, from the saturation extract) is a different measure from ESP.",
    status: "planned",
  },
  {
    id: "iron",
    name: "Iron (extractable micronutrient)",
    description: "Plant-available iron as determined by a named extractant (e.g. DTPA or Mehlich-3).",
    standard_unit: "mg/kg",
    accepted_aliases: ["fe", "extractable_iron"],
    conversion_notes: "mg/kg = ppm by weight; total contents are often given in % (1 % = 10,000 mg/kg).",
    method_dependency_warning:
      "DTPA (for near-neutral and calcareous soils) and Mehlich-3 extract different amounts and have different " +
      "sufficiency thresholds. Dithionite-citrate iron (pedogenic iron oxides) and ammonium-oxalate iron " +
      "(poorly crystalline forms), both common in KSSL data, are not nutrient measures, and total iron (acid " +
      "digestion, XRF) is orders of magnitude larger.",
    status: "researching",
  },
  {
    id: "manganese",
    name: "Manganese (extractable micronutrient)",
    description: "Plant-available manganese as determined by a named extractant (e.g. DTPA or Mehlich-3).",
    standard_unit: "mg/kg",
    accepted_aliases: ["mn", "extractable_manganese"],
    conversion_notes: "mg/kg = ppm by weight.",
    method_dependency_warning:
      "DTPA and Mehlich-3 give different values and thresholds. Extractable manganese changes with sample " +
      "drying and storage (air-drying usually raises it) and with redox conditions. Total manganese is a " +
      "different quantity.",
    status: "researching",
  },
  {
    id: "zinc",
    name: "Zinc (extractable micronutrient)",
    description: "Plant-available zinc as determined by a named extractant (e.g. DTPA or Mehlich-3).",
    standard_unit: "mg/kg",
    accepted_aliases: ["zn", "extractable_zinc"],
    conversion_notes: "mg/kg = ppm by weight.",
    method_dependency_warning:
      "DTPA, Mehlich-3 and 0.1 M HCl extract different amounts and have different sufficiency thresholds. " +
      "Total zinc (acid digestion, XRF), used for contamination assessment, is a different quantity.",
    status: "researching",
  },
  {
    id: "copper",
    name: "Copper (extractable micronutrient)",
    description: "Plant-available copper as determined by a named extractant (e.g. DTPA or Mehlich-3).",
    standard_unit: "mg/kg",
    accepted_aliases: ["cu", "extractable_copper"],
    conversion_notes: "mg/kg = ppm by weight.",
    method_dependency_warning:
      "DTPA and Mehlich-3 extract different amounts and have different sufficiency thresholds; copper bound " +
      "to organic matter is extracted unevenly. Total copper (acid digestion, XRF) is a different quantity.",
    status: "researching",
  },
  {
    id: "boron",
    name: "Boron (extractable micronutrient)",
    description: "Plant-available boron as determined by a named extraction (e.g. hot water or Mehlich-3).",
    standard_unit: "mg/kg",
    accepted_aliases: ["b", "extractable_boron"],
    conversion_notes: "mg/kg = ppm by weight.",
    method_dependency_warning:
      "Hot-water extraction (the reference), hot 0.01 M CaCl2, Mehlich-3 and saturation-extract boron give " +
      "different values, and colorimetric (azomethine-H) and ICP determinations differ. The range between " +
      "deficiency and toxicity is narrow, so the method matters. Total boron is a different quantity.",
    status: "researching",
  },
  {
    id: "selenium",
    name: "Selenium (total)",
    description: "Total selenium content of the fine-earth fraction.",
    standard_unit: "mg/kg",
    accepted_aliases: ["se", "total_selenium"],
    conversion_notes: "mg/kg = ppm by weight = ug/g.",
    method_dependency_warning:
      "Total selenium (acid digestion with hydride-generation AAS or ICP-MS) and extractable selenium (water, " +
      "phosphate or AB-DTPA extraction) measure different pools; availability also depends on speciation " +
      "(selenate vs selenite) and pH. Total and extractable values are not interchangeable. " +
      TOTAL_CONTENT_WARNING,
    // Served as USGS DS 801 totals since 0.4.0.
    status: "experimental",
  },
  {
    id: "arsenic",
    name: "Arsenic (total)",
    description: "Total arsenic content of the fine-earth fraction.",
    standard_unit: "mg/kg",
    accepted_aliases: ["as", "total_arsenic"],
    conversion_notes: "mg/kg = ppm by weight = ug/g.",
    method_dependency_warning:
      "Total arsenic (complete digestion including HF, or XRF), near-total arsenic (strong-acid digestions such " +
      "as US EPA 3050B or aqua regia, which leave silicates undissolved) and extractable or bioaccessible " +
      "arsenic (phosphate extraction, in-vitro tests) are different quantities; regulatory screening values " +
      "refer to specific methods. " +
      TOTAL_CONTENT_WARNING,
    // Served as USGS DS 801 totals since 0.4.0.
    status: "experimental",
  },
  {
    id: "texture_class",
    name: "Texture class",
    description:
      "Soil textural class of the fine-earth fraction (USDA classes such as loam, silty clay loam), as in SSURGO " +
      "chtexturegrp / chtexture, KSSL texture_lab). Categorical: no unit. Served in map-unit summaries only (SSURGO " +
      "chtexturegrp.texture of the representative texture group; per component the class covering the greatest " +
      "thickness of the interval).",
    standard_unit: null,
    accepted_aliases: ["texture", "texcl", "textural_class", "soil_texture"],
    conversion_notes:
      "Categorical, no unit conversion. A USDA class can be derived from sand, silt and clay with the USDA " +
      "texture triangle only when the fractions use USDA size limits (sand/silt at 0.05 mm).",
    method_dependency_warning:
      "Classes depend on the classification system (USDA vs FAO/WRB, international and national systems with " +
      "other size limits and class boundaries) and on how the fractions were obtained: field hand-texture " +
      "estimates are not laboratory particle-size analysis. SSURGO texture groups add modifiers (e.g. gravelly) " +
      "and terms used in lieu of texture (e.g. muck, bedrock).",
    status: "experimental",
  },

  // ---- 0.3.0: SSURGO properties of map-unit summaries (class properties appear in summaries only) -------
  {
    id: "available_water_capacity",
    name: "Available water capacity",
    description:
      "Water a horizon can hold between field capacity and the wilting point, per unit of soil depth (SSURGO " +
      "awc_r, a representative estimate for the component horizon).",
    standard_unit: "cm/cm",
    accepted_aliases: ["awc", "available_water", "awc_r"],
    conversion_notes: "cm/cm = in/in = m/m (a ratio; numerically equal). x 100 gives mm of water per 10 cm of soil.",
    method_dependency_warning:
      "SSURGO awc is an estimate for the horizon, usually from texture, organic matter and structure, and sometimes " +
      "from lab water retention at 1/3 (or 1/10) bar minus 15 bar; it is corrected for coarse fragments. It is not a " +
      "field measurement, and the upper limit (1/3 vs 1/10 bar) differs between sandy and other soils.",
    status: "experimental",
  },
  {
    id: "available_water_storage",
    name: "Available water storage",
    description:
      "Available water a soil holds over a depth interval: the sum of available water capacity x overlapping " +
      "horizon thickness (NRCS muaggatt aws0xxwta). Derived; served in map-unit summaries only.",
    standard_unit: "cm",
    accepted_aliases: ["aws"],
    conversion_notes: "cm of water; 1 cm = 10 mm = 0.3937 in. Depends on the depth interval asked for.",
    method_dependency_warning:
      "A derived sum, not a measurement: it inherits the estimation of awc_r, stops where the component's horizon " +
      "data stop (bedrock or the described depth), and is only comparable between intervals of the same depth.",
    status: "experimental",
  },
  {
    id: "ksat",
    name: "Saturated hydraulic conductivity",
    description:
      "Rate at which water moves through saturated soil under a unit hydraulic gradient (SSURGO ksat_r, " +
      "micrometers per second).",
    standard_unit: "µm/s",
    accepted_aliases: ["saturated_hydraulic_conductivity", "k_sat", "ksat_r"],
    conversion_notes: "µm/s x 0.36 = cm/h; µm/s x 0.1417 = in/h; µm/s x 8.64 = cm/day.",
    method_dependency_warning:
      "SSURGO ksat is estimated, mostly from texture, bulk density and structure classes, not measured. Measured " +
      "Ksat (constant-head or falling-head permeameter, double-ring infiltrometer, auger-hole) varies by an order of " +
      "magnitude within a field and between methods; values are log-normally distributed.",
    status: "experimental",
  },
  {
    id: "slope",
    name: "Slope gradient",
    description: "Slope gradient of the component, percent (SSURGO component slope_r; the map unit name gives its range).",
    standard_unit: "%",
    accepted_aliases: ["slope_gradient", "slopegrad", "slope_r"],
    conversion_notes: "Percent = rise / run x 100; degrees = atan(percent / 100) x 180 / pi (45 degrees = 100 %).",
    method_dependency_warning:
      "A component-level representative value for the map unit, not a slope measured at the point; it is not " +
      "derived from a digital elevation model, whose values depend on resolution.",
    status: "experimental",
  },
  {
    id: "drainage_class",
    name: "Drainage class",
    description:
      "Natural drainage class of the component (SSURGO drainagecl, e.g. Well drained, Poorly drained). " +
      "Categorical: served in map-unit summaries only (category).",
    standard_unit: null,
    accepted_aliases: ["drainagecl", "natural_drainage_class"],
    conversion_notes: "Categorical, no unit conversion. Seven USDA classes from Excessively drained to Very poorly drained.",
    method_dependency_warning:
      "A class judged from the wetness of the soil under natural conditions (redoximorphic features, landscape " +
      "position), not from artificial drainage; a tiled field keeps its natural class. Other national systems " +
      "define drainage classes differently.",
    status: "experimental",
  },
  {
    id: "hydrologic_group",
    name: "Hydrologic soil group",
    description:
      "Hydrologic soil group of the component (SSURGO hydgrp: A, B, C, D, or dual A/D, B/D, C/D for undrained " +
      "conditions). Categorical: served in map-unit summaries only (category).",
    standard_unit: null,
    accepted_aliases: ["hydgrp", "hydrologic_soil_group", "hsg"],
    conversion_notes: "Categorical, no unit conversion. A dual group (B/D) is the drained / undrained pair.",
    method_dependency_warning:
      "Assigned from the depth to a water-impermeable layer, the depth to a high water table and the saturated " +
      "hydraulic conductivity (NRCS National Engineering Handbook, part 630, chapter 7); the assignment rules " +
      "changed in 2009, so older surveys may differ. It is a runoff-potential class, not a measurement.",
    status: "experimental",
  },
  {
    id: "taxonomic_class",
    name: "Taxonomic class",
    description:
      "Soil Taxonomy family name of the component (SSURGO taxclname, e.g. Fine-loamy, mixed, superactive, mesic " +
      "Typic Hapludolls). Categorical: served in map-unit summaries only (category).",
    standard_unit: null,
    accepted_aliases: ["taxclname", "taxonomic_classification", "soil_taxonomy_class"],
    conversion_notes: "Categorical, no unit conversion. There is no one-to-one conversion to WRB reference soil groups.",
    method_dependency_warning:
      "USDA Soil Taxonomy (the edition used by the survey); classes change between editions, miscellaneous areas " +
      "(Urban land, Water) have none, and a correlated map-unit component is not a classified pedon at the point.",
    status: "experimental",
  },
  // ---- modeled quantities with no laboratory counterpart in the vocabulary (SoilGrids) ----
  {
    id: "coarse_fragments_volume",
    name: "Coarse fragments, volume",
    description: "Volume of coarse fragments (> 2 mm) as a percentage of the whole soil volume.",
    standard_unit: "% (by volume)",
    accepted_aliases: ["cfvo", "coarse_fragments", "rock_fragments_volume"],
    conversion_notes: "cm3/100 cm3 = volume %. SoilGrids cfvo is in cm3/dm3 (divide by 10).",
    method_dependency_warning:
      "Coarse-fragment volume is estimated in the field or from weights and densities, and differs with the size limit and the method; a modeled value is a prediction, not a laboratory or field result, and is not a weight percentage.",
    status: "experimental",
  },
  {
    id: "organic_carbon_density",
    name: "Organic carbon density",
    description: "Mass of organic carbon per volume of soil (organic carbon content x bulk density x (1 - coarse fragments)).",
    standard_unit: "kg/m3",
    accepted_aliases: ["ocd"],
    conversion_notes: "kg/m3 = g/dm3. SoilGrids ocd is in dg/dm3 (divide by 10).",
    method_dependency_warning:
      "Computed from organic carbon, bulk density and coarse fragments, each with its own method; a modeled value is a prediction, not a laboratory result.",
    status: "experimental",
  },
  {
    id: "organic_carbon_stock",
    name: "Organic carbon stock",
    description: "Mass of organic carbon per area over a depth interval (SoilGrids: 0-30 cm).",
    standard_unit: "kg/m2",
    accepted_aliases: ["ocs", "soc_stock", "carbon_stock"],
    conversion_notes: "kg/m2 = 10 t/ha. SoilGrids ocs is in t/ha (divide by 10 for kg/m2).",
    method_dependency_warning:
      "A stock sums density over a depth interval and depends on the bulk density and coarse fragments assumed; a modeled value is a prediction, not a laboratory result, and is valid for its own interval only.",
    status: "experimental",
  },
  // ---- sensor time series (the site_series shape) ----
  {
    id: "soil_moisture",
    name: "Soil moisture (volumetric water content)",
    description:
      "Volumetric soil water content measured by an in-situ sensor at a depth: the volume of water per volume of soil, " +
      "as a percentage. A time series at a station (GET /v1/stations/{station_triplet}/series).",
    standard_unit: "% vol",
    accepted_aliases: ["volumetric_water_content", "vwc", "sms", "soil_water_content"],
    conversion_notes: "% vol = m3/m3 x 100 (ISMN distributes m3/m3; AWDB stores percent). Recorded as a transformation where converted.",
    method_dependency_warning:
      "Dielectric sensors (e.g. Hydra Probe) infer water content from the soil's permittivity through a calibration; in soils " +
      "unlike the calibration (clays, organic or saline soils) values may be biased. Not comparable with gravimetric water content without the bulk density.",
    status: "experimental",
  },
  {
    id: "soil_temperature",
    name: "Soil temperature",
    description: "Soil temperature measured by an in-situ sensor at a depth. A time series at a station (GET /v1/stations/{station_triplet}/series).",
    standard_unit: "°C",
    accepted_aliases: ["sto", "soil_temp"],
    conversion_notes: "°C = (°F - 32) x 5 / 9 (AWDB stores °F). Recorded as a transformation where converted.",
    method_dependency_warning: "An hourly reading at one depth; daily values are means of the hours reported, not a daily minimum or maximum sensor.",
    status: "experimental",
  },
  // ---- total element contents (USGS DS 801) ----
  ...ELEMENT_TOTAL_PROPERTIES,
];

const BY_ID = new Map<string, PropertyRecord>(PROPERTIES.map((p) => [p.id, p]));

/** Lower-case canonical ids and aliases → canonical id. */
const RESOLVE = new Map<string, string>();
for (const p of PROPERTIES) {
  RESOLVE.set(p.id.toLowerCase(), p.id);
  for (const alias of p.accepted_aliases) RESOLVE.set(alias.toLowerCase(), p.id);
}

/** Canonical id for a canonical id or alias (case-insensitive, trimmed); undefined when unknown. */
export function resolvePropertyId(idOrAlias: string): string | undefined {
  return RESOLVE.get(idOrAlias.trim().toLowerCase());
}

/** The record of a canonical property id (exact match; resolve aliases first). */
export function findProperty(id: string): PropertyRecord | undefined {
  return BY_ID.get(id);
}

/** Properties Loam serves today (status experimental or supported), in vocabulary order. */
export const SERVED_PROPERTY_IDS: readonly string[] = PROPERTIES.filter(
  (p) => p.status === "experimental" || p.status === "supported",
).map((p) => p.id);
