/**
 * Turns a table of layer types (video-layer-types.ts, image-layer-types.ts) into what a job grammar needs: the
 * layer union discriminated by `type` (with the per-layer cross-field rules), the `defaults.layer` /
 * `defaults.layerType` objects derived from the same entries (so a new property is declared once), the files a
 * type references and the per-job caps.
 */
import * as v from "valibot";
import { strict } from "./common.ts";
import { slotKind, type FileKind } from "./file-ref.ts";
import { layerIssues, report, type RuleIssue } from "./rules.ts";

/** What every layer type declares, whatever the job: its properties, with its `type` literal, and its cap. */
export interface LayerTypeFacts {
  entries: v.ObjectEntries;
  /** At most this many layers of the type per job: the grammar refuses the next one. */
  perJob?: number;
  /**
   * Rules across the type's own properties (html: exactly one of `html` and `src`), run after the font rules every
   * layer has (rules.ts `layerIssues`).
   */
  rules?: (layer: Record<string, unknown>) => RuleIssue[];
  /**
   * Rules over the layer as rendered, its defaults applied (rules.ts `applyLayerDefaults`): a text's wrap, a fitted
   * text's range.
   */
  renderedRules?: (layer: Record<string, unknown>) => RuleIssue[];
  /** `rules` as far as JSON Schema draft-07 can state them: the `then` of the type's `if`, served only. */
  jsonRule?: Readonly<Record<string, unknown>>;
}

/** A table's entry with what is read off its properties: the kind of file each file property references. */
export type LayerTypeOf<F> = F & { readonly files: Readonly<Record<string, FileKind>> };

/** The files a layer type's properties reference (`path: VideoRef`: `{ path: "video" }`), in property order. */
const filesOf = (entries: v.ObjectEntries): Record<string, FileKind> =>
  Object.fromEntries(
    Object.entries(entries).flatMap(([key, schema]) => {
      const kind = slotKind(schema as v.GenericSchema);
      return kind ? [[key, kind]] : [];
    }),
  );

/**
 * A table of layer types keyed by `type`, in the order the grammar lists them (JSON Schema, "expected one of"
 * messages), each entry with its `files`. A key that is not its entries' `type` literal is a type error.
 */
export const layerTable =
  <F extends LayerTypeFacts>() =>
  <const T extends { readonly [K in keyof T]: F & { entries: { type: v.LiteralSchema<K, undefined> } } }>(
    table: T,
  ): { readonly [K in keyof T]: LayerTypeOf<T[K]> } =>
    Object.fromEntries(
      Object.entries(table).map(([type, entry]) => [
        type,
        { ...(entry as F), files: filesOf((entry as F).entries) },
      ]),
    ) as { readonly [K in keyof T]: LayerTypeOf<T[K]> };

/** The entry of the type named `name` in `table`, if it has one (never a property of Object.prototype). */
export const entryOf = <E>(table: Readonly<Record<string, E>>, name: string): E | undefined =>
  Object.hasOwn(table, name) ? table[name] : undefined;

/**
 * The required file properties of a type, each with the file `fileFor` picks of its kind (none: left out): what a
 * layer added in the builder starts with besides its type's `starter`.
 */
export const starterFiles = (
  entry: { entries: v.ObjectEntries; files: Readonly<Record<string, FileKind>> },
  fileFor: (kind: FileKind) => string | undefined,
): Record<string, string> =>
  Object.fromEntries(
    Object.entries(entry.files).flatMap(([key, kind]) => {
      const file = (entry.entries[key] as v.GenericSchema).type === "optional" ? undefined : fileFor(kind);
      return file === undefined ? [] : [[key, file]];
    }),
  );

/** The layer types of a table, in its order. */
export const layerTypeNames = <T extends object>(table: T): (keyof T & string)[] =>
  Object.keys(table) as (keyof T & string)[];

/**
 * The cap of every type with one (`perJob`), counted over a job's layers in the order they are passed: the issue
 * (at the layer's path) for the first layer past its type's cap, nothing for the others.
 */
export const perJobCaps = (table: Readonly<Record<string, LayerTypeFacts>>) => {
  const seen = new Map<string, number>();
  return (layer: { type: string }, path: (string | number)[]): RuleIssue[] => {
    const cap = entryOf(table, layer.type)?.perJob;
    if (cap === undefined) return [];
    const count = (seen.get(layer.type) ?? 0) + 1;
    seen.set(layer.type, count);
    return count === cap + 1
      ? [{ path, message: `at most ${cap} ${layer.type} layers are allowed per job` }]
      : [];
  };
};

const typeName = (input: unknown): string =>
  input === null ? "null" : Array.isArray(input) ? "array" : typeof input;

/**
 * The cross-field rules of a layer (rules.ts `layerIssues`, each type's `rules`) as far as JSON Schema draft-07 can
 * state them; served in the JSON Schema only (valibot runs the real rules).
 */
const jsonLayerRules = (table: Readonly<Record<string, LayerTypeFacts>>) => ({
  allOf: [
    { not: { required: ["fontPath", "googleFont"] } },
    { not: { required: ["fontPath", "catalogFont"] } },
    { not: { required: ["googleFont", "catalogFont"] } },
    ...Object.entries(table).flatMap(([type, { jsonRule }]) =>
      jsonRule ? [{ if: { properties: { type: { const: type } }, required: ["type"] }, then: jsonRule }] : [],
    ),
  ],
});

/** editly layer types that are JavaScript functions (canvas, fabric.js): why a JSON job cannot have them. */
const EDITLY_JS_LAYERS: Record<string, string> = Object.fromEntries(
  ["canvas", "fabric"].map((layerType) => [
    layerType,
    `layer type "${layerType}" runs an editly JavaScript function (func), which a JSON job cannot carry: draw it with an html layer (HTML, CSS and JavaScript in a sandboxed page) or a gl layer (a fragment shader)`,
  ]),
);

/**
 * A layer: one of `options` (objects of types of `table`), chosen by `type`, with its type's rules. `forbidden`
 * names types that exist elsewhere but not here, with the reason (e.g. audio layers in `globalLayers`).
 */
export const layerVariant = <const T extends v.VariantOptions<"type">>(
  where: string,
  options: T,
  table: Readonly<Record<string, LayerTypeFacts>>,
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
      if (!dataset.typed) return;
      const layer = dataset.value as Record<string, unknown>;
      report(addIssue, layerIssues(layer, entryOf(table, String(layer.type))?.rules));
    }),
    v.metadata(jsonLayerRules(table)),
  );
};

/** A strict object per layer type, named for messages ("text layer"). */
export const layerObject = <const E extends v.ObjectEntries>(entries: E) =>
  strict(`${String((entries.type as unknown as v.LiteralSchema<string, undefined>).literal)} layer`, entries);

/** The strict object of every type of a table, keyed like it (one object per type, shared by every union). */
export const layerObjects = <const T extends { readonly [K in keyof T]: { entries: v.ObjectEntries } }>(
  table: T,
): { [K in keyof T]: ReturnType<typeof layerObject<T[K]["entries"]>> } =>
  Object.fromEntries(
    Object.entries(table).map(([type, entry]) => [
      type,
      layerObject((entry as { entries: v.ObjectEntries }).entries),
    ]),
  ) as { [K in keyof T]: ReturnType<typeof layerObject<T[K]["entries"]>> };

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

/** `defaults.layer` and `defaults.layerType` entries for a job grammar with the layer types of `table`. */
export const layerDefaultsEntries = (table: Readonly<Record<string, { entries: v.ObjectEntries }>>) => ({
  /** Applied to every layer (lowest priority). */
  layer: v.optional(strict("defaults.layer", mergedEntries(Object.values(table).map((t) => t.entries)))),
  /** Applied to layers of one type (over `defaults.layer`, under the layer's own properties). */
  layerType: v.optional(
    strict(
      "defaults.layerType",
      Object.fromEntries(
        Object.entries(table).map(([type, { entries }]) => [
          type,
          v.optional(strict(`defaults.layerType.${type}`, partialEntries(entries))),
        ]),
      ),
    ),
  ),
});
