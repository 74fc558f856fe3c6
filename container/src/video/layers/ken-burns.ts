/**
 * Ken Burns (zoomDirection/zoomAmount) as a `zoompan` filter over a pre-scaled still.
 * editly maths (E-util): in = scale 1 → 1+a over the window, out = 1+a → 1; left/right/up/down hold
 * 1+a and pan across the whole spare margin (editly pans a fixed pixel count; ours scales with size).
 */
import { VIDEO_DEFAULTS } from "../../../../src/contract/config/limits.ts";
import type { LayerOf } from "../types.ts";
import { f } from "../values.ts";

export type ZoomDirection = NonNullable<LayerOf<"image">["zoomDirection"]>;

/** A layer's `zoomDirection`: `null` turns Ken Burns off, absent means the layer type's default. */
export function zoomDirection(
  value: ZoomDirection | null | undefined,
  fallback: ZoomDirection | null,
): ZoomDirection | null {
  return value === undefined ? fallback : value;
}

/** A layer's `zoomAmount` (0–1), default VIDEO_DEFAULTS.zoomAmount. */
export function zoomAmount(value: number | undefined): number {
  return value ?? VIDEO_DEFAULTS.zoomAmount;
}

/**
 * zoompan for `frames` output frames of w x h at `fps`, from a still that was pre-scaled to exactly
 * w·s x h·s (s = oversampling). zoompan crops at whole source pixels, and at even ones in yuv420p (its
 * chroma planes are halved), so the crop edges move in steps of up to 2/s output pixels: 1.33 at s = 1.5.
 */
export function zoompanFilter(
  dir: ZoomDirection,
  amount: number,
  frames: number,
  w: number,
  h: number,
  fps: number,
  perInputFrame = false,
): string {
  // A still yields all frames from one input frame (d=frames); a video maps 1:1 (d=1, counter `in`).
  const p = `(${perInputFrame ? "in" : "on"}/${Math.max(1, frames - 1)})`;
  const a = f(amount);
  const z = dir === "in" ? `1+${a}*${p}` : dir === "out" ? `1+${a}*(1-${p})` : `1+${a}`;
  const cx = "(iw-iw/zoom)/2";
  const cy = "(ih-ih/zoom)/2";
  const x = dir === "left" ? `(iw-iw/zoom)*${p}` : dir === "right" ? `(iw-iw/zoom)*(1-${p})` : cx;
  const y = dir === "up" ? `(ih-ih/zoom)*${p}` : dir === "down" ? `(ih-ih/zoom)*(1-${p})` : cy;
  return `zoompan=z='${z}':x='${x}':y='${y}':d=${perInputFrame ? 1 : frames}:s=${w}x${h}:fps=${fps}`;
}
