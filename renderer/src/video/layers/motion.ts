/**
 * A visual layer's `opacity`, `rotation`, `scale` and keyframed `position` (issue 45 §1), applied to the stream
 * its type's compiler made (pure apart from the context's chains): every layer type gets them from here, its
 * compiler only lays it out. Each property is a number or keyframes (keyframe-expr.ts), evaluated per frame by
 * the filter that uses it, at the frame's time from the layer's start, so a window of the timeline that starts
 * inside the layer draws the value of its first frame:
 * - rotation: `rotate` by the angle about the box's centre, onto a transparent square of the box's diagonal;
 * - scale: `scale` with `eval=frame` to the size at that frame (even, at least 2 px; under a pixel, overlay draws it
 *   off the frame), about the box's centre;
 * - opacity: the alpha plane multiplied by the value with `fade` over warped timestamps (pts = the value in
 *   seconds: fade-in from 0 over 1 s gives it), then the frame times put back, as subtitle.ts eases its band;
 * - position x/y: overlay's x and y, the anchor's keyframed fraction of the frame minus its origin's share of the box.
 */
import { isKeyframed, type Animated } from "@media-render/contract/keyframes";
import { evenDimension } from "@media-render/contract/geometry";
import type { GraphContext, LayerVideo, LayerWindow } from "../graph-context.ts";
import type { Layer } from "../types.ts";
import { ffNumber } from "../values.ts";
import { clipped, keyframeExpr, layerTime } from "./keyframe-expr.ts";
import { sizeFactors } from "./sizes.ts";

interface Motion {
  opacity?: Animated;
  rotation?: Animated;
  scale?: Animated;
  position?: unknown;
}

type Axis = { value: Animated; origin: number };

const ORIGIN: Record<string, number> = { left: 0, top: 0, center: 0.5, right: 1, bottom: 1 };

/** The keyframed axes of an object position (x, y), with their origin's share of the box (default the centre). */
const keyframedAxes = (position: unknown): { x?: Axis; y?: Axis } => {
  if (position === null || typeof position !== "object") return {};
  const typedPosition = position as { x: Animated; y: Animated; originX?: string; originY?: string };
  return {
    x: isKeyframed(typedPosition.x)
      ? { value: typedPosition.x, origin: ORIGIN[typedPosition.originX ?? "center"] ?? 0.5 }
      : undefined,
    y: isKeyframed(typedPosition.y)
      ? { value: typedPosition.y, origin: ORIGIN[typedPosition.originY ?? "center"] ?? 0.5 }
      : undefined,
  };
};

/** Whether `layer` moves, turns, scales or fades by these properties (else its compiler's stream is drawn as is). */
export const hasMotion = (layer: Layer): boolean => {
  const motion = layer as Motion;
  const axes = keyframedAxes(motion.position);
  return (
    (motion.opacity !== undefined && motion.opacity !== 1) ||
    (motion.rotation !== undefined && motion.rotation !== 0) ||
    (motion.scale !== undefined && motion.scale !== 1) ||
    axes.x !== undefined ||
    axes.y !== undefined ||
    sizeFactors(layer) !== null
  );
};

/**
 * `out` (a layer compiled at its laid-out box, `out.w` x `out.h`, default the frame) turned, scaled and faded, and
 * placed where its keyframed position puts it: a new stream and its overlay x/y expressions.
 */
export const withMotion = (
  layer: Layer,
  win: LayerWindow,
  ctx: GraphContext,
  out: LayerVideo,
): LayerVideo => {
  const motion = layer as Motion;
  const { width: W, height: H, fps } = ctx.spec;
  const w = out.w ?? W;
  const h = out.h ?? H;
  const filterTime = layerTime("t", fps, win.startFrame);
  const overlayTime = filterTime;
  const filters = ["format=yuva420p"];
  // The stream's box after turning: a square of the diagonal, so no corner is cut at any angle.
  let bw = w;
  let bh = h;
  if (motion.rotation !== undefined && motion.rotation !== 0) {
    const side = evenDimension(Math.ceil(Math.hypot(w, h)) + 1);
    // c=none would leave the corners unfilled, so a looped still's pooled buffers show its earlier angles there.
    filters.push(
      `rotate=a='(${keyframeExpr(motion.rotation, filterTime)})*PI/180':ow=${side}:oh=${side}:c=black@0:bilinear=1`,
    );
    [bw, bh] = [side, side];
  }
  // Drawn size per axis, as an expression of the filter's time variable (`t` in scale and in overlay alike): the
  // box times `scale` and times a keyframed width's or height's value over its first (sizes.ts).
  let sizeW = (_t: string): string => String(bw);
  let sizeH = (_t: string): string => String(bh);
  // Below a pixel on either axis (a scale or size keyframed to 0) the layer is drawn nowhere: overlay's x is put off
  // the frame, where the 2 px the scaled stream keeps would otherwise show as a speck.
  let hidden: ((t: string) => string) | null = null;
  const scale = motion.scale !== undefined && motion.scale !== 1 ? motion.scale : undefined;
  const resize = sizeFactors(layer);
  if (scale !== undefined || resize) {
    const factor = (own: ((t: string) => string) | undefined) => (time: string) =>
      [
        scale === undefined ? "" : `*${clipped(keyframeExpr(scale, time), 0, 1e3)}`,
        own ? `*${own(time)}` : "",
      ].join("");
    const side = (n: number, by: (t: string) => string) => (t: string) => `max(2,2*round(${n}${by(t)}/2))`;
    sizeW = side(bw, factor(resize?.x));
    sizeH = side(bh, factor(resize?.y));
    const [byX, byY] = [factor(resize?.x), factor(resize?.y)];
    hidden = (t) => `lt(min(${bw}${byX(t)},${bh}${byY(t)}),1)`;
    const eval_ = isKeyframed(scale) || resize ? ":eval=frame" : "";
    filters.push(`scale=w='${sizeW(filterTime)}':h='${sizeH(filterTime)}'${eval_}`);
  }
  if (motion.opacity !== undefined && motion.opacity !== 1) {
    const value = clipped(keyframeExpr(motion.opacity, layerTime("T", fps, win.startFrame)), 0, 1);
    filters.push(
      `settb=AVTB,setpts='${value}/TB'`,
      "fade=t=in:st=0:d=1:alpha=1",
      `settb=1/${fps},setpts=N+${win.startFrame + win.skip}`,
    );
  }
  const label = ctx.label("mo");
  ctx.chain(`[${out.label}]${filters.join(",")}[${label}]`);
  // The box's centre: where the compiler put it, or the keyframed anchor less its origin's share of the box.
  const axes = keyframedAxes(motion.position);
  const centre = (axis: Axis | undefined, placed: number | string, size: number, frame: number): string =>
    axis
      ? `${frame}*(${keyframeExpr(axis.value, overlayTime)})+${ffNumber((0.5 - axis.origin) * size)}`
      : `(${placed})+${ffNumber(size / 2)}`;
  const placedX = `${centre(axes.x, out.x, w, W)}-(${sizeW(overlayTime)})/2`;
  const x = hidden ? `if(${hidden(overlayTime)},${-4 * (W + bw)},${placedX})` : placedX;
  const y = `${centre(axes.y, out.y, h, H)}-(${sizeH(overlayTime)})/2`;
  // A caption preset's moving words (captions/word-motion.ts) are drawn after it as they were: captions take no motion.
  return { label, x, y, w: bw, h: bh, coversFrame: false, ...(out.more ? { more: out.more } : {}) };
};
