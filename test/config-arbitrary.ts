/**
 * fast-check arbitraries of job configs built from the JSON Schemas the service publishes
 * (`GET /api/v1/schemas/{image,video}`, src/schemas/json-schemas.ts), so a property test draws from what a user
 * reading those schemas may send: every property, every layer type, shorthands (`anyOf` branches) included. The
 * grammar's own rules beyond JSON Schema (cut order, totals) are left for validation to refuse.
 *
 * Written here rather than taken from npm: the JSON-Schema-to-fast-check packages there are archived or cover a
 * subset without `$ref`, `anyOf` and patterns, which our schemas are made of.
 *
 * Sizes are kept tiny (`TINY`: at most 96 px, 5 fps, 2 s a clip, 3 items a list) so that what is generated can
 * also be rendered for real in a test, and file references point at media the caller has (by the extensions each
 * reference's pattern lists).
 */
import fc from "fast-check";

/** A JSON Schema node, as @valibot/to-json-schema writes them (draft-07). */
export interface Schema {
  $ref?: string;
  $defs?: Record<string, Schema>;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  propertyNames?: Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

/** The files a generated config may reference, by kind (storage paths, or local paths for the renderer). */
export interface MediaChoices {
  image: string[];
  video: string[];
  audio: string[];
  font: string[];
  captions: string[];
  shader: string[];
}
type MediaKind = keyof MediaChoices;

/** How big what is generated may be. */
export interface Sizes {
  /** Pixels of a canvas side. */
  maxSide: number;
  maxFps: number;
  /** Seconds of a clip, a cut, a layer's start or stop. */
  maxSeconds: number;
  /** Entries of any list. */
  maxItems: number;
}

export const TINY: Sizes = { maxSide: 96, maxFps: 5, maxSeconds: 2, maxItems: 3 };

/** The media kind a file reference's pattern accepts, by the extensions it lists. */
const KIND_BY_EXTENSION: [RegExp, MediaKind][] = [
  [/\[sS\]\[rR\]\[tT\]|\[vV\]\[tT\]\[tT\]/, "captions"],
  [/\[gG\]\[lL\]\[sS\]\[lL\]|\[fF\]\[rR\]\[aA\]\[gG\]/, "shader"],
  [/\[tT\]\[tT\]\[fF\]|\[oO\]\[tT\]\[fF\]|\[wW\]\[oO\]\[fF\]/, "font"],
  [/\[mM\]\[pP\]4|\[mM\]\[oO\]\[vV\]|\[wW\]\[eE\]\[bB\]\[mM\]/, "video"],
  [/\[pP\]\[nN\]\[gG\]|\[jJ\]\[pP\]\[eE\]?\[gG\]/, "image"],
  [/\[mM\]\[pP\]3|\[wW\]\[aA\]\[vV\]|\[mM\]4\[aA\]/, "audio"],
];

/** A string schema that is a file reference (an upload's path or a public URL with an extension): its kind. */
const fileKind = (schema: Schema): MediaKind | null => {
  if (!schema.pattern || !/\[hH\]\[tT\]\[tT\]\[pP\]/.test(schema.pattern)) return null;
  // A video reference may also take stills; the first kind listed wins, so videos are checked before images.
  for (const [test, kind] of KIND_BY_EXTENSION) if (test.test(schema.pattern)) return kind;
  return null;
};

/** Fragment shaders: ones that compile (moving, still, sampling nothing) and ones that do not. */
const SHADERS = [
  "uniform float time; uniform vec2 resolution;\nvoid main() { vec2 p = gl_FragCoord.xy / resolution; gl_FragColor = vec4(p, 0.5 + 0.5 * sin(time), 1.0); }",
  "void main() { gl_FragColor = vec4(1.0, 0.0, 0.0, 1.0); }",
  "void main() { gl_FragColor = nope; }",
  "void main() {",
];

/** Markup for html layers: plain, styled, scripted, animated. */
const HTML = [
  "<b>Hello</b>",
  '<div style="width:100%;height:100%;background:linear-gradient(#f00,#00f)"></div>',
  "<p id=t></p><script>document.getElementById('t').textContent = String(1 + 2)</script>",
  '<div style="animation:a 1s infinite;width:20px;height:20px;background:red"></div><style>@keyframes a{to{transform:translateX(40px)}}</style>',
];

/** Values for properties whose name says what they hold, sized by `sizes`; null: the schema decides. */
const byName = (name: string, schema: Schema, sizes: Sizes): fc.Arbitrary<unknown> | null => {
  const numeric = schema.type === "integer" || schema.type === "number";
  const lo = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1e-3 : 0);
  const upTo = (max: number) => Math.max(lo, Math.min(schema.maximum ?? max, max));
  if (numeric && (name === "width" || name === "height") && schema.type === "integer")
    return fc.integer({ min: lo, max: upTo(sizes.maxSide) });
  if (numeric && name === "fps") return fc.integer({ min: lo, max: upTo(sizes.maxFps) });
  const seconds = ["duration", "cutFrom", "cutTo", "start", "stop", "time", "from", "to", "interval"];
  if (numeric && seconds.includes(name))
    return fc.double({ min: lo, max: upTo(sizes.maxSeconds), noNaN: true, noDefaultInfinity: true });
  if (numeric && name === "count") return fc.integer({ min: lo, max: upTo(sizes.maxItems) });
  if (schema.type === "string" && name === "fragmentShader")
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...SHADERS) }, fc.string({ maxLength: 20 }));
  if (schema.type === "string" && name === "html")
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...HTML) }, fc.string({ maxLength: 20 }));
  return null;
};

/** A string: a file reference from `media`, a pattern's match, or text within the length bounds. */
const stringOf = (schema: Schema, media: MediaChoices): fc.Arbitrary<string> => {
  const kind = fileKind(schema);
  if (kind) return media[kind].length > 0 ? fc.constantFrom(...media[kind]) : fc.constant("/missing.bin");
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 24, Math.max(min, 24));
  if (schema.pattern)
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => s.length >= min && s.length <= (schema.maxLength ?? Infinity));
  return fc.string({ minLength: min, maxLength: max });
};

const numberOf = (schema: Schema): fc.Arbitrary<number> => {
  const min = schema.minimum ?? schema.exclusiveMinimum ?? -1000;
  const max = schema.maximum ?? schema.exclusiveMaximum ?? Math.max(min + 1000, 1000);
  if (schema.type === "integer")
    return fc.integer({
      min: Math.ceil(schema.exclusiveMinimum !== undefined ? min + 1 : min),
      max: Math.floor(schema.exclusiveMaximum !== undefined ? max - 1 : max),
    });
  return fc
    .double({
      min,
      max,
      noNaN: true,
      noDefaultInfinity: true,
      minExcluded: schema.exclusiveMinimum !== undefined,
      maxExcluded: schema.exclusiveMaximum !== undefined,
    })
    .map((n) => (Object.is(n, -0) ? 0 : n));
};

/**
 * An arbitrary of the values `root` describes. `$ref`s resolve into `root.$defs`; lists hold at most
 * `sizes.maxItems`; numbers named like sizes, rates and times are bounded by `sizes`.
 */
export const arbitraryOf = (
  root: Schema,
  media: MediaChoices,
  sizes: Sizes = TINY,
): fc.Arbitrary<unknown> => {
  const defs = root.$defs ?? {};
  const memo = new Map<Schema, fc.Arbitrary<unknown>>();
  const of = (schema: Schema, name = ""): fc.Arbitrary<unknown> => {
    const named = name ? byName(name, schema, sizes) : null;
    if (named) return named;
    const known = memo.get(schema);
    if (known) return known;
    // Registered before it is built (once, on first use): a schema that reaches itself through $ref ends in its
    // own arbitrary instead of building forever.
    let arbitrary: fc.Arbitrary<unknown> | undefined;
    const lazy = fc.constant(null).chain(() => (arbitrary ??= build(schema, name)));
    memo.set(schema, lazy);
    return lazy;
  };
  const build = (schema: Schema, name: string): fc.Arbitrary<unknown> => {
    if (schema.$ref) {
      const target = defs[schema.$ref.replace("#/$defs/", "")];
      if (!target) throw new Error(`unresolved ${schema.$ref}`);
      return of(target, name);
    }
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (schema.enum) return fc.constantFrom(...schema.enum);
    const branches = schema.anyOf ?? schema.oneOf;
    if (branches) return fc.oneof(...branches.map((b) => of(b, name)));
    if (Array.isArray(schema.type))
      return fc.oneof(...schema.type.map((type) => of({ ...schema, type }, name)));
    switch (schema.type) {
      case "null":
        return fc.constant(null);
      case "boolean":
        return fc.boolean();
      case "integer":
      case "number":
        return numberOf(schema);
      case "string":
        return stringOf(schema, media);
      case "array": {
        const minLength = schema.minItems ?? 0;
        const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? sizes.maxItems, sizes.maxItems));
        const list = fc.array(schema.items ? of(schema.items) : fc.jsonValue(), { minLength, maxLength });
        // Keyframes (items with a `time`) come in time order, each time once, as the grammar asks: random times
        // would be out of order in most lists of three, and the generator would rarely reach a render.
        if (!schema.items?.properties?.time) return list;
        return list.map((items) =>
          (items as { time: number }[])
            .sort((a, b) => a.time - b.time)
            .filter((k, i, all) => i === 0 || k.time > all[i - 1]!.time),
        );
      }
      case "object":
      case undefined: {
        if (!schema.properties) {
          // A record: keys by propertyNames, values by additionalProperties.
          const values =
            typeof schema.additionalProperties === "object"
              ? of(schema.additionalProperties)
              : fc.jsonValue();
          const keys = schema.propertyNames
            ? (of(schema.propertyNames) as fc.Arbitrary<string>)
            : fc.string({ maxLength: 8 });
          return fc.dictionary(keys, values, { maxKeys: sizes.maxItems });
        }
        // Each optional property is present with a chance that keeps about three of them set, so that a config
        // of ~50 optional properties is not mostly refused for combining too much; absent comes first, so a
        // failing case shrinks towards fewer properties.
        const properties = Object.entries(schema.properties);
        const required = new Set(schema.required ?? []);
        const optional = properties.length - required.size;
        const absentWeight = Math.max(1, Math.round(optional / 3) - 1);
        const entries = properties.map(([key, s]) => {
          const present = of(s, key).map((value): [string, unknown] => [key, value]);
          return required.has(key)
            ? present
            : fc.oneof(
                { weight: absentWeight, arbitrary: fc.constant(null) },
                { weight: 1, arbitrary: present },
              );
        });
        return fc
          .tuple(...entries)
          .map((pairs) => Object.fromEntries(pairs.filter((p): p is [string, unknown] => p !== null)));
      }
      default:
        throw new Error(`no arbitrary for type ${String(schema.type)}`);
    }
  };
  return of(root);
};

/**
 * `configs` with the canvas made tiny (width, height and fps within `sizes`) on every object: for real renders,
 * whose cost is the canvas's.
 */
export const withTinyCanvas = <T>(configs: fc.Arbitrary<T>, sizes: Sizes = TINY): fc.Arbitrary<T> =>
  fc
    .tuple(
      configs,
      fc.integer({ min: 2, max: sizes.maxSide }),
      fc.integer({ min: 2, max: sizes.maxSide }),
      fc.integer({ min: 1, max: sizes.maxFps }),
    )
    .map(([config, width, height, fps]) =>
      config !== null && typeof config === "object" && !Array.isArray(config)
        ? ({ ...config, width, height, fps } as T)
        : config,
    );
