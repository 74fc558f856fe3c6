/**
 * The text layer types keyed by `type`: one module each (`title.ts`, `subtitle.ts`, `news-title.ts`,
 * `slide-in-text.ts`) holding everything that type does; the rasteriser (raster/), the graph compiler
 * (raster-layer.ts) and preview scaling (config.ts) ask this registry, never the type.
 */
import type { LayerWindow } from "../graph-context.ts";
import type { LayerOf } from "../types.ts";
import { newsTitle } from "./news-title.ts";
import type { RasterLayer, TextLayer } from "./raster-types.ts";
import { slideInText } from "./slide-in-text.ts";
import { subtitle } from "./subtitle.ts";
import type { FrameSize, TextBoxRect, TextMotion, TextType } from "./text-type.ts";
import { title } from "./title.ts";

const TEXT_TYPES: { readonly [T in TextLayer["type"]]: TextType<LayerOf<T>> } = {
  title,
  "title-background": title,
  subtitle,
  "news-title": newsTitle,
  "slide-in-text": slideInText,
};

/**
 * The module of `layer`'s type. TEXT_TYPES pairs each type with the module of that type; TypeScript cannot
 * follow the pairing through an index by a union, hence the widening.
 */
export const textTypeOf = <L extends TextLayer>(layer: L): TextType<L> =>
  TEXT_TYPES[layer.type] as unknown as TextType<L>;

/** The motion of a rasterised layer whose box is `box`: its text type's, or none (an html layer). */
export const textMotion = (
  layer: RasterLayer,
  win: LayerWindow,
  box: TextBoxRect,
  frame: FrameSize,
): TextMotion =>
  layer.type === "html"
    ? { pre: [], post: [], x: box.x, y: box.y }
    : textTypeOf(layer).motion(layer, win, box, frame);
