/**
 * GET /v1/layers: what a map can draw from this instance, one entry per operational provider whose role
 * has a map layer, derived from the registry (docs/decisions.md#map-layers). The map page builds its
 * layer list, its legend and its coverage list from this document, so a new provider of a known role
 * appears on the map with no change to the page, and a new layer kind is one entry of LAYER_KINDS here
 * and one module of the page.
 */
import type { Registry } from "../providers/registry";
import { collectionIdOf, providerQuery } from "../answer/providers";
import type { OperationalProvider, Provider } from "../providers/provider";
import type { CoverageSource } from "../domain/coverage";
import type { LayerEntry, LayerKind } from "./model";

/** What a role draws as, and where its data is read. Roles absent here (series, planned) draw nothing. */
interface KindDeclaration {
  kind: LayerKind;
  label: string;
  geometry: "polygon" | "point" | "raster";
  /** The endpoint the layer reads for a view, and the one detail a click opens. */
  endpoint: string;
  detail: string | null;
  /** The id of the OGC collection of the role's default provider, whose extent is computed from the data (another provider's is its id); null: none. */
  collection: string | null;
}

/**
 * Role -> layer. `point_values` (a modeled raster such as SoilGrids) and `site_series` (sensor stations
 * such as SCAN) are roles still to come: their entries are here so that the provider that declares the
 * role is drawn without touching this file; until one is registered, no entry of those kinds is listed.
 */
export const LAYER_KINDS: Readonly<Record<string, KindDeclaration>> = {
  mapped_location: { kind: "survey_polygons", label: "Soil survey map units", geometry: "polygon", endpoint: "/v1/soil/mapunits", detail: "/v1/soil/mapunits/{map_unit_key}", collection: "mapunits" },
  lab_pedons: { kind: "pedons", label: "Laboratory pedons", geometry: "point", endpoint: "/v1/pedons", detail: "/v1/pedons/{pedon_key}", collection: "pedons" },
  sample_sites: { kind: "sites", label: "Geochemistry sample sites", geometry: "point", endpoint: "/v1/geochem/sites", detail: "/v1/geochem/sites/{site_id}", collection: "geochem_sites" },
  point_values: { kind: "grid", label: "Modeled soil grid", geometry: "raster", endpoint: "/v1/soil/modeled/grid", detail: "/v1/soil/modeled", collection: null },
  site_series: { kind: "stations", label: "Sensor stations", geometry: "point", endpoint: "/v1/stations", detail: "/v1/stations/{station_triplet}", collection: "stations" },
};

type Box = [number, number, number, number];

/**
 * The places of the snapshot that are a provider's: the datasets of the kind it declares (`placeDatasets`),
 * each named by its importer's id and label, with the box the importer states (docs/decisions.md#map-layers).
 */
function placesOf(provider: OperationalProvider, source: CoverageSource): { id: string; label: string; bbox: Box | null }[] {
  if (source.kind !== "snapshot" || provider.placeDatasets === undefined) return [];
  return (source.datasets ?? [])
    .filter((d) => d.kind === provider.placeDatasets)
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((d) => ({ id: d.id, label: d.label, bbox: d.bbox === null ? null : ([...d.bbox] as Box) }));
}

/**
 * A provider's coverage statement as this instance serves it (GET /v1/providers, GET /v1/layers): its
 * record's statement, and with the offline snapshot what the snapshot holds of it, from the datasets its
 * importers listed (docs/decisions.md#import), so the coverage follows what was imported.
 */
export function servedCoverage(provider: Provider, source: CoverageSource): string {
  const { coverage } = provider.record;
  if (source.kind !== "snapshot" || provider.role === "planned") return coverage;
  const kinds = new Set([provider.id, provider.placeDatasets]);
  const held = (source.datasets ?? []).filter((d) => kinds.has(d.kind)).map((d) => d.label);
  return `${coverage} This instance serves an offline snapshot holding ${held.length > 0 ? held.join("; ") : "none of its data"}.`;
}

function union(boxes: Box[]): Box | null {
  if (boxes.length === 0) return null;
  return boxes.reduce((a, b) => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])]);
}

/** The provider's own OGC collection (a mapped provider has one only with polygons), as a path; null: none. */
function collectionOf(registry: Registry, provider: OperationalProvider, roleId: string | null): string | null {
  if (roleId === null || (provider.role === "mapped_location" && provider.mapUnitPolygons === undefined)) return null;
  return `/ogc/collections/${collectionIdOf(registry, provider, roleId)}`;
}

export function layerEntries(registry: Registry, source: CoverageSource): LayerEntry[] {
  const entries: LayerEntry[] = [];
  for (const provider of registry.operational) {
    const declared = LAYER_KINDS[provider.role];
    if (!declared) continue;
    const places = placesOf(provider, source);
    entries.push({
      id: provider.id,
      kind: declared.kind,
      label: declared.label,
      title: provider.record.name,
      organization: provider.record.organization,
      data_kind: provider.record.data_kind,
      geometry: declared.geometry,
      // A provider other than its role's default is asked by name, so the layer reads its own data (docs/decisions.md#provider-links).
      endpoint: `${declared.endpoint}${providerQuery(registry, provider)}`,
      detail_endpoint: declared.detail === null ? null : `${declared.detail}${providerQuery(registry, provider)}`,
      properties: [...(provider.record.supported_properties ?? [])],
      coverage: {
        description: servedCoverage(provider, source),
        source: source.kind,
        places,
        extent: union(places.flatMap((p) => (p.bbox ? [p.bbox] : []))),
        extent_url: collectionOf(registry, provider, declared.collection),
      },
    });
  }
  return entries;
}
