/**
 * Moving and resizing image layers on the canvas, as config changes. A layer is placed one of three ways
 * (config reference §1.2, packages/image-page/src/placement.ts): by `x`/`y` pixels (a text's `x` is its left edge,
 * centre or right edge by `align`), by a named `position`, or by `{x, y, originX, originY}` fractions. A move keeps
 * the layer's way (a named position becomes the equivalent fractions, which can move); a resize writes the new box
 * back the same way. Snapping pulls a moving edge or centre onto the canvas's edges and centre and the other
 * layers' edges and centres.
 */
import type { LayerBox } from "../preview/protocol.ts";
import { isObject, type JsonObject } from "../model/paths.ts";
import { NAMED, ORIGIN } from "../service-code.ts";

export interface Canvas {
  width: number;
  height: number;
}

const X_NAME = ["left", "center", "right"] as const;
const Y_NAME = ["top", "center", "bottom"] as const;
const ALIGN: Record<string, number> = { left: 0, center: 0.5, right: 1 };

const round = (value: number, digits = 0) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};
const num = (v: unknown, fallback = 0) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);

/** The layer's anchor as fractions of its own box, and of the canvas when placed by `position`. */
type Placement =
  | { mode: "pixels"; fx: number }
  | { mode: "fractions"; x: number; y: number; fx: number; fy: number };

const placementOf = (layer: JsonObject): Placement => {
  const position = layer.position;
  if (typeof position === "string" && position in NAMED) {
    const [fx, fy] = NAMED[position as keyof typeof NAMED];
    return { mode: "fractions", x: fx, y: fy, fx, fy };
  }
  if (isObject(position))
    return {
      mode: "fractions",
      x: num(position.x),
      y: num(position.y),
      fx: ORIGIN[String(position.originX ?? "left")] ?? 0,
      fy: ORIGIN[String(position.originY ?? "top")] ?? 0,
    };
  return { mode: "pixels", fx: layer.type === "text" ? (ALIGN[String(layer.align ?? "left")] ?? 0) : 0 };
};

/** The properties that put `layer`'s box at `left`/`top` (its size `width` x `height`), the way it is placed. */
const placeAt = (
  layer: JsonObject,
  canvas: Canvas,
  left: number,
  top: number,
  width: number,
  height: number,
) => {
  const placement = placementOf(layer);
  if (placement.mode === "pixels") return { x: round(left + placement.fx * width), y: round(top) };
  const position: JsonObject = {
    x: round((left + placement.fx * width) / canvas.width, 4),
    y: round((top + placement.fy * height) / canvas.height, 4),
  };
  if (placement.fx) position.originX = X_NAME[placement.fx * 2]!;
  if (placement.fy) position.originY = Y_NAME[placement.fy * 2]!;
  return { position };
};

/**
 * The change that moves `layer` by dx, dy canvas pixels from where its config puts it (keyboard nudges: no need to
 * wait for the preview to measure the last nudge before the next).
 */
export const nudgeLayer = (layer: JsonObject, canvas: Canvas, dx: number, dy: number) => {
  const placement = placementOf(layer);
  if (placement.mode === "pixels") return { x: round(num(layer.x) + dx), y: round(num(layer.y) + dy) };
  const position: JsonObject = {
    ...(isObject(layer.position) ? layer.position : {}),
    x: round(placement.x + dx / canvas.width, 4),
    y: round(placement.y + dy / canvas.height, 4),
  };
  if (placement.fx && !position.originX) position.originX = X_NAME[placement.fx * 2]!;
  if (placement.fy && !position.originY) position.originY = Y_NAME[placement.fy * 2]!;
  return { position };
};

/**
 * The change that grows `layer` by dw, dh canvas pixels from its config's size (`box`: its measured size, for a
 * layer whose config gives none). Text grows its wrap width (dw) or its font size (dh).
 */
export const growLayer = (
  layer: JsonObject,
  box: LayerBox,
  dw: number,
  dh: number,
): Record<string, unknown> => {
  if (layer.type === "text")
    return dw
      ? { width: Math.max(1, round(num(layer.width, box.width) + dw)), wrap: true }
      : { fontSize: Math.max(1, round(num(layer.fontSize, 24) + dh, 1)) };
  return {
    width: Math.max(1, round(num(layer.width, box.width) + dw)),
    height: Math.max(1, round(num(layer.height, box.height) + dh)),
  };
};

/** The change that moves `layer` (now at `box`) by dx, dy canvas pixels. */
export const moveLayer = (layer: JsonObject, box: LayerBox, canvas: Canvas, dx: number, dy: number) =>
  placeAt(layer, canvas, box.left + dx, box.top + dy, box.width, box.height);

export type Handle = "n" | "s" | "e" | "w" | "ne" | "nw" | "se" | "sw";
export const HANDLES: readonly Handle[] = ["nw", "n", "ne", "e", "se", "s", "sw", "w"];

/** Whether a handle of `layer` does anything: text has a width (wrap) and a size (corners), no height. */
export const handlesOf = (layer: JsonObject): readonly Handle[] =>
  layer.type === "text" ? ["nw", "ne", "e", "se", "sw", "w"] : HANDLES;

/** `box` with the edges `handle` holds moved by dx, dy (at least 1 pixel wide and tall). */
export const resizedBox = (box: LayerBox, handle: Handle, dx: number, dy: number): LayerBox => {
  let { left, top, width, height } = box;
  if (handle.includes("e")) width = Math.max(1, width + dx);
  if (handle.includes("s")) height = Math.max(1, height + dy);
  if (handle.includes("w")) {
    const w = Math.max(1, width - dx);
    left += width - w;
    width = w;
  }
  if (handle.includes("n")) {
    const h = Math.max(1, height - dy);
    top += height - h;
    height = h;
  }
  return { ...box, left, top, width, height };
};

/**
 * The change that gives `layer` the box `next`. Text: a side handle sets the wrap width (and turns wrapping on), a
 * corner scales the font size with the box's height; every other layer gets the new width and height.
 */
export const resizeLayer = (
  layer: JsonObject,
  box: LayerBox,
  next: LayerBox,
  canvas: Canvas,
  handle: Handle,
): Record<string, unknown> => {
  if (layer.type === "text") {
    if (handle === "e" || handle === "w")
      return {
        width: round(next.width),
        wrap: true,
        ...placeAt(layer, canvas, next.left, next.top, next.width, next.height),
      };
    const scale = next.height / Math.max(1, box.height);
    const fontSize = Math.max(1, round(num(layer.fontSize, 24) * scale, 1));
    const width = typeof layer.width === "number" ? { width: round(layer.width * scale) } : {};
    const height = box.height * (fontSize / num(layer.fontSize, 24));
    const w = box.width * (fontSize / num(layer.fontSize, 24));
    // The corner opposite the handle stays put.
    const left = handle.includes("w") ? box.left + box.width - w : box.left;
    const top = handle.includes("n") ? box.top + box.height - height : box.top;
    return { fontSize, ...width, ...placeAt(layer, canvas, left, top, w, height) };
  }
  return {
    width: round(next.width),
    height: round(next.height),
    ...placeAt(layer, canvas, next.left, next.top, next.width, next.height),
  };
};

/** A guide line drawn while snapping: vertical at x, or horizontal at y (canvas pixels). */
export type Guide = { axis: "x"; at: number } | { axis: "y"; at: number };

/** Lines a moving box snaps to: the canvas's edges and centre, and each other box's edges and centre. */
export const snapTargets = (canvas: Canvas, others: LayerBox[]) => ({
  x: [
    0,
    canvas.width / 2,
    canvas.width,
    ...others.flatMap((b) => [b.left, b.left + b.width / 2, b.left + b.width]),
  ],
  y: [
    0,
    canvas.height / 2,
    canvas.height,
    ...others.flatMap((b) => [b.top, b.top + b.height / 2, b.top + b.height]),
  ],
});

/** The shift (within `threshold`) that brings one of `edges` onto one of `targets`, and where. */
const nearest = (edges: number[], targets: number[], threshold: number) => {
  let best: { shift: number; at: number } | null = null;
  for (const edge of edges)
    for (const target of targets)
      if (Math.abs(target - edge) <= threshold && (!best || Math.abs(target - edge) < Math.abs(best.shift)))
        best = { shift: target - edge, at: target };
  return best;
};

/**
 * dx, dy adjusted so the moved box's left, centre or right (top, middle or bottom) lands on a target when one is
 * within `threshold` canvas pixels, with the guides that snapped.
 */
export const snapMove = (
  box: LayerBox,
  dx: number,
  dy: number,
  targets: { x: number[]; y: number[] },
  threshold: number,
): { dx: number; dy: number; guides: Guide[] } => {
  const x = nearest(
    [box.left + dx, box.left + dx + box.width / 2, box.left + dx + box.width],
    targets.x,
    threshold,
  );
  const y = nearest(
    [box.top + dy, box.top + dy + box.height / 2, box.top + dy + box.height],
    targets.y,
    threshold,
  );
  const guides: Guide[] = [];
  if (x) guides.push({ axis: "x", at: x.at });
  if (y) guides.push({ axis: "y", at: y.at });
  return { dx: dx + (x?.shift ?? 0), dy: dy + (y?.shift ?? 0), guides };
};

/** dx, dy adjusted so the edges `handle` moves land on a target within `threshold`. */
export const snapResize = (
  box: LayerBox,
  handle: Handle,
  dx: number,
  dy: number,
  targets: { x: number[]; y: number[] },
  threshold: number,
): { dx: number; dy: number; guides: Guide[] } => {
  const guides: Guide[] = [];
  let sx = dx;
  let sy = dy;
  const edgeX = handle.includes("e") ? box.left + box.width : handle.includes("w") ? box.left : null;
  const edgeY = handle.includes("s") ? box.top + box.height : handle.includes("n") ? box.top : null;
  if (edgeX !== null) {
    const x = nearest([edgeX + dx], targets.x, threshold);
    if (x) {
      sx = dx + x.shift;
      guides.push({ axis: "x", at: x.at });
    }
  }
  if (edgeY !== null) {
    const y = nearest([edgeY + dy], targets.y, threshold);
    if (y) {
      sy = dy + y.shift;
      guides.push({ axis: "y", at: y.at });
    }
  }
  return { dx: sx, dy: sy, guides };
};
