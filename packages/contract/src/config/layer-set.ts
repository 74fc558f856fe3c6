/**
 * Turns a table of layer types into the schemas a job grammar needs: the layer union discriminated by
 * `type` (with the per-layer cross-field rules), and the `defaults.layer` / `defaults.layerType` objects
 * derived from the same entries, so a new property is declared once.
 */
import * as v from "valibot";
import { strict } from "./common.ts";
import { layerIssues, report } from "./rules.ts";

const typeName = (input: unknown): string =>
  input === null ? "null" : Array.isArray(input) ? "array" : typeof input;

/**
 * The cross-field rules of `layerIssues` as far as JSON Schema draft-07 can state them; served in the
 * JSON Schema only (valibot runs the real rules).
 */
const JSON_LAYER_RULES = {
  allOf: [
    { not: { required: ["fontPath", "googleFont"] } },
    { not: { required: ["fontPath", "catalogFont"] } },
    { not: { required: ["googleFont", "catalogFont"] } },
    {
      if: { properties: { type: { const: "html" } }, required: ["type"] },
      then: { oneOf: [{ required: ["html"] }, { required: ["src"] }] },
    },
  ],
};

/**
 * A layer: one of `options`, chosen by `type`. `forbidden` names types that exist elsewhere but not
 * here, with the reason (e.g. audio layers in `globalLayers`).
 */
/** editly layer types that are JavaScript functions (canvas, fabric.js): why a JSON job cannot have them. */
const EDITLY_JS_LAYERS: Record<string, string> = Object.fromEntries(
  ["canvas", "fabric"].map((t) => [
    t,
    `layer type "${t}" runs an editly JavaScript function (func), which a JSON job cannot carry: draw it with an html layer (HTML, CSS and JavaScript in a sandboxed page) or a gl layer (a fragment shader)`,
  ]),
);

export const layerVariant = <const T extends v.VariantOptions<"type">>(
  where: string,
  options: T,
  forbidden: Record<string, string> = {},
) => {
  const names = options
    .map(
      (o) =>
        `"${String(((o as v.StrictObjectSchema<v.ObjectEntries, undefined>).entries.type as v.LiteralSchema<string, undefined>).literal)}"`,
    )
    .join(", ");
  return v.pipe(
    v.variant("type", options, (issue) => {
      if (!issue.path) return `must be a layer object (received ${typeName(issue.input)})`;
      if (issue.input === undefined) return `is required: the layer type, one of ${names}`;
      const reason = forbidden[String(issue.input)] ?? EDITLY_JS_LAYERS[String(issue.input)];
      if (reason) return reason;
      return `Unknown layer type ${JSON.stringify(issue.input)} in ${where}: expected one of ${names}`;
    }),
    v.rawCheck(({ dataset, addIssue }) => {
      if (dataset.typed) report(addIssue, layerIssues(dataset.value as Record<string, unknown>));
    }),
    v.metadata(JSON_LAYER_RULES),
  );
};

/** A strict object per layer type, named for messages ("text layer"). */
export const layerObject = <const E extends v.ObjectEntries>(entries: E) =>
  strict(`${String((entries.type as unknown as v.LiteralSchema<string, undefined>).literal)} layer`, entries);

const unwrap = (schema: v.GenericSchema): v.GenericSchema =>
  schema.type === "optional" ? (schema as v.OptionalSchema<v.GenericSchema, unknown>).wrapped : schema;

/** The entries of a layer type without `type`, all optional: what `defaults.layerType.<type>` accepts. */
export const partialEntries = (entries: v.ObjectEntries): v.ObjectEntries =>
  Object.fromEntries(
    Object.entries(entries)
      .filter(([key]) => key !== "type")
      .map(([key, schema]) => [key, v.optional(unwrap(schema as v.GenericSchema))]),
  );

/**
 * Every property of every layer type, all optional: what `defaults.layer` accepts. A key whose schema
 * differs between types (e.g. `fontSize` in px for titles, a fraction for slide-in-text) accepts any of them.
 */
export const mergedEntries = (all: v.ObjectEntries[]): v.ObjectEntries => {
  const byKey = new Map<string, v.GenericSchema[]>();
  for (const entries of all) {
    for (const [key, schema] of Object.entries(entries)) {
      if (key === "type") continue;
      const inner = unwrap(schema as v.GenericSchema);
      const seen = byKey.get(key) ?? [];
      if (!seen.includes(inner)) seen.push(inner);
      byKey.set(key, seen);
    }
  }
  return Object.fromEntries(
    [...byKey].map(([key, schemas]) => [
      key,
      v.optional(schemas.length === 1 ? schemas[0]! : v.union(schemas, "is not valid for any layer type")),
    ]),
  );
};

/** `defaults.layer` and `defaults.layerType` entries for a job grammar. */
export const layerDefaultsEntries = (byType: Record<string, v.ObjectEntries>) => ({
  /** Applied to every layer (lowest priority). */
  layer: v.optional(strict("defaults.layer", mergedEntries(Object.values(byType)))),
  /** Applied to layers of one type (over `defaults.layer`, under the layer's own properties). */
  layerType: v.optional(
    strict(
      "defaults.layerType",
      Object.fromEntries(
        Object.entries(byType).map(([type, entries]) => [
          type,
          v.optional(strict(`defaults.layerType.${type}`, partialEntries(entries))),
        ]),
      ),
    ),
  ),
});
