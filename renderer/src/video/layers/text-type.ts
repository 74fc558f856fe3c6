/**
 * What a text layer type is, and the pieces text types share (a leaf: the type modules `title.ts`, `subtitle.ts`,
 * `news-title.ts`, `slide-in-text.ts` implement it; the layer registry, index.ts, names each type's). Everything
 * a text type does apart from the shared text sheet: its font size, its box, where it goes, how it moves, and what
 * a preview scales; and what they build it from: CSS colours, alpha fades, editly's eased banner clock (pure, in
 * ffmpeg terms; values follow editly's sources where known).
 */
import { fitRange } from "@media-render/contract/fit-text";
import type { Placement } from "../position.ts";
import type { LayerWindow } from "../graph-context.ts";
import type { Layer } from "../types.ts";
import { ffNumber } from "../values.ts";

/** Animation of a rasterised text layer in ffmpeg terms: filters around the retiming, overlay x/y. */
export interface TextMotion {
  /** Filters applied before retiming (frame-count based, e.g. zoompan). */
  pre: string[];
  /** Filters applied after retiming (timestamp based, e.g. fade). */
  post: string[];
  x: string | number;
  y: string | number;
}

/** The box a rasterised layer was drawn in: (x, y) with size (w, h). */
export interface TextBoxRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The frame a layer is drawn into. */
export interface FrameSize {
  W: number;
  H: number;
  fps: number;
}

/** One text layer type's behaviour (pure). */
export interface TextType<L extends Layer = Layer> {
  /** Font size in px in a W x H frame (the reference's default per type). */
  fontSize: (layer: L, W: number, H: number) => number;
  /** The box's own CSS, after the shared font, colour, outline and padding (`size`: the font size in px). */
  boxCss: (layer: L, size: number, W: number) => string;
  /** The layer with the position it takes when it names none. */
  placement: (layer: L) => Placement;
  /** Its animation, for a box at `box` in `frame`, visible over `win`. */
  motion: (layer: L, win: LayerWindow, box: TextBoxRect, frame: FrameSize) => TextMotion;
  /** Seconds its word/letter reveal (or fade-in) takes in a window of `windowSeconds`: 0 reveals nothing. */
  revealSeconds: (layer: L, windowSeconds: number) => number;
  /** The margin (a fraction of the box) a zoom needs around the text, 0 for none. */
  zoomMargin: (layer: L) => number;
  /** The layer with its pixel-valued properties multiplied by `s` (a preview), or the layer itself. */
  scalePixels: <T extends L>(layer: T, s: number) => T;
  /**
   * The type's grammar has `minFontSize` and `maxFontSize`: a layer with both is fitted into its box
   * (packages/contract/src/fit-text.ts). A type without them ignores a range `defaults.layer` hands it.
   */
  fits?: true;
}

/** The range a layer of `type` is fitted in (minFontSize/maxFontSize), or null: drawn at its type's font size. */
export const fitRangeOf = <L extends Layer>(
  type: TextType<L>,
  layer: L,
): { min: number; max: number } | null =>
  type.fits ? fitRange(layer as { minFontSize?: number; maxFontSize?: number }) : null;

/** `value * s`, or undefined. */
export const scaled = (value: number | undefined, s: number): number | undefined =>
  value === undefined ? undefined : value * s;

/** A colour for the sheet's CSS. The grammar's pattern already keeps CSS out; this is a second fence. */
export const cssColor = (value: string | undefined, fallback: string): string => {
  const color = (value ?? fallback).trim();
  return /^[#\w(),.\s%-]+$/.test(color) ? color : fallback;
};

/**
 * A length of `k` font sizes plus `extra` px, rounded `up` or to the `nearest` pixel: in px for a layer drawn at
 * `size`, or, for a layer fitted into its box (`fitted`: the page decides its size, raster/rasterize-text.ts), as CSS
 * that follows the font size to the same pixel (`round()`), so its box is the one that size would give it.
 */
export const sizedLength = (
  fitted: boolean,
  size: number,
  k: number,
  extra: number,
  rounding: "up" | "nearest",
): string => {
  if (fitted) return `round(${rounding}, ${k}em + ${extra}px, 1px)`;
  return `${rounding === "up" ? Math.ceil(k * size + extra) : Math.round(k * size + extra)}px`;
};

/** An alpha fade-in over `dur` seconds from `at` (at least one frame). */
export const fadeIn = (fps: number, at: number, dur: number): string =>
  `fade=t=in:st=${ffNumber(at)}:d=${ffNumber(Math.max(1 / fps, dur))}:alpha=1`;

/** An alpha fade-out over `dur` seconds from `at` (at least one frame). */
export const fadeOut = (fps: number, at: number, dur: number): string =>
  `fade=t=out:st=${ffNumber(at)}:d=${ffNumber(Math.max(1 / fps, dur))}:alpha=1`;

/** editly's easeOutExpo of the expression `p` (0..1). */
export const easeOutExpo = (p: string): string => `(1-pow(2,-10*${p}))`;

/**
 * editly's banner clock (subtitle.ts, news-title.ts): `easeOutExpo(clamp((progress - delay) * speed * k,
 * 0, 1))`, progress = seconds into the layer / its length (so `delay` is a fraction of the layer, and the
 * default animation spans the whole layer), as an ffmpeg expression of the time variable `time`.
 */
export const bannerEase = (
  layer: { delay?: number; speed?: number },
  win: LayerWindow,
  k: number,
  time: string,
): string => {
  const progress = `clip(((${time}-${ffNumber(win.start)})/${ffNumber(Math.max(0.001, win.duration))}-${ffNumber(layer.delay ?? 0)})*${ffNumber((layer.speed ?? 1) * k)},0,1)`;
  return `if(gte(${progress},1),1,1-pow(2,-10*${progress}))`;
};
