/**
 * The image job config (config reference §1): a canvas, a background and 1..50 layers drawn in array
 * order (index 0 at the bottom). Unknown top-level keys and layer keys are rejected with their name.
 */
import * as v from "valibot";
import { spellingsFor } from "../output-formats.ts";
import {
  BundledCatalogFont,
  catalogFontEntries,
  Color,
  documentedDefault,
  HostedCatalogFont,
  integerIn,
  list,
  oneOf,
  strict,
} from "./common.ts";
import { IMAGE_LAYER_TYPES } from "./image-layer-types.ts";
import { textLayerEntries } from "./image-layers.ts";
import {
  entryOf,
  layerDefaultsEntries,
  layerObjects,
  layerVariant,
  perJobCaps,
  type LayerTypeFacts,
} from "./layer-set.ts";
import {
  HTML_MAX_LAYERS_PER_JOB,
  IMAGE_DEFAULTS,
  IMAGE_MAX_LAYERS,
  IMAGE_MAX_QUALITY,
  IMAGE_MAX_SIZE,
  IMAGE_MIN_LAYERS,
  IMAGE_MIN_QUALITY,
  IMAGE_MIN_SIZE,
} from "./limits.ts";
import {
  applyLayerDefaults,
  defaultsIssues,
  normaliseConfigAliases,
  prefix,
  report,
  type RuleIssue,
} from "./rules.ts";

/** Output formats (output-formats.ts), each followed by its other spellings: `jpg` is another spelling of `jpeg`. */
export const IMAGE_FORMATS = spellingsFor("image");

/**
 * The image grammar for one `googleFont` rule: bundled families only (the default, and the JSON Schema), or
 * any family when the hosted catalogue is on. Everything else is the same object graph.
 */
const imageGrammar = (catalogFont: typeof BundledCatalogFont | typeof HostedCatalogFont) => {
  const types = {
    ...IMAGE_LAYER_TYPES,
    text: { ...IMAGE_LAYER_TYPES.text, entries: { ...textLayerEntries, ...catalogFontEntries(catalogFont) } },
  };
  const layer = layerVariant("an image job", Object.values(layerObjects(types)), types);
  const defaults = strict("defaults", layerDefaultsEntries(types));
  const imageConfigEntries = {
    width: integerIn(IMAGE_MIN_SIZE, IMAGE_MAX_SIZE),
    height: integerIn(IMAGE_MIN_SIZE, IMAGE_MAX_SIZE),
    /** Default: transparent. */
    backgroundColor: v.optional(Color),
    /** Deprecated spelling of `backgroundColor` (which wins when both are set). */
    background: v.optional(Color),
    /** Default `png`. png and webp keep alpha; jpeg does not. */
    format: v.optional(documentedDefault(oneOf(IMAGE_FORMATS), IMAGE_DEFAULTS.format)),
    /** jpeg/webp only. Default 90. */
    quality: v.optional(
      documentedDefault(integerIn(IMAGE_MIN_QUALITY, IMAGE_MAX_QUALITY), IMAGE_DEFAULTS.quality),
    ),
    defaults: v.optional(defaults),
    layers: list(layer, IMAGE_MIN_LAYERS, IMAGE_MAX_LAYERS, "layers"),
  };
  const config = v.pipe(
    strict("the image config", imageConfigEntries),
    v.rawCheck(({ dataset, addIssue }) => {
      if (dataset.typed) report(addIssue, imageConfigIssues(dataset.value));
    }),
    v.transform(normaliseConfigAliases),
    v.description(
      'Image job config. Cross-field rules beyond this schema: a text layer with "wrap": true needs "width" ' +
        '(its own or from defaults); "minFontSize" and "maxFontSize" go together (minimum at most the maximum), need ' +
        '"width" on a text layer and replace "fontSize" (not both on one object); ' +
        `at most ${HTML_MAX_LAYERS_PER_JOB} html layers per job; html/css sizes are UTF-8 bytes.`,
    ),
  );
  return { layer, defaults, config };
};

const bundled = imageGrammar(BundledCatalogFont);
const hosted = imageGrammar(HostedCatalogFont);

export const ImageLayerSchema = bundled.layer;
export type ImageLayer = v.InferOutput<typeof ImageLayerSchema>;
/** The image config; `googleFont` names bundled families only (offline, and the served JSON Schema). */
export const ImageConfigSchema = bundled.config;
/** The image config when the hosted font catalogue is on: `googleFont` may name any family of the right form. */
export const HostedImageConfigSchema = hosted.config;
export type ImageConfig = v.InferOutput<typeof ImageConfigSchema>;

/** Rules over the whole config: merged layer views, defaults objects, the layer caps (html). */
export const imageConfigIssues = (config: ImageConfig): RuleIssue[] => {
  const out: RuleIssue[] = [];
  const defaults = config.defaults;
  out.push(...defaultsIssues(defaults));
  const capped = perJobCaps(IMAGE_LAYER_TYPES);
  config.layers.forEach((layer, i) => {
    const rules = entryOf<LayerTypeFacts>(IMAGE_LAYER_TYPES, layer.type)?.renderedRules;
    if (rules) out.push(...prefix(["layers", i], rules(applyLayerDefaults(defaults, layer))));
    out.push(...capped(layer, ["layers", i]));
  });
  return out;
};
