/**
 * Every layer type of an image job, one entry each: its properties (`entries`, image-layers.ts), its cap per job,
 * and what the builder starts a new one with; the files it references (`files`) are read off its properties. Every
 * list of image layer types is derived from this table: the grammar's layer union and `defaults.layerType`, the caps,
 * the file references of a config (resources.ts), the warnings' lookups, the served schema's description and the
 * builder's new layers. The image page's HTML of each type is a second table keyed by the same names
 * (src/image-renderer/compile-html.ts), which the Worker's typecheck holds complete. CONTRIBUTING.md, "Adding a
 * layer type", says what else a new type needs.
 */
import { HTML_MAX_LAYERS_PER_JOB } from "./limits.ts";
import {
  circleLayerEntries,
  gradientLayerEntries,
  imageHtmlLayerEntries,
  imageLayerEntries,
  rectangleLayerEntries,
  textLayerEntries,
} from "./image-layers.ts";
import { layerTable, type LayerTypeFacts } from "./layer-set.ts";

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
    starter: (canvas) => ({
      html: '<div style="font: 700 40px sans-serif; color: #0f172a; padding: 24px">Hello from HTML</div>',
      ...box(canvas, side(canvas) * 2, side(canvas)),
    }),
  },
});

export type ImageLayerType = keyof typeof IMAGE_LAYER_TYPES;
