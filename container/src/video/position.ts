/**
 * Places a box of size (w,h) in a frame of size (W,H) from a layer's `position`
 * (preset string or `{x,y,originX,originY}`, fractions of the frame) or editly's `left/top/originX/originY`.
 * Edge presets keep a 5 % inset, as editly's do.
 */
import { obj, optNum } from "./values.ts";

const INSET = 0.05;

function originFactor(origin: unknown, fallback: number): number {
  if (origin === "center") return 0.5;
  if (origin === "right" || origin === "bottom") return 1;
  if (origin === "left" || origin === "top") return 0;
  return fallback;
}

/** Returns the top-left pixel of the box, rounded. `fallback` is the preset used when nothing is given. */
export function placeBox(
  layer: Record<string, unknown>,
  W: number,
  H: number,
  w: number,
  h: number,
  fallback = "center",
): { x: number; y: number } {
  const p = layer.position;
  const o = obj(p);
  if (o) {
    const fx = optNum(o.x) ?? 0.5;
    const fy = optNum(o.y) ?? 0.5;
    return {
      x: Math.round(fx * W - originFactor(o.originX, 0.5) * w),
      y: Math.round(fy * H - originFactor(o.originY, 0.5) * h),
    };
  }
  const left = optNum(layer.left);
  const top = optNum(layer.top);
  if (typeof p !== "string" && (left !== null || top !== null)) {
    return {
      x: Math.round((left ?? 0) * W - originFactor(layer.originX, 0) * w),
      y: Math.round((top ?? 0) * H - originFactor(layer.originY, 0) * h),
    };
  }
  const preset = typeof p === "string" ? p : fallback;
  const [vert, horiz] = preset.includes("-") ? preset.split("-") : [preset, preset];
  const hx = horiz === "left" ? INSET * W : horiz === "right" ? W * (1 - INSET) - w : (W - w) / 2;
  const vy = vert === "top" ? INSET * H : vert === "bottom" ? H * (1 - INSET) - h : (H - h) / 2;
  return { x: Math.round(hx), y: Math.round(vy) };
}
