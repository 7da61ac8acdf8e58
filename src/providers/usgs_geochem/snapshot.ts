/**
 * The DS 801 table as the snapshot holds it (`geochem_column`, `geochem_site`, written by
 * src/snapshot/geochem-import.ts). Read once per opened snapshot: the column and unit rows, and the
 * site coordinates for the nearest-site query. Site ids and box corners reach SQL only as bound numbers.
 */
import type { Database } from "bun:sqlite";
import { UpstreamError } from "../../errors";
import { tableExists } from "../../snapshot/schema";
import type { SiteBoxParams, SiteNearParams, SiteParams } from "../provider";
import type { Payload } from "../../upstream/transport";
import { GEOCHEM_PROVIDER_ID, nearestOf, slicePayload, wantedPositions } from "./rows";

export interface SnapshotGeochem {
  inBox(params: SiteBoxParams): Payload;
  nearest(params: SiteNearParams): Payload;
  site(params: SiteParams): Payload;
}

const readers = new WeakMap<Database, SnapshotGeochem>();

export function snapshotGeochem(db: Database): SnapshotGeochem {
  const kept = readers.get(db);
  if (kept) return kept;
  if (!tableExists(db, "geochem_site")) {
    throw new UpstreamError("The offline snapshot holds no geochemistry sites (it was built without geochem/ or before usgs_geochem): rebuild it with 'bun run snapshot:build'.", GEOCHEM_PROVIDER_ID);
  }
  const header = db.query<{ name: string; unit: string }, []>("SELECT name, unit FROM geochem_column ORDER BY position").all();
  const table = { columns: header.map((c) => c.name), units: header.map((c) => c.unit) };
  const info = db.query<{ value: string }, []>("SELECT value FROM snapshot_info WHERE key = 'geochem'").get();
  const file = { retrievedAt: info ? (JSON.parse(info.value) as { imported_at: string }).imported_at : new Date(0).toISOString(), note: null };
  const coordinates = db.query<{ id: number; lat: number; lon: number }, []>("SELECT site_id AS id, latitude AS lat, longitude AS lon FROM geochem_site ORDER BY site_id").all();
  const page = db.query<{ cells: string }, [number, number, number, number, number, number]>(
    "SELECT cells FROM geochem_site WHERE site_id > ? AND longitude BETWEEN ? AND ? AND latitude BETWEEN ? AND ? ORDER BY site_id LIMIT ?",
  );
  const one = db.query<{ cells: string }, [number]>("SELECT cells FROM geochem_site WHERE site_id = ?");
  const parse = (rows: { cells: string }[]) => rows.map((r) => JSON.parse(r.cells) as string[]);
  const reader: SnapshotGeochem = {
    inBox({ bbox: [minLon, minLat, maxLon, maxLat], after, limit, property }) {
      const rows = parse(page.all(after ?? 0, minLon, maxLon, minLat, maxLat, limit + 1));
      return slicePayload(table, wantedPositions(table.columns, { property }), rows, file);
    },
    nearest({ latitude, longitude, limit, property }) {
      const near = nearestOf(coordinates, latitude, longitude, limit);
      const rows = parse(near.map((n) => one.get(n.id)!));
      return slicePayload(table, wantedPositions(table.columns, { property }), rows, file, near.map((n) => n.km));
    },
    site({ siteId }) {
      const row = one.get(siteId);
      return slicePayload(table, wantedPositions(table.columns, "all"), row ? parse([row]) : [], file);
    },
  };
  readers.set(db, reader);
  return reader;
}
