/**
 * Keyframed `width` and `height` (issue 45 §1) of the layers that have them (video, image, image-overlay), as the
 * factors by which layers/motion.ts resizes the layer's box per frame (pure). The compilers lay the layer out at
 * the largest size its keyframes reach (`laidOut`: its picture fitted, cropped or blurred there, so frames are
 * resized down, never up); each frame then shows that box resized to the size at its time, about its centre. An image-overlay keeps its picture's aspect as its compiler does: sized by
 * `width` when it has one (both axes follow it), else by `height`.
 */
import { isKeyframed, valueRange, type Animated } from "@media-render/contract/keyframes";
import type { Layer } from "../types.ts";
import { ffNumber } from "../values.ts";
import { clipped, keyframeExpr } from "./keyframe-expr.ts";

/** Per axis, the size at time `t` (an expression) over the laid-out size, or null when neither size is keyframed. */
export interface SizeFactors {
  x?: (t: string) => string;
  y?: (t: string) => string;
}

/** The size a layer is laid out at: the number, or the largest its keyframes reach. */
export const laidOut = (value: Animated): number => valueRange(value).max;

/** `value` at `t` over its laid-out size, held to [lo, hi] as the compiler holds the laid-out size. */
const ratio = (value: Animated, lo: number, hi: number) => (t: string) =>
  `(${clipped(keyframeExpr(value, t), lo, hi)}/${ffNumber(Math.min(hi, Math.max(lo, laidOut(value))))})`;

export const sizeFactors = (layer: Layer): SizeFactors | null => {
  if (layer.type === "image-overlay") {
    const by = layer.width ?? layer.height;
    if (!isKeyframed(by)) return null;
    const both = ratio(by, 1e-6, 1e6);
    return { x: both, y: both };
  }
  if (layer.type !== "image" && layer.type !== "video") return null;
  const x = isKeyframed(layer.width) ? ratio(layer.width, 0.01, 1) : undefined;
  const y = isKeyframed(layer.height) ? ratio(layer.height, 0.01, 1) : undefined;
  return x || y ? { x, y } : null;
};
