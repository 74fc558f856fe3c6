import { describe, expect, it } from "vitest";
import { mergeTransition, parseVideoConfig, applyFastMode } from "../../src/video/config.ts";
import { buildTimeline, clipDuration } from "../../src/video/timeline.ts";

const fade = { name: "fade", duration: 0.5, audioOutCurve: "tri", audioInCurve: "tri" };

describe("timeline", () => {
  it("overlaps clips by their transitions: total = Σ durations − Σ transitions", () => {
    const t = buildTimeline([3, 3, 3], [fade, fade, fade], 30);
    expect(t.clips.map((c) => c.startFrame)).toEqual([0, 75, 150]);
    expect(t.totalFrames).toBe(240);
    expect(t.duration).toBe(8);
    expect(t.clips[2]!.transition).toBeNull(); // the last clip's transition is ignored
    expect(t.clips[1]!.inFrames).toBe(15);
  });

  it("clamps a transition to half of each neighbouring clip", () => {
    const t = buildTimeline([1, 4], [{ ...fade, duration: 3 }, null], 10);
    expect(t.clips[0]!.transition!.frames).toBe(5);
    expect(t.duration).toBe(4.5);
  });

  it("treats null and zero-length transitions as cuts", () => {
    const t = buildTimeline([2, 2], [null, null], 25);
    expect(t.clips[1]!.startFrame).toBe(50);
    expect(t.totalFrames).toBe(100);
  });

  it("takes the clip duration from the first video layer, else the default", () => {
    const clip = { duration: null, transition: null, layers: [{ type: "image" }, { type: "video" }] };
    expect(clipDuration(clip, 4, (i) => (i === 1 ? 2.5 : null))).toBe(2.5);
    expect(clipDuration({ ...clip, layers: [] }, 4, () => null)).toBe(4);
    expect(clipDuration({ ...clip, duration: 1 }, 4, () => 9)).toBe(1);
  });
});

describe("config parsing", () => {
  it("applies the reference defaults", () => {
    const s = parseVideoConfig({ clips: [{ layers: [{ type: "fill-color", color: "#ff0000" }] }] });
    expect([s.width, s.height, s.fps, s.format, s.defaultDuration]).toEqual([1280, 720, 25, "mp4", 4]);
    expect(s.clips[0]!.transition).toEqual(fade);
    expect(s.outputVolume).toBe(1);
  });

  it("deep-merges a clip transition over defaults.transition; null disables", () => {
    const s = parseVideoConfig({
      defaults: {
        transition: { name: "wipeLeft", duration: 1 },
        layer: { fontPath: "/f.ttf" },
        layerType: { title: { textColor: "#f00" } },
      },
      clips: [
        { transition: { duration: 0.2 }, layers: [{ type: "title", text: "a" }] },
        { transition: null, layers: [] },
      ],
    });
    expect(s.clips[0]!.transition).toMatchObject({ name: "wipeLeft", duration: 0.2 });
    expect(s.clips[1]!.transition).toBeNull();
    expect(s.clips[0]!.layers[0]).toMatchObject({ fontPath: "/f.ttf", textColor: "#f00", text: "a" });
    expect(mergeTransition({ duration: 0 }, fade)).toBeNull();
  });

  it("defaults.transition null means no transitions anywhere", () => {
    const s = parseVideoConfig({ defaults: { transition: null }, clips: [{ layers: [] }, { layers: [] }] });
    expect(s.clips.map((c) => c.transition)).toEqual([null, null]);
  });

  it("rounds sizes to even numbers and shrinks fast previews to ~250x250 px of area at 15 fps", () => {
    const s = applyFastMode(parseVideoConfig({ width: 1921, height: 1080, fps: 30, fast: true, clips: [] }));
    expect(s.width * s.height).toBeGreaterThan(55_000);
    expect(s.width * s.height).toBeLessThan(70_000);
    expect((s.width % 2) + (s.height % 2)).toBe(0);
    expect(s.fps).toBe(15);
  });
});
