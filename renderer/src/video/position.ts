/**
 * Places a box of size (w,h) in a frame of size (W,H) from a layer's `position`
 * (preset string or `{x,y,originX,originY}`, fractions of the frame) or editly's `left/top/originX/originY`.
 * Edge presets keep a 5 % inset, as editly's do.
 */
import { valueAt } from "@media-render/contract/keyframes";
import type { LayerOf } from "./types.ts";

/** A layer's `position`: a preset name or `{x, y, originX?, originY?}` (fractions of the frame). */
export type Position = NonNullable<LayerOf<"image">["position"]>;
type Origin = "left" | "center" | "right" | "top" | "bottom";

/** The placement properties of a layer; video layers also have editly's `left/top/originX/originY`. */
export interface Placement {
  position?: Position;
  left?: number;
  top?: number;
  originX?: "left" | "center" | "right";
  originY?: "top" | "center" | "bottom";
}

const INSET = 0.05;

const originFactor = (origin: Origin | undefined, fallback: number): number => {
  if (origin === "center") return 0.5;
  if (origin === "right" || origin === "bottom") return 1;
  if (origin === "left" || origin === "top") return 0;
  return fallback;
};

/** Returns the top-left pixel of the box, rounded. `fallback` is the preset used when nothing is given. */
export const placeBox = (
  layer: Placement,
  frameWidth: number,
  frameHeight: number,
  w: number,
  h: number,
  fallback = "center",
): { x: number; y: number } => {
  const position = layer.position;
  if (typeof position === "object") {
    // A keyframed x or y is laid out at its first value; layers/motion.ts moves it along the keyframes.
    return {
      x: Math.round(valueAt(position.x, 0) * frameWidth - originFactor(position.originX, 0.5) * w),
      y: Math.round(valueAt(position.y, 0) * frameHeight - originFactor(position.originY, 0.5) * h),
    };
  }
  const left = layer.left ?? null;
  const top = layer.top ?? null;
  if (typeof position !== "string" && (left !== null || top !== null)) {
    return {
      x: Math.round((left ?? 0) * frameWidth - originFactor(layer.originX, 0) * w),
      y: Math.round((top ?? 0) * frameHeight - originFactor(layer.originY, 0) * h),
    };
  }
  const preset = typeof position === "string" ? position : fallback;
  const [vert, horiz] = preset.includes("-") ? preset.split("-") : [preset, preset];
  const hx =
    horiz === "left"
      ? INSET * frameWidth
      : horiz === "right"
        ? frameWidth * (1 - INSET) - w
        : (frameWidth - w) / 2;
  const vy =
    vert === "top"
      ? INSET * frameHeight
      : vert === "bottom"
        ? frameHeight * (1 - INSET) - h
        : (frameHeight - h) / 2;
  return { x: Math.round(hx), y: Math.round(vy) };
};
