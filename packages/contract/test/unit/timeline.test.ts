import { describe, expect, it } from "vitest";
import { evenDimension } from "../../src/geometry.ts";
import { buildTimeline, clipDuration, playableLength } from "../../src/timeline.ts";

const pause = [{ type: "pause" }];
const clips = (durations: number[], transition?: unknown) =>
  durations.map((duration) => ({ duration, layers: pause, ...(transition !== undefined && { transition }) }));
const fade = (duration?: number) => ({ name: "fade" as const, ...(duration !== undefined && { duration }) });

describe("buildTimeline", () => {
  it("overlaps clips by their transitions: total = Σ durations − Σ transitions, the last one ignored", () => {
    const t = buildTimeline({ fps: 30, clips: clips([3, 3, 3], fade(0.5)) });
    expect(t.clips.map((c) => c.startFrame)).toEqual([0, 75, 150]);
    expect(t.totalFrames).toBe(240);
    expect(t.duration).toBe(8);
    expect(t.clips[2]!.transition).toBeNull();
    expect(t.clips[1]!.inFrames).toBe(15);
    expect(t.clips.map((c) => c.start)).toEqual([0, 2.5, 5]);
  });

  it("clamps a transition to half of each neighbouring clip, in whole frames", () => {
    const t = buildTimeline({ fps: 10, clips: clips([1, 4], fade(3)) });
    expect(t.clips[0]!.transition).toMatchObject({ frames: 5, duration: 0.5 });
    expect(t.duration).toBe(4.5);
    // 25 fps: half of a 1 s clip is 12 whole frames (0.48 s), as the renderer draws it.
    const odd = buildTimeline({ clips: clips([2, 1, 6], fade(3)) });
    expect(odd.clips.map((c) => c.transition?.frames ?? null)).toEqual([12, 12, null]);
    expect(odd.totalFrames).toBe(225 - 24);
  });

  it("merges a clip's transition over defaults.transition and resolves the documented defaults", () => {
    const t = buildTimeline({
      defaults: { transition: { name: "wipeLeft", audioInCurve: "exp" } },
      clips: [
        { duration: 4, layers: pause, transition: { duration: 2 } },
        { duration: 4, layers: pause, transition: null },
        { duration: 4, layers: pause },
        { duration: 4, layers: pause },
      ],
    });
    expect(t.clips[0]!.transition).toEqual({
      name: "wipeLeft",
      frames: 50,
      duration: 2,
      audioOutCurve: "tri",
      audioInCurve: "exp",
    });
    expect(t.clips[1]!.transition).toBeNull();
    // 0.5 s is 12.5 frames at 25 fps: 13 whole frames, as drawn.
    expect(t.clips[2]!.transition).toMatchObject({ name: "wipeLeft", frames: 13, duration: 0.52 });
    expect(t.totalFrames).toBe(400 - 50 - 13);
  });

  it("cuts unless a transition is configured, and for a zero duration or null", () => {
    expect(buildTimeline({ clips: clips([3, 3]) }).duration).toBe(6);
    expect(buildTimeline({ clips: clips([3, 3], fade(0)) }).duration).toBe(6);
    expect(buildTimeline({ clips: clips([3, 3], null) }).duration).toBe(6);
    expect(buildTimeline({ defaults: { transition: null }, clips: clips([3, 3]) }).duration).toBe(6);
    expect(buildTimeline({ fps: 30, clips: clips([3, 3], { name: "fade" }) }).duration).toBe(5.5);
    expect(buildTimeline({ clips: clips([3, 3], {}) }).clips[0]!.transition?.name).toBe("fade");
  });

  it("keeps a transition's params and easing for the renderer", () => {
    const t = buildTimeline({
      clips: clips([2, 2], { name: "Directional", params: { direction: [1, 0] }, easing: "easeOutExpo" }),
    });
    expect(t.clips[0]!.transition).toMatchObject({ params: { direction: [1, 0] }, easing: "easeOutExpo" });
  });

  it("quantises to the fps asked for (a preview renders at its own rate)", () => {
    const t = buildTimeline({ fps: 25, clips: clips([1.03]) }, { fps: 15 });
    expect([t.fps, t.totalFrames]).toEqual([15, 15]);
  });
});

describe("clipDuration", () => {
  const video = { type: "video", path: "/v.mp4" };

  it("prefers the clip's own duration, then its first video layer, then defaults.duration, then 4 s", () => {
    expect(clipDuration({ duration: 1, layers: [video] }, undefined, () => 9)).toBe(1);
    expect(clipDuration({ layers: [{ type: "image" }, video] }, undefined, () => 2.5)).toBe(2.5);
    expect(clipDuration({ layers: [video] }, { duration: 3 }, () => null)).toBe(3);
    expect(clipDuration({ layers: [] }, undefined)).toBe(4);
  });

  it("reads a cut without a file: cutTo − cutFrom, nothing without cutTo", () => {
    expect(clipDuration({ layers: [{ ...video, cutFrom: 2, cutTo: 9 }] }, { duration: 3 })).toBe(7);
    expect(clipDuration({ layers: [{ ...video, cutFrom: 2 }] }, { duration: 3 })).toBe(3);
  });

  it("divides the cut by the layer's speed (its own or from the defaults); loop does not lengthen it", () => {
    expect(clipDuration({ layers: [{ ...video, speed: 2 }] }, undefined, () => 9)).toBe(4.5);
    expect(clipDuration({ layers: [{ ...video, cutFrom: 1, cutTo: 2, speed: 0.25 }] }, undefined)).toBe(4);
    expect(clipDuration({ layers: [video] }, { layerType: { video: { speed: 4 } } } as never, () => 10)).toBe(
      2.5,
    );
    expect(clipDuration({ layers: [{ ...video, loop: true } as never] }, undefined, () => 3)).toBe(3);
    // A clip's own duration wins over the cut at any speed.
    expect(clipDuration({ duration: 1, layers: [{ ...video, speed: 0.5 }] }, undefined, () => 9)).toBe(1);
    const t = buildTimeline(
      { fps: 10, clips: [{ layers: [{ ...video, speed: 2 }] }, { layers: [{ ...video, speed: 0.5 }] }] },
      { videoLength: () => 3 },
    );
    expect(t.clips.map((c) => c.frames)).toEqual([15, 60]);
  });

  it("clamps a cut into the file for the playable length", () => {
    expect(playableLength({ type: "video", cutFrom: 2 }, 10)).toBe(8);
    expect(playableLength({ type: "video", cutFrom: 2, cutTo: 30 }, 10)).toBe(8);
    expect(playableLength({ type: "video", cutFrom: 12 }, 10)).toBe(0);
  });
});

describe("evenDimension", () => {
  it("rounds odd sides down to even, never below 2 (1001 is 1000, not 1002)", () => {
    expect([1, 2, 3, 1001, 4095, 4096].map(evenDimension)).toEqual([2, 2, 2, 1000, 4094, 4096]);
  });
});
