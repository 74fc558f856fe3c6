/** The layer types drawn by rasterising HTML in Chromium before ffmpeg runs (a leaf: no imports back). */
import type { Layer, LayerOf, LayerType } from "../types.ts";

/** Types drawn by rasterising HTML in Chromium before ffmpeg runs. */
export const RASTER_TYPES = [
  "title",
  "subtitle",
  "news-title",
  "slide-in-text",
  "title-background",
  "html",
] as const satisfies readonly LayerType[];
export type RasterLayer = LayerOf<(typeof RASTER_TYPES)[number]>;
/** The rasterised types drawn as text boxes on one sheet (html layers are captured page by page). */
export type TextLayer = Exclude<RasterLayer, LayerOf<"html">>;

const RASTER: ReadonlySet<LayerType> = new Set(RASTER_TYPES);
export const isRaster = (layer: Layer): layer is RasterLayer => RASTER.has(layer.type);
/** Whether `layer` is drawn as a text box on the sheet (every rasterised type but html). */
export const isText = (layer: Layer): layer is TextLayer => isRaster(layer) && layer.type !== "html";
