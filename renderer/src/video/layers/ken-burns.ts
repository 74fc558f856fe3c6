/**
 * Ken Burns (zoomDirection/zoomAmount) as a `zoompan` filter over a pre-scaled still.
 * editly maths (E-util): in = scale 1 → 1+a over the window, out = 1+a → 1; left/right/up/down hold
 * 1+a and pan across the whole spare margin (editly pans a fixed pixel count; ours scales with size).
 */
import { VIDEO_DEFAULTS } from "@media-render/contract/config/limits";
import { evenDimension } from "@media-render/contract/geometry";
import type { LayerOf } from "../types.ts";
import { ffNumber } from "../values.ts";

export type ZoomDirection = NonNullable<LayerOf<"image">["zoomDirection"]>;
type PanDirection = Exclude<ZoomDirection, "in" | "out">;

/** The directions that hold the zoom and move across the margin (drawn by panCrop). */
export const isPan = (dir: ZoomDirection | null): dir is PanDirection =>
  dir !== null && dir !== "in" && dir !== "out";

/** A layer's `zoomDirection`: `null` turns Ken Burns off, absent means the layer type's default. */
export const zoomDirection = (
  value: ZoomDirection | null | undefined,
  fallback: ZoomDirection | null,
): ZoomDirection | null => {
  return value === undefined ? fallback : value;
};

/** A layer's `zoomAmount` (0–1), default VIDEO_DEFAULTS.zoomAmount. */
export const zoomAmount = (value: number | undefined): number => {
  return value ?? VIDEO_DEFAULTS.zoomAmount;
};

/**
 * Which frames of a layer a zoom draws (graph-context.ts LayerWindow): `drawn` of them from frame `skip`; a
 * `moving` input (a video, a text's states) gives one frame each, a still (the default) all from one.
 */
export interface ZoomFrames {
  skip: number;
  drawn: number;
  moving?: boolean;
}

/**
 * zoompan over a layer of `frames` frames of w x h at `fps`, from a still that was pre-scaled to exactly
 * w·s x h·s (s = oversampling). zoompan crops at whole source pixels, and at even ones in yuv420p (its
 * chroma planes are halved), so the crop edges move in steps of up to 2/s output pixels: 1.33 at s = 1.5.
 */
export const zoompanFilter = (
  dir: ZoomDirection,
  amount: number,
  frames: number,
  w: number,
  h: number,
  fps: number,
  at: ZoomFrames = { skip: 0, drawn: frames },
): string => {
  // A still yields the drawn frames from one input frame (d=drawn, counter `on`); a moving input maps 1:1 (d=1,
  // counter `in`). Either counter starts at 0 at the first frame drawn: the layer's frame is it plus `skip`.
  const progress = `((${at.moving ? "in" : "on"}+${at.skip})/${Math.max(1, frames - 1)})`;
  const zoomBy = ffNumber(amount);
  const zoom =
    dir === "in" ? `1+${zoomBy}*${progress}` : dir === "out" ? `1+${zoomBy}*(1-${progress})` : `1+${zoomBy}`;
  const cx = "(iw-iw/zoom)/2";
  const cy = "(ih-ih/zoom)/2";
  const x =
    dir === "left" ? `(iw-iw/zoom)*${progress}` : dir === "right" ? `(iw-iw/zoom)*(1-${progress})` : cx;
  const y = dir === "up" ? `(ih-ih/zoom)*${progress}` : dir === "down" ? `(ih-ih/zoom)*(1-${progress})` : cy;
  return `zoompan=z='${zoom}':x='${x}':y='${y}':d=${at.moving ? 1 : at.drawn}:s=${w}x${h}:fps=${fps}`;
};

/**
 * A pan (left/right/up/down) over `frames` frames of w x h: the picture is resized to w·(1+a) x h·(1+a)
 * (the size this returns; once for a still) and frame n is a `crop` of it at whole output pixels (odd
 * ones too: exact), at the offsets of zoompanFilter. No second resize per frame, and closer to an exact
 * pan than zoompan over an oversampled still, whose crop moves in steps of 2/s pixels (720p photo, median
 * PSNR-Y against a pan at 3x in yuv444p: 32.7 dB against 24.2).
 */
export const panCrop = (
  dir: PanDirection,
  amount: number,
  frames: number,
  w: number,
  h: number,
  /** Frames of the layer before the first one drawn (its crop counter `n` starts there). */
  skip = 0,
): { w: number; h: number; crop: string } => {
  const size = { w: evenDimension(w * (1 + amount)), h: evenDimension(h * (1 + amount)) };
  const progress = `(n+${skip})/${Math.max(1, frames - 1)}`;
  const along = (margin: number, forward: boolean) =>
    `floor(${margin}*${forward ? progress : `(1-${progress})`}+0.5)`;
  const [mx, my] = [size.w - w, size.h - h];
  const x = dir === "left" ? along(mx, true) : dir === "right" ? along(mx, false) : String(mx / 2);
  const y = dir === "up" ? along(my, true) : dir === "down" ? along(my, false) : String(my / 2);
  return { ...size, crop: `crop=${w}:${h}:x='${x}':y='${y}':exact=1` };
};
