/**
 * A client as a TypeScript user would write one: types generated from Loam's served document by
 * openapi-typescript (schema.d.ts, made by the test), calls through openapi-fetch. Type-checked with
 * tsc --strict before it runs, so a response field the document names wrongly fails here. Prints
 * what it read as JSON; the test compares it with the data README.
 */
import createClient from "openapi-fetch";
import type { components, operations, paths } from "./schema";

type SoilObservation = components["schemas"]["SoilObservation"];
type LabLayer = components["schemas"]["LabLayer"];
type ErrorResponse = components["schemas"]["ErrorResponse"];
type PropertySummary = components["schemas"]["PropertySummary"];
type LayerTableRow = components["schemas"]["LayerTableRow"];
// Operation ids are the generator's names for the calls (operations["getPedon"] exists only with short ids).
type PedonOk = operations["getPedon"]["responses"][200]["content"]["application/json"];

const baseUrl = process.env.LOAM_BASE;
if (!baseUrl) throw new Error("LOAM_BASE is not set");
// As the openapi-fetch README writes a client: no media type named, no type guard. The data routes document
// JSON as their 200's one media type and describe format=csv there, so a table is read with parseAs "text"
// (typed string) from the same client (docs/clients.md).
const client = createClient<paths>({ baseUrl });

const [latitude, longitude] = [Number(process.env.POINT_LAT), Number(process.env.POINT_LON)];
const location = await client.GET("/v1/soil/location", { params: { query: { latitude, longitude, properties: "ph,organic_matter,clay" } } });
if (!location.data) throw new Error(`location failed: ${JSON.stringify(location.error)}`);
// The point query's observations are the spec's SoilObservation: survey_context is there, no type guard.
const mapUnitKey: string = location.data.observations[0]!.survey_context.map_unit_key;
const clayRows: SoilObservation[] = location.data.observations.filter((o) => o.property.id === "clay");
const clay = clayRows.map((o) => ({ component: o.survey_context.component_name, horizon: o.survey_context.horizon_name, value: o.value, unit: o.unit, provider: o.source.provider }));

const pedons = await client.GET("/v1/pedons", { params: { query: { bbox: "-96.5,38.5,-95,39.5", limit: 50 } } });
if (!pedons.data) throw new Error(`pedons failed: ${JSON.stringify(pedons.error)}`);
const keys: string[] = pedons.data.features.map((f) => f.properties.pedon_key);
const firstCoordinates: number[] | undefined = pedons.data.features[0]?.geometry.coordinates;

const pedon = await client.GET("/v1/pedons/{pedon_key}", { params: { path: { pedon_key: "02N0245" }, query: { properties: "ph,clay,cec" } } });
if (!pedon.data) throw new Error(`pedon failed: ${JSON.stringify(pedon.error)}`);
const detail: PedonOk = pedon.data;
const layers: LabLayer[] = detail.layers;
const top = layers[0]!;
const topClay = top.observations.find((o) => o.property.id === "clay");

const summary = await client.GET("/v1/soil/summary", {
  params: { query: { latitude, longitude, properties: "clay,available_water_storage,drainage_class", depth_bottom_cm: 100 } },
});
if (!summary.data) throw new Error(`summary failed: ${JSON.stringify(summary.error)}`);
const summaries: PropertySummary[] = summary.data.summaries;
const byId = (id: string) => summaries.find((s) => s.property.id === id);
const mapUnit = summary.data.map_unit;

// The bulk layer table: typed rows (a derived row says so), and the same query as CSV from the same client.
const layerQuery = { bbox: "-96,38.5,-95,39.5", properties: "organic_matter,clay", limit: 100 };
const layerTable = await client.GET("/v1/pedons/layers", { params: { query: layerQuery } });
if (!layerTable.data) throw new Error(`layers failed: ${JSON.stringify(layerTable.error)}`);
const derivedRows: LayerTableRow[] = layerTable.data.rows.filter((r) => r.data_kind === "derived");
const derivedOperations: string[] = [...new Set(derivedRows.flatMap((r) => r.transformations.map((t) => t.operation)))];
const layerCsv = await client.GET("/v1/pedons/layers", { params: { query: { ...layerQuery, format: "csv" } }, parseAs: "text" });
const csvText: string | undefined = layerCsv.data;

// The modeled route's observations carry their grid cell (grid_context), typed as such.
const modeled = await client.GET("/v1/soil/modeled", { params: { query: { latitude: Number(process.env.GRID_LAT), longitude: Number(process.env.GRID_LON), properties: "clay" } } });
if (!modeled.data) throw new Error(`modeled failed: ${JSON.stringify(modeled.error)}`);
const resolution: number | undefined = modeled.data.observations[0]?.grid_context.resolution_m;

// Paging: the `next` link is a path; its `cursor` parameter is the token, and the whole link is accepted too.
const firstPage = await client.GET("/v1/geochem/sites", { params: { query: { bbox: "-96.7,40.3,-90.1,43.6", limit: 50 } } });
if (!firstPage.data) throw new Error(`sites failed: ${JSON.stringify(firstPage.error)}`);
const next: string | null = firstPage.data.next;
const token = next === null ? "" : (new URL(next, baseUrl).searchParams.get("cursor") ?? "");
const byToken = await client.GET("/v1/geochem/sites", { params: { query: { bbox: "-96.7,40.3,-90.1,43.6", limit: 50, cursor: token } } });
const byLink = await client.GET("/v1/geochem/sites", { params: { query: { bbox: "-96.7,40.3,-90.1,43.6", limit: 50, cursor: next ?? "" } } });
const pageIds = (page: typeof byToken) => page.data?.features.map((f) => f.properties.site_id) ?? [];

const missing = await client.GET("/v1/pedons/{pedon_key}", { params: { path: { pedon_key: "99Z9999" } } });
const notFound: ErrorResponse | undefined = missing.error;
const invalid = await client.GET("/v1/soil/location", { params: { query: { latitude: 95, longitude: 0 } } });
const invalidError: ErrorResponse | undefined = invalid.error;

console.log(
  JSON.stringify({
    clay,
    mapUnitKey,
    resolution: resolution ?? null,
    paging: { first: firstPage.data.features.map((f) => f.properties.site_id), byToken: pageIds(byToken), byLink: pageIds(byLink), next },
    pedons: { count: keys.length, truncated: pedons.data.truncated, keys, firstCoordinates },
    summary: {
      mapUnitKey: mapUnit?.map_unit_key ?? null,
      componentCount: mapUnit?.components.length ?? 0,
      aws: byId("available_water_storage")?.value ?? null,
      awsUnit: byId("available_water_storage")?.unit ?? null,
      drainage: byId("drainage_class")?.category ?? null,
      clayMethod: byId("clay")?.method ?? null,
      clayContributors: byId("clay")?.contributions.map((c) => c.component_name) ?? [],
    },
    layers: {
      rows: layerTable.data.rows.length,
      kind: layerTable.data.data_kind,
      derived: derivedRows.length,
      derivedOperations,
      csvType: layerCsv.response.headers.get("content-type"),
      csvLines: csvText === undefined ? null : csvText.split("\r\n").filter((l) => l !== "").length,
    },
    pedon: { key: detail.pedon_key, layerCount: layers.length, topHorizon: top.horizon_designation, topClay: topClay?.value ?? null, topClayReported: topClay?.reported_value ?? null },
    notFound: { status: missing.response.status, code: notFound?.error.code ?? null, requestIdHeader: missing.response.headers.get("x-request-id"), requestId: notFound?.error.request_id ?? null },
    invalid: { status: invalid.response.status, code: invalidError?.error.code ?? null, message: invalidError?.error.message ?? null },
  }),
);
