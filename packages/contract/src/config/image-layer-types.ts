/**
 * Every layer type of an image job, one entry each: its properties (`entries`, image-layers.ts), its cap per job,
 * its rules (across its properties, and over it as rendered), and what the builder starts a new one with; the files
 * it references (`files`) are read off its properties. Every list of image layer types is derived from this table:
 * the grammar's layer union and `defaults.layerType`, the caps and rules, the file references of a config
 * (resources.ts), the warnings' lookups, the served schema's description and the builder's new layers
 * (`newImageLayer`). The image page's HTML of each type is a second table keyed by the same names
 * (packages/image-page/src/compile-html.ts `LAYER_HTML`), which the Worker's typecheck holds complete. CONTRIBUTING.md,
 * "Adding a layer type", says what else a new type needs.
 */
import { fitIssues } from "../fit-text.ts";
import { HTML_JSON_RULE, htmlLayerIssues } from "./html-layer.ts";
import { HTML_MAX_LAYERS_PER_JOB } from "./limits.ts";
import {
  circleLayerEntries,
  gradientLayerEntries,
  imageHtmlLayerEntries,
  imageLayerEntries,
  rectangleLayerEntries,
  textLayerEntries,
  textWrapIssues,
} from "./image-layers.ts";
import { entryOf, layerTable, starterFiles, type LayerTypeFacts, type LayerTypeOf } from "./layer-set.ts";
import type { FileKind } from "./file-ref.ts";

/** A canvas of the builder, in pixels. */
export interface Canvas {
  width: number;
  height: number;
}

export interface ImageLayerTypeFacts extends LayerTypeFacts {
  /**
   * The properties a layer added in the builder starts with on `canvas` (in its middle), after `type` and a file
   * of its kind for each required file property (`path`).
   */
  starter?: (canvas: Canvas) => Record<string, unknown>;
}

/** A box of w x h pixels in the middle of `canvas`. */
const box = (canvas: Canvas, w: number, h: number) => ({
  x: Math.round((canvas.width - w) / 2),
  y: Math.round((canvas.height - h) / 2),
  width: w,
  height: h,
});

/** A third of the canvas' shorter side (at least a pixel): the size of a new shape. */
const side = (canvas: Canvas): number => Math.round(Math.min(canvas.width, canvas.height) / 3) || 1;

/** The layer types, in the order the grammar and the docs list them. */
export const IMAGE_LAYER_TYPES = layerTable<ImageLayerTypeFacts>()({
  image: {
    entries: imageLayerEntries,
    starter: (canvas) => ({ ...box(canvas, side(canvas), side(canvas)), fit: "cover" }),
  },
  text: {
    entries: textLayerEntries,
    renderedRules: (layer) => [...textWrapIssues(layer), ...fitIssues(layer, true)],
    starter: (canvas) => ({
      text: "Your text",
      x: Math.round(canvas.width / 2),
      y: Math.round(canvas.height / 2 - 24),
      align: "center",
      fontSize: 40,
      color: "#111827",
    }),
  },
  rectangle: {
    entries: rectangleLayerEntries,
    starter: (canvas) => ({ ...box(canvas, side(canvas) * 1.5, side(canvas)), fill: "#1d4ed8" }),
  },
  circle: {
    entries: circleLayerEntries,
    starter: (canvas) => ({ ...box(canvas, side(canvas), side(canvas)), fill: "#f59e0b" }),
  },
  gradient: {
    entries: gradientLayerEntries,
    starter: (canvas) => ({
      ...box(canvas, canvas.width, canvas.height),
      gradient: { type: "linear", colors: ["#4f46e5", "#ec4899"], direction: "diagonal" },
    }),
  },
  html: {
    entries: imageHtmlLayerEntries,
    perJob: HTML_MAX_LAYERS_PER_JOB,
    rules: htmlLayerIssues,
    jsonRule: HTML_JSON_RULE,
    starter: (canvas) => ({
      html: '<div style="font: 700 40px sans-serif; color: #0f172a; padding: 24px">Hello from HTML</div>',
      ...box(canvas, side(canvas) * 2, side(canvas)),
    }),
  },
});

export type ImageLayerType = keyof typeof IMAGE_LAYER_TYPES;

/**
 * A layer of `type` as the builder adds it on `canvas`: for each required file property the file `fileFor` picks of
 * its kind (none: left for the user to pick), then its type's `starter`. A name the grammar lacks gets only its
 * `type`.
 */
export const newImageLayer = (
  type: string,
  canvas: Canvas,
  fileFor: (kind: FileKind) => string | undefined,
): Record<string, unknown> => {
  const entry = entryOf<LayerTypeOf<ImageLayerTypeFacts>>(IMAGE_LAYER_TYPES, type);
  return entry ? { type, ...starterFiles(entry, fileFor), ...entry.starter?.(canvas) } : { type };
};
