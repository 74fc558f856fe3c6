/**
 * `text` layers (config reference §1.4). A newline (`\n` in JSON; a literal backslash-n too, as tools often
 * double-escape) always breaks the line; `wrap` with `width` also wraps long lines. `align` is relative to
 * `x` (left edge / centre / right edge of the text block) and aligns the lines inside the block. `y` is the
 * top of the first line box (`fontSize * lineHeight` tall). `backgroundColor` paints the block behind
 * single-line text only, as documented; `height` only sized the blur area upstream and is not needed here
 * because CSS blur is never clipped. With `minFontSize` and `maxFontSize` the block is drawn at the maximum and
 * carries its range (and `height`, its other bound) for the page's fitting script (compile-html.ts), which sets
 * the size it fits at.
 */
import { IMAGE_DEFAULTS } from "@media-render/contract/config/limits";
import { FIT_ATTRIBUTES, fitRange } from "@media-render/contract/fit-text";
import type { FontRegistry } from "../fonts.ts";
import { placement, type Placeable } from "../placement.ts";
import { css, effects, esc } from "../style.ts";

export interface TextLayerInput extends Placeable {
  text: string;
  align?: "left" | "center" | "right";
  width?: number;
  /** The fitted text's other bound (with minFontSize and maxFontSize); otherwise layout ignores it. */
  height?: number;
  wrap?: boolean;
  lineHeight?: number;
  fontSize?: number;
  minFontSize?: number;
  maxFontSize?: number;
  color?: string;
  fontFamily?: string;
  fontPath?: string;
  googleFont?: string;
  backgroundColor?: string;
  opacity?: number;
  blur?: number;
}

const ALIGN_X = { left: 0, center: 0.5, right: 1 } as const;

/** The text with its line breaks normalised. */
export const textLines = (text: string): string => text.replace(/\r\n?/g, "\n").replace(/\\n/g, "\n");

export const textLayerHtml = (
  layer: TextLayerInput,
  canvas: { width: number; height: number },
  fonts: FontRegistry,
): string => {
  const align = layer.align ?? IMAGE_DEFAULTS.align;
  const content = textLines(layer.text);
  const wrap = layer.wrap === true && layer.width !== undefined;
  const singleLine = !content.includes("\n") && !wrap;
  const font = fonts.use(layer);
  const fit = fitRange(layer);
  const style = css({
    ...placement(layer, canvas, ALIGN_X[align]),
    width: layer.width,
    "font-family": font.family,
    "font-weight": String(font.weight),
    "font-size": fit?.max ?? layer.fontSize ?? IMAGE_DEFAULTS.fontSize,
    "line-height": String(layer.lineHeight ?? IMAGE_DEFAULTS.lineHeight),
    color: layer.color ?? IMAGE_DEFAULTS.color,
    "white-space": wrap ? "pre-wrap" : "pre",
    "overflow-wrap": wrap ? "break-word" : undefined,
    "text-align": align,
    background: singleLine ? layer.backgroundColor : undefined,
    ...effects(layer),
  });
  const range = fit
    ? ` ${FIT_ATTRIBUTES.min}="${fit.min}" ${FIT_ATTRIBUTES.max}="${fit.max}"` +
      (layer.height === undefined ? "" : ` ${FIT_ATTRIBUTES.height}="${layer.height}"`)
    : "";
  return `<div class="l"${range} style="${esc(style)}">${esc(content)}</div>`;
};
