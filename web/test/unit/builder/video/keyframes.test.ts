/**
 * The timeline's keyframe edits (web/src/builder/video/keyframes.ts): what a layer can animate, where it starts on
 * the video's timeline, and adding (with the value shown at the playhead, the contract's valueAt), moving (on the
 * frame grid, between its neighbours), deleting and patching keyframes. Every result passes the grammar.
 */
import { describe, expect, it } from "vitest";
import { validateJobConfig } from "@media-render/contract/config";
import { buildTimeline } from "@media-render/contract/timeline";
import { valueAt } from "@media-render/contract/keyframes";
import {
  addKeyframe,
  animatables,
  animatedOf,
  keyframesOf,
  layerStart,
  moveKeyframe,
  patchKeyframe,
  removeKeyframe,
} from "../../../../src/builder/video/keyframes.ts";
import type { JsonObject } from "../../../../src/builder/model/paths.ts";

const title: JsonObject = {
  type: "title",
  text: "Hi",
  start: 0.5,
  opacity: [
    { time: 0, value: 0 },
    { time: 1, value: 1 },
  ],
};
const overlay: JsonObject = { type: "image-overlay", path: "/o.png", start: 1.5 };
const config: JsonObject = {
  fps: 25,
  clips: [
    { duration: 2, layers: [{ type: "pause" }] },
    { duration: 3, layers: [{ type: "fill-color", color: "red" }, title] },
  ],
  globalLayers: [overlay],
};
const layout = buildTimeline(config as never);

describe("what a layer animates and where it starts", () => {
  it("offers opacity, rotation and scale on visual layers, position and size where the layer has them, mixVolume on audio", () => {
    expect(animatables({ type: "fill-color" }).map((a) => a.key)).toEqual(["opacity", "rotation", "scale"]);
    expect(animatables({ type: "title" }).map((a) => a.key)).toEqual([
      "opacity",
      "rotation",
      "scale",
      "position.x",
      "position.y",
    ]);
    expect(animatables({ type: "image-overlay" }).map((a) => a.key)).toEqual([
      "opacity",
      "rotation",
      "scale",
      "position.x",
      "position.y",
      "width",
      "height",
    ]);
    expect(animatables({ type: "audio" }).map((a) => a.key)).toEqual(["mixVolume"]);
    expect(animatables({ type: "detached-audio" })).toEqual([]);
  });

  it("starts a clip layer at its clip's start plus its own, a global layer at its own", () => {
    expect(layerStart(config, layout, ["clips", 1, "layers", 1])).toBe(2.5);
    expect(layerStart(config, layout, ["globalLayers", 0])).toBe(1.5);
    expect(layerStart(config, layout, ["clips", 1])).toBeNull();
  });

  it("reads keyframes, a number, or the property's default", () => {
    const [opacity, rotation] = animatables(title);
    expect(keyframesOf(title, opacity!)).toHaveLength(2);
    expect(keyframesOf(title, rotation!)).toBeNull();
    expect(animatedOf(title, rotation!)).toBe(0);
  });
});

describe("editing keyframes", () => {
  const frames = [
    { time: 0, value: 0, easing: "ease-in" },
    { time: 1, value: 1 },
  ];

  it("adds a keyframe at the playhead holding the value shown there, on the frame grid", () => {
    const added = addKeyframe(frames, 0.505, 25);
    expect(added.map((k) => k.time)).toEqual([0, 0.52, 1]);
    expect(added[1]).toEqual({
      time: 0.52,
      value: Math.round(valueAt(frames, 0.52) * 1e4) / 1e4,
      easing: "ease-in",
    });
    expect(addKeyframe(0.3, 2, 25)).toEqual([{ time: 2, value: 0.3 }]);
    expect(addKeyframe(frames, 1, 25)).toEqual(frames);
  });

  it("moves a keyframe on the frame grid, no further than a frame from its neighbours", () => {
    expect(moveKeyframe(frames, 1, 0.333, 25)[1]!.time).toBe(0.32);
    expect(moveKeyframe(frames, 1, -5, 25)[1]!.time).toBe(0.04);
    expect(moveKeyframe(frames, 0, 3, 25)[0]!.time).toBe(0.96);
    expect(moveKeyframe(frames, 0, -1, 25)[0]!.time).toBe(0);
  });

  it("deletes a keyframe, the last one leaving its value", () => {
    expect(removeKeyframe(frames, 0)).toEqual([{ time: 1, value: 1 }]);
    expect(removeKeyframe([{ time: 1, value: 0.4 }], 0)).toBe(0.4);
  });

  it("sets an easing (linear as the default, unwritten) and a value", () => {
    expect(patchKeyframe(frames, 0, { easing: "linear" })[0]).toEqual({ time: 0, value: 0 });
    expect(patchKeyframe(frames, 1, { easing: "step", value: 0.5 })[1]).toEqual({
      time: 1,
      value: 0.5,
      easing: "step",
    });
  });

  it("keeps the config valid through a sequence of edits", () => {
    let list = addKeyframe(1, 0, 25);
    list = addKeyframe(list, 1.2, 25);
    list = patchKeyframe(list, 0, { easing: "ease-out", value: 0 });
    list = moveKeyframe(list, 1, 0.8, 25);
    const edited = { ...config, globalLayers: [{ ...overlay, opacity: list }] };
    expect(validateJobConfig("video", edited).valid).toBe(true);
  });
});
