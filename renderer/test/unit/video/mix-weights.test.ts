/** Volumes made mix-ready (pure): gains up to 1 stay, a mix whose largest weight exceeds 1 is divided by it. */
import { describe, expect, it } from "vitest";
import { mixWeights, relativeWeights } from "../../../src/video/mix-weights.ts";
import type { ClipSpec, Layer } from "../../../src/video/types.ts";

const audio = (mixVolume?: number): Layer => ({ type: "audio", path: "/a.mp3", mixVolume });
const detached = (mixVolume?: number): Layer => ({ type: "detached-audio", path: "/d.mp3", mixVolume });
const mix = (clips: ClipSpec[], extra: Partial<Parameters<typeof mixWeights>[0]> = {}) => ({
  clips,
  clipsAudioVolume: 1,
  audioFilePath: null,
  backgroundAudioVolume: 1,
  audioTracks: [] as { mixVolume: number }[],
  ...extra,
});
const volumes = (clip: ClipSpec) => clip.layers.map((l) => ("mixVolume" in l ? l.mixVolume : "-"));

describe("relativeWeights", () => {
  it("keeps weights up to 1 as gains, divides by the largest above 1", () => {
    expect(relativeWeights([0.5, 1, 0])).toEqual([0.5, 1, 0]);
    expect(relativeWeights([50, 1, 10, 50])).toEqual([1, 0.02, 0.2, 1]);
    expect(relativeWeights([])).toEqual([]);
  });
});

describe("mixWeights", () => {
  it("makes each clip's video and audio layers relative within that clip only", () => {
    const out = mixWeights(
      mix([{ layers: [audio(4), audio(2), { type: "pause" }] }, { layers: [audio(0.3)] }]),
    );
    expect(volumes(out.clips[0]!)).toEqual([1, 0.5, "-"]);
    expect(volumes(out.clips[1]!)).toEqual([0.3]);
  });

  it("weighs keyframed volumes by their peak and keeps their curve, scaled as the peak was", () => {
    const curve = [
      { time: 0, value: 0 },
      { time: 1, value: 4 },
    ];
    const out = mixWeights(
      mix([{ layers: [{ type: "audio", path: "/a.mp3", mixVolume: curve }, audio(2)] }]),
    );
    expect(volumes(out.clips[0]!)).toEqual([
      [
        { time: 0, value: 0 },
        { time: 1, value: 1 },
      ],
      0.5,
    ]);
  });

  it("weighs clips, tracks, detached audio and the background in one final mix (editly's audio2)", () => {
    const out = mixWeights(
      mix([{ layers: [detached(10)] }], {
        clipsAudioVolume: 50,
        audioFilePath: "/bg.mp3",
        backgroundAudioVolume: 5,
        audioTracks: [{ mixVolume: 1 }, { mixVolume: 50 }],
      }),
    );
    expect(out.clipsAudioVolume).toBe(1);
    expect(out.backgroundAudioVolume).toBe(0.1);
    expect(out.audioTracks.map((t) => t.mixVolume)).toEqual([0.02, 1]);
    expect(volumes(out.clips[0]!)).toEqual([0.2]);
  });

  it("leaves a background volume out of the mix when there is no background track", () => {
    const out = mixWeights(mix([], { backgroundAudioVolume: 100, audioTracks: [{ mixVolume: 0.5 }] }));
    expect(out.audioTracks[0]!.mixVolume).toBe(0.5);
    expect(out.clipsAudioVolume).toBe(1);
  });
});
