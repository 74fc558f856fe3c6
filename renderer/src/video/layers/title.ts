/**
 * `title` (and `title-background`'s title, whose background is its own layer, index.ts): centred text at 10 %
 * of the shorter side, zooming in and fading in (`fade-in`, the default), or revealed word by word or letter by
 * letter; optional outline, shadow or glow (raster/text-html.ts).
 */
import type { LayerOf, LayerType } from "../types.ts";
import { clamp } from "../values.ts";
import { zoomAmount, zoomDirection, zoompanFilter } from "./ken-burns.ts";
import { fadeIn, scaled, type TextType } from "./text-type.ts";

/** The layers a title draws: those with a `style` (and `animationDuration`, an outline). */
export type TitleLayer = {
  [T in LayerType]: "style" extends keyof LayerOf<T> ? LayerOf<T> : never;
}[LayerType];

/** Title styles (reference §2.4): fade-in (default), word-by-word, letter-by-letter. */
export const titleStyle = (layer: TitleLayer): "fade-in" | "word-by-word" | "letter-by-letter" =>
  layer.style ?? "fade-in";

/** Seconds a title's fade-in takes without `animationDuration` (n/d in the sources; our choice). */
const TITLE_FADE_IN = 0.5;

/** Seconds the word/letter reveal (or fade-in) takes; n/d in the sources, documented in README. */
const revealSeconds = (layer: TitleLayer, windowSeconds: number): number => {
  const style = titleStyle(layer);
  const fallback = style === "fade-in" ? TITLE_FADE_IN : Math.min(2, windowSeconds * 0.6);
  return clamp(layer.animationDuration ?? fallback, 0, windowSeconds);
};

export const title: TextType<TitleLayer> = {
  fontSize: (layer, W, H) => clamp(layer.fontSize ?? Math.min(W, H) * 0.1, 4, 500),
  boxCss: (_layer, _size, W) => `max-width:${Math.round(W * 0.8)}px;text-align:center;`,
  placement: (layer) => layer,
  motion: (layer, win, box, frame) => {
    const style = titleStyle(layer);
    const pre: string[] = [];
    // JC disables zoom for the word/letter styles.
    const dir = style === "fade-in" ? zoomDirection(layer.zoomDirection, "in") : null;
    if (dir)
      pre.push(
        zoompanFilter(dir, zoomAmount(layer.zoomAmount), win.frames, box.w, box.h, frame.fps, {
          ...win,
          moving: true,
        }),
      );
    const post =
      style === "fade-in" ? [fadeIn(frame.fps, win.start, revealSeconds(layer, win.duration))] : [];
    return { pre, post, x: box.x, y: box.y };
  },
  revealSeconds,
  zoomMargin: (layer) =>
    titleStyle(layer) !== "fade-in" || !zoomDirection(layer.zoomDirection, "in")
      ? 0
      : zoomAmount(layer.zoomAmount),
  scalePixels: (layer, factor) => ({
    ...layer,
    fontSize: scaled(layer.fontSize, factor),
    outlineWidth: scaled(layer.outlineWidth, factor),
  }),
  fits: true,
};
