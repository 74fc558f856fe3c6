/**
 * Keyframed values (issue 45 §1), pure: what an animatable layer property is worth at a time. The renderer
 * compiles the same maths into ffmpeg expressions (renderer/src/video/layers/keyframe-expr.ts) and the builder
 * draws its preview with `valueAt`, so a frame shows the same value in both.
 *
 * A property is a number or a list of keyframes `{ time, value, easing }` (times in seconds from the layer's
 * start, strictly increasing). Before the first keyframe the first value holds, after the last the last; between
 * keyframe i and i+1 the value moves from value i to value i+1 along keyframe i's easing.
 */

/** One keyframe: seconds from the layer's start, the value there, the easing towards the next keyframe. */
export interface Keyframe {
  time: number;
  value: number;
  /** Default `linear`. */
  easing?: string;
}

/** A property that may be keyframed. */
export type Animated = number | readonly Keyframe[];

/** The named easings (CSS's curves for the `ease-*` names). */
export const EASING_NAMES = ["linear", "ease-in", "ease-out", "ease-in-out", "step"] as const;

/** A cubic Bézier from (0,0) to (1,1) through (x1,y1) and (x2,y2), as CSS's `cubic-bezier()`. */
export interface Bezier {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** An easing as the maths reads it. `step` holds the keyframe's value until the next keyframe. */
export type Easing = { kind: "linear" } | { kind: "step" } | ({ kind: "bezier" } & Bezier);

/** CSS's control points of the named curves. */
export const NAMED_CURVES: Record<"ease-in" | "ease-out" | "ease-in-out", Bezier> = {
  "ease-in": { x1: 0.42, y1: 0, x2: 1, y2: 1 },
  "ease-out": { x1: 0, y1: 0, x2: 0.58, y2: 1 },
  "ease-in-out": { x1: 0.42, y1: 0, x2: 0.58, y2: 1 },
};

/** Bounds of a `cubic-bezier()` control point's y (x is 0..1, as in CSS, so the curve is a function of time). */
export const BEZIER_MAX_Y = 10;

const NUMBER = "\\s*(-?(?:\\d+(?:\\.\\d*)?|\\.\\d+))\\s*";
/** `cubic-bezier(x1, y1, x2, y2)`; the grammar also holds x1 and x2 to 0..1 and y to ±BEZIER_MAX_Y. */
export const CUBIC_BEZIER_PATTERN = new RegExp(`^cubic-bezier\\(${NUMBER},${NUMBER},${NUMBER},${NUMBER}\\)$`);

const CONTROL_X = "\\s*(?:0(?:\\.\\d*)?|1(?:\\.0*)?|\\.\\d+)\\s*";
const CONTROL_Y = "\\s*-?(?:\\d(?:\\.\\d*)?|10(?:\\.0*)?|\\.\\d+)\\s*";
/**
 * Every easing the grammar accepts, as one pattern (the served JSON Schema states it): the names, and
 * `cubic-bezier()` with x1 and x2 from 0 to 1 and y1 and y2 from -BEZIER_MAX_Y to BEZIER_MAX_Y.
 */
export const EASING_PATTERN = `^(?:${EASING_NAMES.join("|")})$|^cubic-bezier\\(${CONTROL_X},${CONTROL_Y},${CONTROL_X},${CONTROL_Y}\\)$`;

/** The easing a keyframe's `easing` names, or null when it names none (the grammar refuses it). */
export const parseEasing = (easing: string | undefined): Easing | null => {
  if (easing === undefined || easing === "linear") return { kind: "linear" };
  if (easing === "step") return { kind: "step" };
  if (easing in NAMED_CURVES) return { kind: "bezier", ...NAMED_CURVES[easing as keyof typeof NAMED_CURVES] };
  const match = CUBIC_BEZIER_PATTERN.exec(easing);
  if (!match) return null;
  const [x1, y1, x2, y2] = match.slice(1).map(Number) as [number, number, number, number];
  if (x1 < 0 || x1 > 1 || x2 < 0 || x2 > 1) return null;
  if (Math.abs(y1) > BEZIER_MAX_Y || Math.abs(y2) > BEZIER_MAX_Y) return null;
  return { kind: "bezier", x1, y1, x2, y2 };
};

/**
 * Bisection steps that find the curve's parameter for a time: 2^-30 of the segment, far below a frame. A fixed
 * count, so the renderer's expression (the same loop in ffmpeg's `while`) gives the same number.
 */
export const BEZIER_STEPS = 30;

/** The curve's coordinate at parameter `param` for control coordinates `control1`, `control2` (endpoints 0 and 1). */
export const bezierAt = (control1: number, control2: number, param: number): number => {
  const complement = 1 - param;
  return (
    3 * complement * complement * param * control1 +
    3 * complement * param * param * control2 +
    param * param * param
  );
};

/** A Bézier easing at `progress` (0..1): y where x = progress, found by bisection (x rises with the parameter when x1, x2 ∈ [0,1]). */
export const bezierEase = (curve: Bezier, progress: number): number => {
  // The ends exactly (the renderer's segments end where the next keyframe's begins, so it never asks there).
  if (progress <= 0) return 0;
  if (progress >= 1) return 1;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < BEZIER_STEPS; i++) {
    const mid = (lo + hi) / 2;
    if (bezierAt(curve.x1, curve.x2, mid) < progress) lo = mid;
    else hi = mid;
  }
  return bezierAt(curve.y1, curve.y2, (lo + hi) / 2);
};

/** The eased progress of `easing` at `progress` (0..1). */
export const ease = (easing: Easing, progress: number): number => {
  if (easing.kind === "linear") return progress;
  if (easing.kind === "step") return 0;
  return bezierEase(easing, progress);
};

/** Whether `value` is keyframed (a list) rather than a plain number. */
export const isKeyframed = (value: Animated | undefined): value is readonly Keyframe[] =>
  Array.isArray(value);

/**
 * The value of `value` at `time` seconds from the layer's start: a plain number at any time; keyframes held before
 * the first and after the last, eased between.
 */
export const valueAt = (value: Animated, time: number): number => {
  if (!isKeyframed(value)) return value;
  const first = value[0];
  if (!first) return Number.NaN;
  if (time <= first.time) return first.value;
  for (let i = 0; i + 1 < value.length; i++) {
    const keyframe = value[i]!;
    const next = value[i + 1]!;
    if (time >= next.time) continue;
    const progress = (time - keyframe.time) / (next.time - keyframe.time);
    const easing = parseEasing(keyframe.easing) ?? { kind: "linear" };
    return keyframe.value + (next.value - keyframe.value) * ease(easing, progress);
  }
  return value[value.length - 1]!.value;
};

/** The smallest and largest value `value` takes at any time (an overshooting curve may leave the keyframes'). */
export const valueRange = (value: Animated): { min: number; max: number } => {
  if (!isKeyframed(value)) return { min: value, max: value };
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  value.forEach((k, i) => {
    min = Math.min(min, k.value);
    max = Math.max(max, k.value);
    const next = value[i + 1];
    const easing = parseEasing(k.easing);
    if (!next || easing?.kind !== "bezier") return;
    // Sampled: enough to bound the overshoot of a curve, whose y is a cubic of its parameter.
    for (let sample = 0; sample <= 64; sample++) {
      const y = k.value + (next.value - k.value) * bezierAt(easing.y1, easing.y2, sample / 64);
      min = Math.min(min, y);
      max = Math.max(max, y);
    }
  });
  return { min, max };
};

/** `value` with every value (or the number) multiplied by `k`. */
export const scaleAnimated = (value: Animated, k: number): Animated =>
  isKeyframed(value) ? value.map((f) => ({ ...f, value: f.value * k })) : value * k;
