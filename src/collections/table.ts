/** The OGC collections Loam serves, in the order /ogc/collections lists them: one line each (entries.ts). */
import type { CollectionEntry } from "./entries";
import { mapUnitsCollection } from "./mapunits-entry";
import { pedonsCollection } from "./pedons-entry";

export const COLLECTIONS: readonly CollectionEntry[] = [mapUnitsCollection, pedonsCollection];
