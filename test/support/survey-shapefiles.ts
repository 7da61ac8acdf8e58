/** Each real survey area of datasets/ssurgo with its map-unit shapefile (path under datasets/ssurgo, no extension), for tests that read the shapefiles themselves. */
export const SURVEY_SHAPEFILES = [
  ["MH936", "MH936/spatial/soilmu_a_mh936"],
  ["IA073", "IA073-aoi/spatial/soilmu_a_aoi"],
  ["IA015", "IA015-aoi/spatial/soilmu_a_aoi"],
  ["IA183", "IA183-aoi/spatial/soilmu_a_aoi"],
] as const;
