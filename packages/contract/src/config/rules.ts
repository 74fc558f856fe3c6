/**
 * Cross-field rules that a per-property schema cannot state, as plain functions over parsed values.
 * The schemas run them through `v.rawCheck`; the renderers may call `applyLayerDefaults` to see a layer
 * the way the rules (and users) see it.
 */
import type * as v from "valibot";
import { fitConflictIssues } from "../fit-text.ts";

type Obj = Record<string, unknown>;
type Key = string | number;

/** A rule violation at `path`, relative to the object the rule ran on. */
export interface RuleIssue {
  path: Key[];
  message: string;
}

const isSet = (value: unknown): boolean => value !== undefined;

/** Property names a config may use for another one: the parsed config carries the name each stands for. */
export const ALIASES = { catalogFont: "googleFont" } as const;

/** Both names of the catalogue font (`googleFont` and its alias). */
export const CATALOG_FONT_KEYS = ["googleFont", "catalogFont"] as const;
const hasCatalogFont = (o: Obj): boolean => CATALOG_FONT_KEYS.some((k) => isSet(o[k]));

/**
 * `value` with every alias (`catalogFont`) renamed to the property it stands for (`googleFont`), so renderers
 * read one field. Applied to a whole config by `normaliseConfigAliases`, after the rules refused an object
 * carrying both names.
 */
export const normaliseAliases = <T extends object>(value: T): T => {
  let out: Obj | undefined;
  for (const [alias, name] of Object.entries(ALIASES)) {
    if (!isSet((value as Obj)[alias])) continue;
    out ??= { ...(value as Obj) };
    out[name] = out[alias];
    delete out[alias];
  }
  return (out ?? value) as T;
};

type ParsedConfig = {
  defaults?: LayerDefaults;
  layers?: readonly object[];
  clips?: readonly { layers: readonly object[] }[];
  globalLayers?: readonly object[];
  autoSubtitlesStyle?: object;
};

/**
 * A parsed config (image or video) with the aliases of every layer-like object normalised: layers, global
 * layers, `defaults.layer`, `defaults.layerType.<type>` and `autoSubtitlesStyle`. The last step of both
 * grammars, so the Worker and the renderers see one name per property.
 */
export const normaliseConfigAliases = <C extends ParsedConfig>(config: C): C => {
  const all = (layers: readonly object[] | undefined) => layers?.map(normaliseAliases);
  const defaults = config.defaults && {
    ...config.defaults,
    layer: config.defaults.layer && normaliseAliases(config.defaults.layer),
    layerType:
      config.defaults.layerType &&
      Object.fromEntries(
        Object.entries(config.defaults.layerType).map(([t, o]) => [t, o && normaliseAliases(o)]),
      ),
  };
  const out: ParsedConfig = { ...config };
  if (config.defaults) out.defaults = dropUndefined(defaults!);
  if (config.layers) out.layers = all(config.layers);
  if (config.clips) out.clips = config.clips.map((clip) => ({ ...clip, layers: all(clip.layers)! }));
  if (config.globalLayers) out.globalLayers = all(config.globalLayers);
  if (config.autoSubtitlesStyle) out.autoSubtitlesStyle = normaliseAliases(config.autoSubtitlesStyle);
  return out as C;
};

/** `o` without the keys whose value is undefined (a stored config keeps absent keys absent). */
const dropUndefined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, value]) => value !== undefined)) as T;

/**
 * Rules on one layer object as written (a layer, or a defaults object): those every layer has, with `typeRules` (its
 * type's own, from its table entry: layer-set.ts `layerVariant`) after the font rules.
 */
export const layerIssues = (layer: Obj, typeRules?: (layer: Obj) => RuleIssue[]): RuleIssue[] => {
  const out: RuleIssue[] = [];
  if (isSet(layer.googleFont) && isSet(layer.catalogFont)) {
    out.push({
      path: ["catalogFont"],
      message: '"catalogFont" is another name for "googleFont": use one of them, not both',
    });
  }
  for (const font of CATALOG_FONT_KEYS) {
    if (isSet(layer.fontPath) && isSet(layer[font])) {
      out.push({
        path: [font],
        message: `"fontPath" and "${font}" cannot be combined in one layer: use one`,
      });
    }
  }
  if (typeRules) out.push(...typeRules(layer));
  if (typeof layer.cutFrom === "number" && typeof layer.cutTo === "number" && layer.cutTo <= layer.cutFrom) {
    out.push({ path: ["cutTo"], message: `must be greater than cutFrom (${layer.cutFrom})` });
  }
  if (typeof layer.start === "number" && typeof layer.stop === "number" && layer.stop <= layer.start) {
    out.push({ path: ["stop"], message: `must be greater than start (${layer.start})` });
  }
  out.push(...fitConflictIssues(layer));
  return out;
};

/** Layer defaults: `defaults.layer` and `defaults.layerType.<type>`. */
export interface LayerDefaults {
  layer?: Obj;
  layerType?: Record<string, Obj | undefined>;
}

/** The properties that size text fitted into its box (../fit-text.ts), which replace `fontSize`. */
const FIT_KEYS = ["minFontSize", "maxFontSize"] as const;

/**
 * `top` over `base`; a font choice of one kind in `top` drops a default of the other kind, and so does a size of
 * one kind (`fontSize`, or the fitting range).
 */
const over = (base: Obj, top: Obj): Obj => {
  const merged = { ...base, ...top };
  if (isSet(top.fontSize)) for (const k of FIT_KEYS) if (!isSet(top[k])) delete merged[k];
  if (FIT_KEYS.some((k) => isSet(top[k])) && !isSet(top.fontSize)) delete merged.fontSize;
  if (isSet(top.fontPath) && !hasCatalogFont(top)) for (const k of CATALOG_FONT_KEYS) delete merged[k];
  if (hasCatalogFont(top)) {
    if (!isSet(top.fontPath)) delete merged.fontPath;
    // The layer's own name wins over a default written under the other name.
    for (const k of CATALOG_FONT_KEYS) if (!isSet(top[k])) delete merged[k];
  }
  return merged;
};

/**
 * The layer as rendered: explicit property > `defaults.layerType.<type>` > `defaults.layer`. When a more
 * specific level picks `fontPath` or `googleFont` (or its alias `catalogFont`), a less specific choice of the
 * other kind is dropped; likewise `fontSize` and the fitting range `minFontSize`/`maxFontSize`.
 */
export const applyLayerDefaults = <L extends { type: string }>(
  defaults: LayerDefaults | undefined,
  layer: L,
): L => {
  const base = over(defaults?.layer ?? {}, defaults?.layerType?.[layer.type] ?? {});
  return over(base, layer) as L;
};

/** `issues` moved under `base`. */
export const prefix = (base: Key[], issues: RuleIssue[]): RuleIssue[] =>
  issues.map((issue) => ({ path: [...base, ...issue.path], message: issue.message }));

/** Rules on a config's `defaults.layer` and every `defaults.layerType.<type>` (image and video alike). */
export const defaultsIssues = (
  defaults: { layer?: Obj; layerType?: Record<string, unknown> } | undefined,
): RuleIssue[] => {
  const out: RuleIssue[] = [];
  if (defaults?.layer) out.push(...prefix(["defaults", "layer"], layerIssues(defaults.layer)));
  for (const [type, entries] of Object.entries(defaults?.layerType ?? {})) {
    if (entries) out.push(...prefix(["defaults", "layerType", type], layerIssues(entries as Obj)));
  }
  return out;
};

/** Reports `issues` (relative to `base`) through a `v.rawCheck` context. */
export const report = (
  addIssue: (info: { message: string; path: [v.IssuePathItem, ...v.IssuePathItem[]] }) => void,
  issues: RuleIssue[],
  base: Key[] = [],
): void => {
  for (const issue of issues) {
    const keys = [...base, ...issue.path];
    const path = keys.map((key): v.IssuePathItem =>
      typeof key === "number"
        ? { type: "array", origin: "value", input: [], key, value: undefined }
        : { type: "object", origin: "value", input: {}, key, value: undefined },
    );
    if (path.length > 0)
      addIssue({ message: issue.message, path: path as [v.IssuePathItem, ...v.IssuePathItem[]] });
  }
};
