/**
 * The flat fields of a collection's items, derived from the TypeBox model of the same features on
 * `/v1` (docs/decisions.md#ogc-api-features): what the collection document lists and what
 * `/queryables` describes, never restated by hand. A nested object (a sample's depth) becomes one
 * field per member (`depth_top_cm`); optional members (those a query parameter adds) and the names
 * given in `omit` are not fields.
 */
import { OptionalKind, type TObject, type TSchema } from "@sinclair/typebox";

export type FieldType = "string" | "number" | "integer" | "boolean";

export interface FlatField {
  type: FieldType;
  /** Whether the field may be null (a nullable member of the model). */
  nullable: boolean;
  description?: string;
  format?: string;
}

type Schema = TSchema & { type?: string; anyOf?: Schema[]; properties?: Record<string, Schema>; description?: string; format?: string; const?: unknown };

function scalar(schema: Schema, name: string): FlatField {
  if (schema.anyOf) {
    const kept = schema.anyOf.filter((s) => s.type !== "null");
    if (kept.length !== 1) throw new Error(`Field '${name}' is a union the flat fields cannot name.`);
    return { ...scalar(kept[0]!, name), nullable: true, ...(schema.description ? { description: schema.description } : {}) };
  }
  const type = schema.type;
  if (type !== "string" && type !== "number" && type !== "integer" && type !== "boolean") throw new Error(`Field '${name}' is not a string, number, integer or boolean.`);
  return { type, nullable: false, ...(schema.description ? { description: schema.description } : {}), ...(schema.format ? { format: schema.format } : {}) };
}

/** The flat fields of `model`, in its order, objects flattened into `<name>_<member>`. */
export function flatFields(model: TObject, omit: readonly string[] = [], extra: Record<string, FlatField> = {}): Readonly<Record<string, FlatField>> {
  const fields: Record<string, FlatField> = {};
  const walk = (properties: Record<string, Schema>, prefix: string) => {
    for (const [name, schema] of Object.entries(properties)) {
      if (omit.includes(prefix + name) || (schema as unknown as Record<symbol, unknown>)[OptionalKind] === "Optional") continue;
      if (schema.type === "object" && schema.properties) walk(schema.properties, `${prefix}${name}_`);
      else fields[prefix + name] = scalar(schema, prefix + name);
    }
  };
  walk(model.properties as Record<string, Schema>, "");
  return { ...fields, ...extra };
}
