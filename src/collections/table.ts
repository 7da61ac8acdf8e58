/** The OGC collections Loam serves, in the order /ogc/collections lists them: one line each (entries.ts). */
import type { CollectionEntry } from "./entries";
import { geochemSitesCollection } from "./geochem-entry";
import { mapUnitsCollection } from "./mapunits-entry";
import { pedonsCollection } from "./pedons-entry";
import { stationsCollection } from "./stations-entry";

export const COLLECTIONS: readonly CollectionEntry[] = [mapUnitsCollection, pedonsCollection, geochemSitesCollection, stationsCollection];
