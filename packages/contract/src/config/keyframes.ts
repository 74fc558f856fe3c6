/**
 * The grammar of keyframed properties (issue 45 §1; the maths is ../keyframes.ts): a number as before, or
 * 1..MAX_KEYFRAMES keyframes `{ time, value, easing? }`, times strictly increasing, within the layer. Chosen by
 * the input's type (a list or not) so each form reports its own field; the served JSON Schema states it as
 * `anyOf` (`ANIMATED_FORMS`, src/schemas/json-schemas.ts).
 */
import * as v from "valibot";
import { EASING_NAMES, EASING_PATTERN, isKeyframed, parseEasing, type Animated } from "../keyframes.ts";
import {
  Fraction,
  list,
  numberIn,
  oneOf,
  Opacity,
  POSITION_NAMES,
  Rotation,
  Seconds,
  strict,
  Volume,
} from "./common.ts";
import { MAX_KEYFRAMES, MAX_LAYER_SCALE, MAX_VOLUME } from "./limits.ts";
import type { RuleIssue } from "./rules.ts";

const EASING_MESSAGE = `must be one of ${EASING_NAMES.map((n) => `"${n}"`).join(", ")} or "cubic-bezier(x1, y1, x2, y2)" with x1 and x2 from 0 to 1`;

/** A keyframe's easing towards the next keyframe (default `linear`). */
export const EasingSchema = v.pipe(
  v.string(EASING_MESSAGE),
  // The form, which the JSON Schema states too; then the ranges of the curve's points.
  v.regex(new RegExp(EASING_PATTERN), EASING_MESSAGE),
  v.rawCheck(({ dataset, addIssue }) => {
    if (dataset.typed && !dataset.issues && parseEasing(dataset.value) === null)
      addIssue({ message: EASING_MESSAGE });
  }),
  v.description(
    'How the value moves from this keyframe to the next: "linear" (default), "ease-in", "ease-out", "ease-in-out" (CSS\'s curves), "cubic-bezier(x1, y1, x2, y2)", or "step" (holds until the next keyframe).',
  ),
);

type NumberSchema = v.GenericSchema<unknown, number>;

const keyframesOf = <S extends NumberSchema>(value: S) =>
  v.pipe(
    list(
      strict("keyframe", { time: Seconds, value, easing: v.optional(EasingSchema) }),
      1,
      MAX_KEYFRAMES,
      "keyframes",
    ),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const frames = dataset.value as { time: number }[];
      frames.forEach((k, i) => {
        const before = frames[i - 1];
        if (before && k.time <= before.time)
          addIssue({
            message: `must be greater than the previous keyframe's time (${before.time}): keyframes are in time order`,
            path: [
              { type: "array", origin: "value", input: frames, key: i, value: k },
              { type: "object", origin: "value", input: k, key: "time", value: k.time },
            ],
          });
      });
    }),
  );

/** What a keyframed property is, for the JSON Schema's `description`. */
export const ANIMATED_DESCRIPTION = `A number, or up to ${MAX_KEYFRAMES} keyframes [{"time": seconds from the layer's start, "value": number, "easing": ...}] in time order: the first value holds before the first keyframe, the last after the last.`;

/**
 * The two forms of every keyframed property, keyed by its schema, for the JSON Schema (src/schemas/json-schemas.ts:
 * a `v.lazy` converts to its getter's answer for no input, so it is overridden whole).
 */
export const ANIMATED_FORMS = new Map<
  v.GenericSchema,
  { value: v.GenericSchema; keyframes: v.GenericSchema }
>();

/**
 * `value`, or a list of keyframes whose values are `keyframeValue` (default `value`; mixVolume's keyframes take
 * numbers only, not its decibel strings).
 */
export const animated = <S extends NumberSchema, K extends NumberSchema = S>(
  value: S,
  keyframeValue: K = value as unknown as K,
) => {
  const keyframes = keyframesOf(keyframeValue);
  const schema = v.lazy((input: unknown) => (Array.isArray(input) ? keyframes : value));
  ANIMATED_FORMS.set(schema, { value, keyframes });
  return schema;
};

/** 0 (transparent) to 1 (as drawn). */
export const AnimatedOpacity = animated(Opacity);
/** Degrees clockwise about the layer's centre. */
export const AnimatedRotation = animated(Rotation);
/** Size factor about the layer's centre (1 = as laid out). */
export const AnimatedScale = animated(numberIn(0, MAX_LAYER_SCALE));
/** A volume, or keyframes of volume factors (0..MAX_VOLUME). */
export const AnimatedVolume = animated(Volume, numberIn(0, MAX_VOLUME));
const AnimatedFraction = animated(Fraction);

/** `{x, y}` of a video layer's position, each a fraction or keyframes of fractions. */
export const AnimatedPositionObject = strict("position", {
  x: AnimatedFraction,
  y: AnimatedFraction,
  originX: v.optional(oneOf(["left", "center", "right"])),
  originY: v.optional(oneOf(["top", "center", "bottom"])),
});

const PositionName = v.picklist(
  POSITION_NAMES,
  `must be one of ${POSITION_NAMES.map((n) => `"${n}"`).join(", ")} or an object {x, y, originX?, originY?}`,
);

/** A video layer's `position`: a preset, or `{x, y}` whose x and y may be keyframed. */
export const AnimatedPosition = v.lazy((input: unknown) =>
  typeof input === "string" ? PositionName : AnimatedPositionObject,
);

/** `opacity`, `rotation` and `scale`: what every visual video layer takes. */
export const motionEntries = {
  opacity: v.optional(AnimatedOpacity),
  rotation: v.optional(AnimatedRotation),
  scale: v.optional(AnimatedScale),
};

/** Every keyframable property, by its path under the layer, in the order the builder offers them. */
const ANIMATABLE_PATHS: readonly (readonly string[])[] = [
  ["opacity"],
  ["rotation"],
  ["scale"],
  ["position", "x"],
  ["position", "y"],
  ["width"],
  ["height"],
  ["mixVolume"],
];

/**
 * The keyframable properties of a layer type, read off its entries (video-layer-types.ts): those whose schema is
 * `animated`, and a position's x and y where it is `AnimatedPosition`.
 */
export const animatablePaths = (entries: Readonly<Record<string, unknown>>): (readonly string[])[] => {
  const schemaOf = (key: string): unknown => {
    const entry = entries[key];
    // An optional property's schema is its wrapped one.
    return entry !== null && typeof entry === "object" && "wrapped" in entry ? entry.wrapped : entry;
  };
  return ANIMATABLE_PATHS.filter(([key, axis]) => {
    const schema = schemaOf(key!);
    return axis ? schema === AnimatedPosition : ANIMATED_FORMS.has(schema as v.GenericSchema);
  });
};

/** The keyframed properties of a layer: `[path under the layer, keyframes]`. */
export const layerKeyframes = (layer: Record<string, unknown>): [string[], readonly { time: number }[]][] => {
  const out: [string[], readonly { time: number }[]][] = [];
  for (const key of ["opacity", "rotation", "scale", "mixVolume", "width", "height"]) {
    const value = layer[key] as Animated | undefined;
    if (isKeyframed(value)) out.push([[key], value]);
  }
  const position = layer.position;
  if (position !== null && typeof position === "object") {
    for (const axis of ["x", "y"]) {
      const value = (position as Record<string, unknown>)[axis] as Animated | undefined;
      if (isKeyframed(value)) out.push([["position", axis], value]);
    }
  }
  return out;
};

/**
 * Keyframes past the end of a layer that lasts `length` seconds (known: its `stop`, its clip's `duration`, the
 * video's length for a global layer): each is refused, naming its time.
 */
export const keyframeIssues = (layer: Record<string, unknown>, length: number): RuleIssue[] => {
  const out: RuleIssue[] = [];
  for (const [path, frames] of layerKeyframes(layer)) {
    frames.forEach((k, i) => {
      if (k.time > length + 1e-9)
        out.push({
          path: [...path, i, "time"],
          message: `must be within the layer: it lasts ${Math.round(length * 1000) / 1000} s from its start`,
        });
    });
  }
  return out;
};
