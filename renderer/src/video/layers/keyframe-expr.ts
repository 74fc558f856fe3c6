/**
 * Keyframed values (the contract's keyframes.ts) as ffmpeg expressions (pure): the same maths as `valueAt`,
 * evaluated by ffmpeg per frame (overlay x/y, rotate's angle, scale's size with eval=frame, setpts for opacity,
 * volume with eval=frame), so a keyframed layer costs what the static layer costs plus a few expression
 * evaluations a frame. A Bézier segment finds its curve parameter with the contract's bisection (BEZIER_STEPS
 * halvings in ffmpeg's `while`, registers 0-4), so both give the same number.
 */
import {
  BEZIER_STEPS,
  isKeyframed,
  parseEasing,
  type Animated,
  type Keyframe,
} from "@media-render/contract/keyframes";
import { ffNumber } from "../values.ts";

/** ffmpeg's form of the contract's `bezierAt(a, b, s)`, term for term. */
const bezierAt = (a: number, b: number, s: string): string =>
  `(3*(1-${s})*(1-${s})*${s}*${ffNumber(a)}+3*(1-${s})*${s}*${s}*${ffNumber(b)}+${s}*${s}*${s})`;

/** The value from keyframe `startKey` to `endKey` at time `time` (an expression), along `startKey`'s easing. */
const segment = (startKey: Keyframe, endKey: Keyframe, time: string): string => {
  const easing = parseEasing(startKey.easing) ?? { kind: "linear" as const };
  const from = ffNumber(startKey.value);
  const delta = ffNumber(endKey.value - startKey.value);
  const progress = `(${time}-${ffNumber(startKey.time)})/${ffNumber(endKey.time - startKey.time)}`;
  if (easing.kind === "step") return from;
  if (easing.kind === "linear") return `${from}+${delta}*(${progress})`;
  // st(0) progress, st(1)/st(2) the bracket, st(3) the step count, st(4) the midpoint: bezierEase's loop.
  const mid = "ld(4)";
  const loop =
    `st(0,${progress});st(1,0);st(2,1);st(3,0);` +
    `while(lt(ld(3),${BEZIER_STEPS}),st(4,(ld(1)+ld(2))/2);` +
    `if(lt(${bezierAt(easing.x1, easing.x2, mid)},ld(0)),st(1,${mid}),st(2,${mid}));st(3,ld(3)+1));` +
    `st(4,(ld(1)+ld(2))/2);`;
  return `(${loop}${from}+${delta}*${bezierAt(easing.y1, easing.y2, mid)})`;
};

/**
 * `value` at the time `time` (an expression in seconds from the layer's start) as an ffmpeg expression: a number
 * as it is; keyframes as nested `if`s, the first value before the first keyframe, the last after the last.
 */
export const keyframeExpr = (value: Animated, time: string): string => {
  if (!isKeyframed(value)) return ffNumber(value);
  const frames = value;
  let expr = ffNumber(frames[frames.length - 1]!.value);
  for (let i = frames.length - 2; i >= 0; i--)
    expr = `if(lt(${time},${ffNumber(frames[i + 1]!.time)}),${segment(frames[i]!, frames[i + 1]!, time)},${expr})`;
  return `if(lte(${time},${ffNumber(frames[0]!.time)}),${ffNumber(frames[0]!.value)},${expr})`;
};

/**
 * Seconds from the layer's start of the frame at time `t` (an expression of the filter's time variable, timestamps
 * in whole frames of the clip at `fps`), snapped to its frame number so it is exactly `frame / fps`, as the
 * builder and the contract's tests compute it.
 */
export const layerTime = (t: string, fps: number, startFrame: number): string =>
  `((round(${t}*${fps})-${startFrame})/${fps})`;

/**
 * ffmpeg's `volume` at a layer's `mixVolume`: a gain, or keyframes evaluated at each audio frame's time (the chain's
 * timestamps start at 0 at the layer's start), never below 0.
 */
export const volumeFilter = (value: Animated): string =>
  isKeyframed(value)
    ? `volume='${clipped(keyframeExpr(value, "t"), 0, 1e6)}':eval=frame`
    : `volume=${ffNumber(value)}`;

/** `expr` clamped to [lo, hi]. */
export const clipped = (expr: string, lo: number, hi: number): string =>
  `clip(${expr},${ffNumber(lo)},${ffNumber(hi)})`;
