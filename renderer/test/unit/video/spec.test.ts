/**
 * The renderer's spec of a parsed config, and the timeline the contract lays out from it: documented
 * defaults from VIDEO_DEFAULTS, layer defaults merged as validation sees them, clips that cut unless a
 * transition is configured, fast previews. (The timeline's own arithmetic is tested in packages/contract/test/unit/timeline.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { VIDEO_DEFAULTS } from "@media-render/contract/config/limits";
import { buildTimeline } from "@media-render/contract/timeline";
import { applyFastMode, scaleLayerPixels, videoSpec } from "../../../src/video/spec.ts";
import { keyedLayers } from "../../../src/video/layers/index.ts";
import { videoConfig } from "../../helpers/video-config.ts";

const spec = (raw: unknown) => videoSpec(videoConfig(raw));
const colour = { type: "fill-color", color: "#ff0000" };

describe("video spec", () => {
  it("applies the documented defaults, and clips cut when no transition is configured", () => {
    const s = spec({ clips: [{ layers: [colour] }, { layers: [colour] }] });
    expect([s.width, s.height, s.fps, s.format, s.defaultDuration]).toEqual([
      VIDEO_DEFAULTS.width,
      VIDEO_DEFAULTS.height,
      VIDEO_DEFAULTS.fps,
      VIDEO_DEFAULTS.format,
      VIDEO_DEFAULTS.clipDuration,
    ]);
    expect(s.outputVolume).toBe(1);
    const t = buildTimeline(s);
    // The renderer used to put a 0.5 s fade here; the README, the estimate and the length cap say cut.
    expect(t.clips[0]!.transition).toBeNull();
    expect(t.duration).toBe(2 * VIDEO_DEFAULTS.clipDuration);
  });

  it("fills a configured transition's missing fields from VIDEO_DEFAULTS", () => {
    const s = spec({ defaults: { transition: {} }, clips: [{ layers: [colour] }, { layers: [colour] }] });
    expect(buildTimeline(s).clips[0]!.transition).toMatchObject({
      name: VIDEO_DEFAULTS.transitionName,
      // In whole frames: 0.5 s at 25 fps is 13 frames.
      frames: Math.round(VIDEO_DEFAULTS.transitionDuration * VIDEO_DEFAULTS.fps),
      audioOutCurve: VIDEO_DEFAULTS.audioCurve,
      audioInCurve: VIDEO_DEFAULTS.audioCurve,
    });
  });

  it("merges a clip transition over defaults.transition and layer defaults under each layer; null cuts", () => {
    const s = spec({
      defaults: {
        transition: { name: "wipeLeft", duration: 1 },
        layer: { fontPath: "/f.ttf" },
        layerType: { title: { textColor: "#f00" } },
      },
      clips: [
        { duration: 2, transition: { duration: 0.2 }, layers: [{ type: "title", text: "a" }] },
        { duration: 2, transition: null, layers: [colour] },
        { duration: 2, layers: [colour] },
      ],
    });
    const t = buildTimeline(s);
    expect(t.clips[0]!.transition).toMatchObject({ name: "wipeLeft", frames: 5 });
    expect(t.clips[1]!.transition).toBeNull();
    expect(s.clips[0]!.layers[0]).toMatchObject({ fontPath: "/f.ttf", textColor: "#f00", text: "a" });
  });

  it("defaults.transition null means no transitions anywhere", () => {
    const s = spec({
      defaults: { transition: null },
      clips: [{ transition: { name: "fade" }, layers: [colour] }, { layers: [colour] }],
    });
    expect(buildTimeline(s).clips[0]!.transition).toMatchObject({ name: "fade" });
    const none = spec({
      defaults: { transition: null },
      clips: [{ layers: [colour] }, { layers: [colour] }],
    });
    expect(buildTimeline(none).clips.map((c) => c.transition)).toEqual([null, null]);
  });

  it("shrinks fast previews to ~250x250 px of area at 15 fps, even sizes", () => {
    const s = applyFastMode(
      spec({ width: 1920, height: 1080, fps: 30, fast: true, clips: [{ layers: [colour] }] }),
    );
    expect(s.width * s.height).toBeGreaterThan(55_000);
    expect(s.width * s.height).toBeLessThan(70_000);
    expect((s.width % 2) + (s.height % 2)).toBe(0);
    expect(s.fps).toBe(15);
  });

  it("scales a fitted text's range with its other pixels in a preview, and leaves other layers alone", () => {
    const title = { type: "title", text: "a", minFontSize: 20, maxFontSize: 100 } as const;
    expect(scaleLayerPixels(title, 0.25)).toMatchObject({ minFontSize: 5, maxFontSize: 25 });
    expect(scaleLayerPixels({ type: "title", text: "a", fontSize: 40 }, 0.25)).toMatchObject({
      fontSize: 10,
    });
    expect(scaleLayerPixels({ ...colour, type: "fill-color" }, 0.25)).toEqual(colour);
  });

  it("expands title-background into its background and title, sharing the layer's window", () => {
    const s = spec({
      clips: [
        {
          layers: [
            {
              type: "title-background",
              text: "T",
              start: 1,
              stop: 2,
              background: { type: "fill-color", color: "#00ff00" },
            },
          ],
        },
      ],
    });
    expect(keyedLayers(s).map((k) => k.layer)).toMatchObject([
      { type: "fill-color", color: "#00ff00", start: 1, stop: 2 },
      { type: "title-background", text: "T" },
    ]);
  });
});
