import { describe, expect, it } from "vitest";
import { validateJobConfig } from "../../../src/config/index.ts";
import { animatablePaths, layerKeyframes } from "../../../src/config/keyframes.ts";
import { newVideoLayer, VIDEO_LAYER_TYPES } from "../../../src/config/video-layer-types.ts";

const config = (layer: Record<string, unknown>, clip: Record<string, unknown> = { duration: 4 }) => ({
  clips: [{ ...clip, layers: [{ type: "fill-color", color: "red" }, layer] }],
});
const errorsOf = (c: unknown) => {
  const result = validateJobConfig("video", c);
  if (result.valid) throw new Error("expected the config to be rejected");
  return result.errors.map((e) => [e.field, e.message]);
};
const title = (extra: Record<string, unknown>) => ({ type: "title", text: "Hi", ...extra });
const ramp = (...values: number[]) => values.map((value, i) => ({ time: i, value }));

describe("keyframed layer properties", () => {
  it("accepts opacity, rotation, scale and position x/y as numbers or keyframes with every easing", () => {
    const easings = [
      "linear",
      "ease-in",
      "ease-out",
      "ease-in-out",
      "step",
      "cubic-bezier(0.2, -0.4, 0.6, 1.4)",
    ];
    const layer = title({
      opacity: easings.map((easing, i) => ({ time: i * 0.5, value: i % 2, easing })),
      rotation: 45,
      scale: ramp(1, 2),
      position: { x: ramp(0, 1), y: 0.5, originX: "center" },
    });
    const result = validateJobConfig("video", config(layer));
    // The normal form keeps the keyframes as written.
    expect(result).toMatchObject({ valid: true, config: { clips: [{ layers: [{}, layer] }] } });
  });

  it("accepts width and height keyframes on video, image and image-overlay layers, pixels on an overlay", () => {
    const video = {
      type: "video",
      path: "https://example.com/a.mp4",
      width: ramp(1, 0.5),
      height: ramp(0.5, 1),
    };
    const overlay = { type: "image-overlay", path: "https://example.com/a.png", width: ramp(200, 0.5) };
    expect(validateJobConfig("video", config(video)).valid).toBe(true);
    expect(validateJobConfig("video", config(overlay)).valid).toBe(true);
    expect(
      errorsOf(config({ type: "image", path: "https://example.com/a.png", height: ramp(0.5, 2) })),
    ).toEqual([["config.clips[0].layers[1].height[1].value", "must be at most 1"]]);
  });

  it("accepts them on global layers, and mixVolume keyframes on audio layers", () => {
    const c = {
      clips: [
        {
          duration: 3,
          layers: [{ type: "audio", path: "https://example.com/a.mp3", mixVolume: ramp(0, 1, 0.5) }],
        },
      ],
      globalLayers: [{ type: "image-overlay", path: "https://example.com/a.png", opacity: ramp(0, 1) }],
    };
    expect(validateJobConfig("video", c).valid).toBe(true);
  });

  it("names the field of a keyframe out of order, out of range, or with an unknown easing", () => {
    const layer = title({
      opacity: [
        { time: 1, value: 0.5 },
        { time: 1, value: 2 },
        { time: 0.5, value: 1, easing: "bounce" },
      ],
    });
    expect(errorsOf(config(layer))).toEqual([
      ["config.clips[0].layers[1].opacity[1].value", "must be at most 1"],
      [
        "config.clips[0].layers[1].opacity[2].easing",
        'must be one of "linear", "ease-in", "ease-out", "ease-in-out", "step" or "cubic-bezier(x1, y1, x2, y2)" with x1 and x2 from 0 to 1',
      ],
      [
        "config.clips[0].layers[1].opacity[1].time",
        "must be greater than the previous keyframe's time (1): keyframes are in time order",
      ],
      [
        "config.clips[0].layers[1].opacity[2].time",
        "must be greater than the previous keyframe's time (1): keyframes are in time order",
      ],
    ]);
    expect(
      errorsOf(
        config(
          title({
            rotation: [
              { time: 1, value: 0 },
              { time: 0.5, value: 1 },
            ],
          }),
        ),
      ),
    ).toEqual([
      [
        "config.clips[0].layers[1].rotation[1].time",
        "must be greater than the previous keyframe's time (1): keyframes are in time order",
      ],
    ]);
    expect(errorsOf(config(title({ position: { x: [{ time: 0, value: 0.5, extra: 1 }], y: 0 } })))).toEqual([
      ["config.clips[0].layers[1].position.x[0].extra", 'Unknown property "extra" in keyframe'],
    ]);
    expect(errorsOf(config(title({ scale: [] })))).toEqual([
      ["config.clips[0].layers[1].scale", "must contain at least 1 keyframes"],
    ]);
  });

  it("refuses more than 100 keyframes on one property", () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ time: i / 100, value: 1 }));
    expect(errorsOf(config(title({ scale: many })))).toEqual([
      ["config.clips[0].layers[1].scale", "must contain at most 100 keyframes"],
    ]);
  });

  it("refuses a keyframe past the end of its layer, by its stop or its clip's duration", () => {
    expect(errorsOf(config(title({ start: 1, stop: 2, opacity: ramp(0, 1, 0) })))).toEqual([
      ["config.clips[0].layers[1].opacity[2].time", "must be within the layer: it lasts 1 s from its start"],
    ]);
    expect(errorsOf(config(title({ position: { x: ramp(0, 0, 0, 0, 0, 1), y: 0 } })))).toEqual([
      [
        "config.clips[0].layers[1].position.x[5].time",
        "must be within the layer: it lasts 4 s from its start",
      ],
    ]);
    const global = {
      clips: [{ duration: 2, layers: [{ type: "pause" }] }],
      globalLayers: [title({ scale: ramp(1, 1, 1, 2) })],
    };
    expect(errorsOf(global)).toEqual([
      ["config.globalLayers[0].scale[3].time", "must be within the layer: it lasts 2 s from its start"],
    ]);
  });

  it("leaves a clip sized by its video's file to the renderer", () => {
    const c = {
      clips: [
        {
          layers: [{ type: "video", path: "https://example.com/a.mp4", opacity: ramp(0, 0, 0, 0, 0, 0, 1) }],
        },
      ],
    };
    expect(validateJobConfig("video", c).valid).toBe(true);
  });

  it("keeps detached-audio's mixVolume a plain volume", () => {
    const layer = { type: "detached-audio", path: "https://example.com/a.mp3", mixVolume: ramp(0, 1) };
    expect(errorsOf(config(layer))[0]?.[0]).toBe("config.clips[0].layers[1].mixVolume");
  });

  it("lists a layer's keyframed properties by their path", () => {
    expect(
      layerKeyframes({ opacity: 1, scale: ramp(1, 2), position: { x: ramp(0, 1), y: 0.2 } }).map(([p]) => p),
    ).toEqual([["scale"], ["position", "x"]]);
  });
});

describe("animatablePaths", () => {
  const keys = (type: keyof typeof VIDEO_LAYER_TYPES) =>
    animatablePaths(VIDEO_LAYER_TYPES[type].entries).map((path) => path.join("."));

  it("reads a type's keyframable properties off its table entry, in the builder's order", () => {
    expect(keys("video")).toEqual([
      "opacity",
      "rotation",
      "scale",
      "position.x",
      "position.y",
      "width",
      "height",
    ]);
    expect(keys("title")).toEqual(["opacity", "rotation", "scale", "position.x", "position.y"]);
    expect(keys("gl")).toEqual(["opacity", "rotation", "scale"]);
    expect(keys("audio")).toEqual(["mixVolume"]);
    expect(keys("detached-audio")).toEqual([]);
  });

  it("offers only what the grammar accepts as keyframes, for every type of the table", () => {
    const refused = Object.keys(VIDEO_LAYER_TYPES).flatMap((type) =>
      keys(type as keyof typeof VIDEO_LAYER_TYPES).flatMap((key) => {
        const [name, axis] = key.split(".");
        const frames = ramp(0.2, 0.4);
        const value = axis ? { [name!]: { x: 0.5, y: 0.5, [axis]: frames } } : { [name!]: frames };
        const layer = { ...newVideoLayer(type, () => "/image/2026-01-01/u/a.png"), ...value };
        const result = validateJobConfig("video", { clips: [{ duration: 2, layers: [layer] }] });
        return result.valid ? [] : [`${type}.${key}: ${result.errors.map((e) => e.message).join("; ")}`];
      }),
    );
    expect(refused).toEqual([]);
  });
});
