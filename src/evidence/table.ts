/**
 * GET /v1/soil/evidence as CSV: one row per source, property and depth (each comparison cell), the
 * columns derived from the cell's model (src/tables/derive.ts) after the property and depth; the
 * source's provenance (retrieved_at) on each row, the answer's citations and warnings once, on the
 * first row (docs/decisions.md#csv-warning-codes).
 */
import type { CsvTable } from "../http/response";
import { toCsv, type Column } from "../tables/csv";
import { CACHE_WHY, deriveColumns, ENVELOPE_OMITTED, type TableSpec } from "../tables/derive";
import { joinTransformations, onFirstRow, rowWarnings, WARNING_SEPARATOR } from "../tables/flatten";
import { ComparisonCell, type EvidenceResponse } from "./model";

type Cell = EvidenceResponse["comparison"][number]["depths"][number]["cells"][number];
type Row = { body: EvidenceResponse; property: { id: string; name: string }; top: number; bottom: number; cell: Cell; statements: readonly string[]; index: number };

/** Every citation the answer's sources give, once. */
const citationsOf = (body: EvidenceResponse) => [...new Set(Object.values(body.sources).flatMap((s) => s.provenance.citations))];

export const EVIDENCE_SPEC: TableSpec<Row> = {
  parts: [
    {
      model: ComparisonCell,
      at: "comparison[].depths[].cells[]",
      of: (row) => row.cell,
      cells: {
        transformations: ({ cell }) => joinTransformations(cell.transformations),
        warnings: ({ cell, body }) => rowWarnings(cell.warnings, body.warnings),
      },
    },
  ],
  extra: [
    ["property_id", (row) => row.property.id, "the compared property's id", "comparison[].property.id"],
    ["property_name", (row) => row.property.name, "the compared property's name", "comparison[].property.name"],
    ["depth_top_cm", (row) => row.top, "the compared depth's top", "comparison[].depths[].top_cm"],
    ["depth_bottom_cm", (row) => row.bottom, "the compared depth's bottom", "comparison[].depths[].bottom_cm"],
    ["statements", (row) => row.statements.join(WARNING_SEPARATOR), "where a value lies outside the model's interval, on each row of the depth", "comparison[].depths[].statements"],
    ["retrieved_at", (row) => row.body.sources[row.cell.provider]?.provenance.retrieved_at ?? null, "when the cell's source read its data", "sources"],
    ["citations", (row) => (row.index === 0 ? citationsOf(row.body).join(WARNING_SEPARATOR) : ""), "every source's citation, once, on the first row", "sources"],
    ["answer_warnings", (row) => onFirstRow(row.index, row.body.warnings), "the answer's warnings, once, on the first row (docs/decisions.md#csv-warning-codes)", "warnings"],
  ],
  bodyOmit: { ...ENVELOPE_OMITTED, query: "what was asked: the request says it", cache: CACHE_WHY },
  order: ["property_id", "property_name", "depth_top_cm", "depth_bottom_cm", "provider", "role", "data_kind", "value", "unit", "lower", "upper", "distance_km", "describes"],
};

export const EVIDENCE_COLUMNS: readonly Column<Row>[] = deriveColumns(EVIDENCE_SPEC);

function rows(body: EvidenceResponse): Row[] {
  const out: Row[] = [];
  for (const { property, depths } of body.comparison) {
    for (const depth of depths) for (const cell of depth.cells) out.push({ body, property, top: depth.top_cm, bottom: depth.bottom_cm, cell, statements: depth.statements, index: out.length });
  }
  return out;
}

export const EVIDENCE_TABLE: CsvTable<EvidenceResponse> = {
  render: (body) => toCsv(EVIDENCE_COLUMNS, rows(body)),
  fileName: (body) => `loam-soil-evidence_${body.query.latitude}_${body.query.longitude}.csv`,
};
