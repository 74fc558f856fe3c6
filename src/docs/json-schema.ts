/**
 * valibot to JSON Schema for the API's descriptions (the OpenAPI document, the MCP tools): the input side of a
 * schema for what a client sends (strings before a query's transforms; refinements JSON Schema cannot state, such
 * as `v.check`, left out), the output side for what the API answers, which must convert whole.
 */
import { toJsonSchema, toJsonSchemaDefs, type JsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";

export type { JsonSchema };

export interface Conversion {
  mode: "input" | "output";
  target: "draft-07" | "draft-2020-12";
  /** Named schemas referred to by `#/components/schemas/<name>` instead of repeated (the OpenAPI document). */
  components?: Record<string, v.GenericSchema>;
}

const refTo = ({ referenceId }: { referenceId: string }) => `#/components/schemas/${referenceId}`;

const config = ({ mode, target, components }: Conversion) => ({
  target,
  typeMode: mode,
  errorMode: mode === "input" ? ("ignore" as const) : ("throw" as const),
  ...(components ? { definitions: components, overrideRef: refTo } : {}),
});

/**
 * The JSON Schema of `schema`, to embed in a document that states the dialect itself (no `$schema`); named
 * components are references to them, never `$defs`.
 */
export const jsonSchemaOf = (schema: v.GenericSchema, conversion: Conversion): JsonSchema => {
  const {
    $defs: _defs,
    $schema: _schema,
    ...json
  } = toJsonSchema(schema, config(conversion)) as JsonSchema & { $defs?: unknown };
  return json;
};

/** The JSON Schemas of the named components themselves, referring to each other by name. */
export const componentSchemas = (
  components: Record<string, v.GenericSchema>,
  conversion: Omit<Conversion, "components">,
): Record<string, JsonSchema> => {
  const { definitions: _, ...rest } = config({ ...conversion, components });
  return Object.fromEntries(
    Object.entries(toJsonSchemaDefs(components, rest)).map(([name, { $schema: _s, ...json }]) => [
      name,
      json,
    ]),
  );
};
