/**
 * Template conditions: a layer of a template's config may carry `when`, and is drawn only for the renders (rows)
 * where it holds, so one template serves rows with and without an optional logo or price. A condition names one of
 * the template's variables (`{{name}}` placeholders and declared variables):
 *
 *   "when": "logo"                                  the variable is set: given, or defaulted, and not empty
 *   "when": { "var": "logo" }                       the same
 *   "when": { "var": "logo", "set": false }          the variable is not set (a stand-in for rows without one)
 *   "when": { "var": "badge", "equals": "sale" }     the variable's value, as text, is this one (`5` equals "5")
 *
 * It may sit on any layer of a layer list: an image config's `layers`, a video clip's `layers` (editly's single
 * layer object too) and a video's `globalLayers`. Merging a row (the Worker's templates) keeps the layers whose
 * condition holds and drops the others, and removes `when` from what it keeps: a job's config never carries one (the
 * job grammar refuses `when` with a message pointing here). Pure: the Worker merges with it, the builder shows it.
 */
import * as v from "valibot";

/** The property a layer's condition is written in. */
export const CONDITION_KEY = "when";

/** A variable's name, as a placeholder writes it. */
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const Var = v.pipe(
  v.string("var must be a variable's name"),
  v.regex(VARIABLE, "var must be a variable's name: a letter or _ then up to 63 letters, digits or _"),
);

const NOT_A_CONDITION =
  'a condition is a variable\'s name or { "var": name, "equals"?: value, "set"?: boolean }';

const NotACondition = v.custom<never>(() => false, NOT_A_CONDITION);

const ConditionObject = v.pipe(
  v.strictObject(
    {
      var: Var,
      equals: v.optional(
        v.union(
          [v.pipe(v.string(), v.maxLength(1000)), v.number(), v.boolean()],
          "equals must be a string, a number or a boolean",
        ),
      ),
      set: v.optional(v.boolean("set must be true or false")),
    },
    (issue) =>
      issue.expected === "never"
        ? `Unknown property "${String(issue.input)}" in a condition (var, equals, set)`
        : issue.path?.length
          ? `a condition needs "${String(issue.path[0]!.key)}": the variable's name`
          : NOT_A_CONDITION,
  ),
  v.check((c) => c.equals === undefined || c.set === undefined, "give equals or set, not both"),
);

/**
 * A condition as written: a variable's name, or `{ var, equals?, set? }` (at most one of the two). Chosen by the
 * input's type, so a bad object reports its own problem rather than one message for every form.
 */
export const LayerConditionSchema = v.lazy((input: unknown) =>
  typeof input === "string"
    ? Var
    : typeof input === "object" && input !== null && !Array.isArray(input)
      ? ConditionObject
      : NotACondition,
);

/** A condition in one form: `set` when it tests presence, `equals` when it tests a value. */
export type LayerCondition =
  | { var: string; set: boolean; equals?: undefined }
  | { var: string; equals: string | number | boolean; set?: undefined };

/** One condition of a config: where it is (its field and path) and what it says, or why it is not one. */
export interface ConditionSite {
  /** e.g. `config.layers[2].when`. */
  field: string;
  /** The layer's path in the config (`["clips", 0, "layers", 1]`). */
  path: (string | number)[];
  condition: LayerCondition | null;
  /** Why `condition` is null: the first problem of what was written. */
  error?: string;
}

/** The condition written at a layer's `when`, in one form, or the first problem with it. */
export const parseCondition = (raw: unknown): { condition: LayerCondition } | { error: string } => {
  const result = v.safeParse(LayerConditionSchema, raw);
  if (!result.success) return { error: result.issues[0]!.message };
  const condition = result.output;
  if (typeof condition === "string") return { condition: { var: condition, set: true } };
  if (condition.equals !== undefined) return { condition: { var: condition.var, equals: condition.equals } };
  return { condition: { var: condition.var, set: condition.set ?? true } };
};

/** Whether a value counts as set: present, and not empty text. */
export const isSet = (value: unknown): boolean => value !== undefined && value !== null && value !== "";

/** Whether `condition` holds for the variable's value (`undefined`: not given and no default). */
export const conditionHolds = (condition: LayerCondition, value: unknown): boolean => {
  if (condition.equals !== undefined) return isSet(value) && String(value) === String(condition.equals);
  return isSet(value) === condition.set;
};

type Json = unknown;
const isObject = (value: Json): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The layer lists of a config (each as its key path) where layers may carry conditions. */
const layerLists = (config: Json): (string | number)[][] => {
  if (!isObject(config)) return [];
  const lists: (string | number)[][] = [];
  if (Array.isArray(config.layers)) lists.push(["layers"]);
  if (Array.isArray(config.globalLayers)) lists.push(["globalLayers"]);
  if (Array.isArray(config.clips))
    config.clips.forEach((clip, i) => {
      if (isObject(clip) && (Array.isArray(clip.layers) || isObject(clip.layers)))
        lists.push(["clips", i, "layers"]);
    });
  return lists;
};

const at = (config: Json, path: readonly (string | number)[]): Json =>
  path.reduce<Json>((node, key) => (node as Record<string | number, Json>)?.[key], config);

const fieldOf = (path: readonly (string | number)[]) =>
  path.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : `${out}.${key}`), "config");

/** Every `when` of the config's layers, in config order, each parsed (or with its problem). */
export const conditionsOf = (config: Json): ConditionSite[] => {
  const sites: ConditionSite[] = [];
  for (const listPath of layerLists(config)) {
    const list = at(config, listPath);
    const layers: [Json, (string | number)[]][] = Array.isArray(list)
      ? list.map((layer, i) => [layer, [...listPath, i]])
      : [[list, listPath]];
    for (const [layer, path] of layers) {
      if (!isObject(layer) || !Object.hasOwn(layer, CONDITION_KEY)) continue;
      const parsed = parseCondition(layer[CONDITION_KEY]);
      sites.push({
        field: `${fieldOf(path)}.${CONDITION_KEY}`,
        path,
        ...("condition" in parsed
          ? { condition: parsed.condition }
          : { condition: null, error: parsed.error }),
      });
    }
  }
  return sites;
};

/**
 * The config with every layer whose condition does not hold (by `holds`) left out, and `when` removed from the
 * layers kept. A clip's single layer object that is left out leaves an empty list. Other values are untouched (the
 * input is not changed). A `when` that is no condition is judged by `holds(null)`.
 */
export const applyConditions = (config: Json, holds: (condition: LayerCondition | null) => boolean): Json => {
  const lists = layerLists(config);
  if (lists.length === 0) return config;
  const keep = (layer: Json): Json | undefined => {
    if (!isObject(layer) || !Object.hasOwn(layer, CONDITION_KEY)) return layer;
    const parsed = parseCondition(layer[CONDITION_KEY]);
    if (!holds("condition" in parsed ? parsed.condition : null)) return undefined;
    const { [CONDITION_KEY]: _when, ...rest } = layer;
    return rest;
  };
  const filter = (list: Json): Json => {
    if (!Array.isArray(list)) {
      const kept = keep(list);
      return kept === undefined ? [] : kept;
    }
    return list.map(keep).filter((layer) => layer !== undefined);
  };
  const out = { ...(config as Record<string, Json>) };
  if (Array.isArray(out.layers)) out.layers = filter(out.layers);
  if (Array.isArray(out.globalLayers)) out.globalLayers = filter(out.globalLayers);
  if (Array.isArray(out.clips))
    out.clips = out.clips.map((clip) =>
      isObject(clip) && (Array.isArray(clip.layers) || isObject(clip.layers))
        ? { ...clip, layers: filter(clip.layers) }
        : clip,
    );
  return out;
};

/** The config with every conditional layer kept and its `when` removed (every layer shown). */
export const withoutConditions = (config: Json): Json => applyConditions(config, () => true);
