/** Minimal types for mbostock's `shapefile` (0.6): the streaming reader the importer uses. */
declare module "shapefile" {
  interface Feature {
    type: "Feature";
    properties: Record<string, unknown> | null;
    geometry: { type: string; coordinates: unknown } | null;
  }
  interface Source<T> {
    bbox: [number, number, number, number];
    read(): Promise<{ done: true; value: undefined } | { done: false; value: T }>;
    cancel(): Promise<void>;
  }
  export function open(shp: string | ArrayBuffer | Uint8Array, dbf?: string | ArrayBuffer | Uint8Array | null, options?: { encoding?: string; highWaterMark?: number }): Promise<Source<Feature>>;
}
