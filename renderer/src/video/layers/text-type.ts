/**
 * What a text layer type is (a leaf: the type modules `title.ts`, `subtitle.ts`, `news-title.ts`,
 * `slide-in-text.ts` implement it, `text-types.ts` keys them by `type`). Everything a text type does apart
 * from the shared text sheet: its font size, its box, where it goes, how it moves, and what a preview scales.
 */
import type { Placement } from "../position.ts";
import type { LayerWindow } from "../graph-context.ts";
import type { TextLayer } from "./raster-types.ts";

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
export interface TextType<L extends TextLayer = TextLayer> {
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
}

/** `value * s`, or undefined. */
export const scaled = (value: number | undefined, s: number): number | undefined =>
  value === undefined ? undefined : value * s;
