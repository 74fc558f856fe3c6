/**
 * Where a layer's box goes (config reference §1.2), as CSS: `left`/`top` of an anchor point plus a
 * translate in percent of the layer's own size, so boxes whose size only the browser knows (text) are
 * placed exactly too. Rotation is appended after the translate with `transform-origin: center`, which
 * turns the layer about its own centre.
 *
 * - pixels: `x`,`y` are the box's top-left (text: `align` makes `x` the left edge, centre or right edge);
 * - a named position puts the matching edge/corner of the layer on the same edge/corner of the canvas,
 *   with no inset (a margin is one `{x, y, originX, originY}` object away);
 * - `{x, y, originX, originY}`: fractions of the canvas; the origin point of the layer (default left/top)
 *   sits there.
 * `position` wins over `x`/`y` when both are set.
 */
import type { Decls } from "./style.ts";

type Named =
  | "center"
  | "top"
  | "bottom"
  | "top-left"
  | "top-right"
  | "center-left"
  | "center-right"
  | "bottom-left"
  | "bottom-right";

export interface Placeable {
  x?: number;
  y?: number;
  position?: Named | { x: number; y: number; originX?: string; originY?: string };
  rotation?: number;
}

/** Fractions (0, 0.5, 1) of the canvas and of the layer for each named position. */
export const NAMED: Record<Named, [number, number]> = {
  "top-left": [0, 0],
  top: [0.5, 0],
  "top-right": [1, 0],
  "center-left": [0, 0.5],
  center: [0.5, 0.5],
  "center-right": [1, 0.5],
  "bottom-left": [0, 1],
  bottom: [0.5, 1],
  "bottom-right": [1, 1],
};
/** Fractions of the layer for each `originX`/`originY` name. */
export const ORIGIN: Record<string, number> = { left: 0, top: 0, center: 0.5, right: 1, bottom: 1 };

/**
 * `left`, `top` and `transform` for a layer on a width x height canvas. `alignX` is the fraction of the
 * layer's width that sits on `x` when placed by pixels (text alignment: 0, 0.5 or 1).
 */
export const placement = (layer: Placeable, canvas: { width: number; height: number }, alignX = 0): Decls => {
  let left: number;
  let top: number;
  let fx: number;
  let fy: number;
  const position = layer.position;
  if (typeof position === "string") {
    [fx, fy] = NAMED[position] ?? [0, 0];
    left = fx * canvas.width;
    top = fy * canvas.height;
  } else if (position) {
    fx = ORIGIN[position.originX ?? "left"] ?? 0;
    fy = ORIGIN[position.originY ?? "top"] ?? 0;
    left = position.x * canvas.width;
    top = position.y * canvas.height;
  } else {
    fx = alignX;
    fy = 0;
    left = layer.x ?? 0;
    top = layer.y ?? 0;
  }
  const parts: string[] = [];
  if (fx || fy) parts.push(`translate(${-fx * 100}%,${-fy * 100}%)`);
  if (layer.rotation) parts.push(`rotate(${layer.rotation}deg)`);
  return { left, top, transform: parts.length ? parts.join(" ") : undefined };
};
