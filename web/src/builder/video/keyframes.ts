/**
 * Keyframes of the selected layer as the timeline edits them (pure): which properties a layer can animate, where
 * the layer starts on the video's timeline, and the edits (add at the playhead with the value shown there, move,
 * delete, change the easing or the value). Values between keyframes are the contract's `valueAt`, the maths the
 * renderer compiles into its graph, so the value the lane shows at the playhead is the one the frame draws.
 */
import { animatablePaths } from "@media-render/contract/config/keyframes";
import { videoLayerType } from "@media-render/contract/config/video-layer-types";
import { isObject, type JsonObject, type Path } from "../model/paths.ts";
import { EASING_NAMES, valueAt, type Animated, type Keyframe, type Timeline } from "../service-code.ts";

/** An animatable property: its path under the layer and its default (the value when the layer leaves it out). */
export interface Animatable {
  key: string;
  path: Path;
  rest: number;
}

/** A property's value where the layer leaves it out (a keyframed size starts from the whole frame's). */
const REST: Readonly<Record<string, number>> = {
  opacity: 1,
  rotation: 0,
  scale: 1,
  "position.x": 0.5,
  "position.y": 0.5,
  width: 1,
  height: 1,
  mixVolume: 1,
};

/** The easings a keyframe may take (the contract's names; `cubic-bezier(...)` is typed in the JSON view). */
export const EASINGS: readonly string[] = EASING_NAMES;

/**
 * What `layer` can animate: the properties its type's entries take as keyframes (the contract's table: motion on
 * every visual layer, position and size where the type has them, mixVolume on audio).
 */
export const animatables = (layer: JsonObject): Animatable[] => {
  const entries = videoLayerType(String(layer.type ?? ""))?.entries;
  return (entries ? animatablePaths(entries) : []).map((path) => {
    const key = path.join(".");
    return { key, path: [...path], rest: REST[key] ?? 0 };
  });
};

/** The property's keyframes, or null when it is a plain number or absent. */
export const keyframesOf = (layer: JsonObject, property: Animatable): Keyframe[] | null => {
  const value = property.path.reduce<unknown>((v, k) => (isObject(v) ? v[k as string] : undefined), layer);
  return Array.isArray(value) ? (value as Keyframe[]) : null;
};

/** The property as the renderer reads it: keyframes, its number, or its default. */
export const animatedOf = (layer: JsonObject, property: Animatable): Animated => {
  const value = property.path.reduce<unknown>((v, k) => (isObject(v) ? v[k as string] : undefined), layer);
  return Array.isArray(value) || typeof value === "number" ? (value as Animated) : property.rest;
};

/**
 * Seconds on the video's timeline where the layer at `path` starts (its clip's start plus its `start`; a global
 * layer's `start`), or null when `path` is not a layer.
 */
export const layerStart = (config: JsonObject, layout: Timeline, path: Path): number | null => {
  const own = (layer: unknown) => (isObject(layer) && typeof layer.start === "number" ? layer.start : 0);
  if (path.length === 2 && path[0] === "globalLayers") {
    const layers = config.globalLayers;
    return Array.isArray(layers) ? own(layers[path[1] as number]) : null;
  }
  if (path.length === 4 && path[0] === "clips" && path[2] === "layers") {
    const clip = (config.clips as unknown[] | undefined)?.[path[1] as number];
    const layers = isObject(clip) ? clip.layers : undefined;
    const timing = layout.clips[path[1] as number];
    return Array.isArray(layers) && timing ? timing.start + own(layers[path[3] as number]) : null;
  }
  return null;
};

/** `t` rounded to the frame grid of `fps` (and to milliseconds, as the config writes seconds). */
const onFrame = (t: number, fps: number) =>
  Math.round((Math.round(Math.max(0, t) * fps) / fps) * 1000) / 1000;

/**
 * The keyframes with one added at layer time `at` (on the frame grid), holding the value shown there; a plain value
 * becomes its first keyframe. A keyframe already at that frame is left as it is.
 */
export const addKeyframe = (current: Animated, at: number, fps: number): Keyframe[] => {
  const time = onFrame(at, fps);
  const list = Array.isArray(current) ? [...current] : [];
  if (list.some((k) => Math.abs(k.time - time) < 1e-9)) return list;
  const value = Math.round(valueAt(current, time) * 1e4) / 1e4;
  // The easing a segment had stays with the keyframe that starts it: the new one takes it over its own part.
  const next = list.findIndex((k) => k.time > time);
  const before = next === -1 ? list.at(-1) : list[next - 1];
  const frame: Keyframe = before?.easing ? { time, value, easing: before.easing } : { time, value };
  list.splice(next === -1 ? list.length : next, 0, frame);
  return list;
};

/** Keyframe `i` moved to layer time `at`: on the frame grid, strictly between its neighbours, never below 0. */
export const moveKeyframe = (list: readonly Keyframe[], i: number, at: number, fps: number): Keyframe[] => {
  const step = 1 / fps;
  const lo = i > 0 ? list[i - 1]!.time + step : 0;
  const hi = i + 1 < list.length ? list[i + 1]!.time - step : Number.POSITIVE_INFINITY;
  const time = onFrame(Math.min(hi, Math.max(lo, at)), fps);
  if (time < lo - 1e-9 || time > hi + 1e-9) return [...list];
  return list.map((k, n) => (n === i ? { ...k, time } : k));
};

/** The keyframes without keyframe `i`; the last one removed leaves its value as a plain number. */
export const removeKeyframe = (list: readonly Keyframe[], i: number): Keyframe[] | number => {
  if (list.length <= 1) return list[0]?.value ?? 0;
  return list.filter((_, n) => n !== i);
};

/** Keyframe `i` with `patch` (its easing, its value); `linear` is written as no easing (the default). */
export const patchKeyframe = (
  list: readonly Keyframe[],
  i: number,
  patch: { easing?: string; value?: number },
): Keyframe[] =>
  list.map((keyframe, index) => {
    if (index !== i) return keyframe;
    const next = { ...keyframe, ...patch };
    if (next.easing === "linear") delete next.easing;
    return next;
  });
