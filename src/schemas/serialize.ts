/**
 * The answers of /api/v1/schemas, shared with the MCP tools that stand for those routes (list_schemas, get_schema):
 * their shapes and the builders typed by them.
 */
import * as v from "valibot";
import {
  configJsonSchema,
  SCHEMA_DESCRIPTIONS,
  SCHEMA_NAMES,
  SCHEMA_VERSION,
  type SchemaName,
} from "./json-schemas.ts";

/** The name of a config schema, as a path names it. */
export const SchemaNameParam = v.picklist(SCHEMA_NAMES, "name must be image or video");

export const SchemaList = v.object({
  schemas: v.array(
    v.object({
      name: v.picklist(SCHEMA_NAMES),
      description: v.string(),
      usage: v.string(),
      url: v.pipe(v.string(), v.description("Where the schema is served")),
    }),
  ),
});
export type SchemaList = v.InferOutput<typeof SchemaList>;

export const ConfigSchema = v.object({
  schema: v.pipe(
    v.record(v.string(), v.unknown()),
    v.description("The JSON Schema (draft-07) of the config"),
  ),
  description: v.string(),
  version: v.pipe(v.string(), v.description("The grammar's version")),
});
export type ConfigSchema = v.InferOutput<typeof ConfigSchema>;

/** The list, with each schema's URL under `base` (the list's own URL). */
export const schemaList = (base: string): SchemaList => ({
  schemas: SCHEMA_NAMES.map((name) => ({ name, ...SCHEMA_DESCRIPTIONS[name], url: `${base}/${name}` })),
});

export const configSchema = (name: SchemaName): ConfigSchema => ({
  schema: configJsonSchema(name) as Record<string, unknown>,
  description: SCHEMA_DESCRIPTIONS[name].description,
  version: SCHEMA_VERSION,
});
