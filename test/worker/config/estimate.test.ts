import { describe, expect, it } from "vitest";
import {
  estimateTokens,
  evenDimension,
  outputFormatOf,
  timeline,
  validateJobConfig,
  type VideoConfig,
} from "../../../src/config";

const pause = [{ type: "pause" as const }];
const video = (clips: unknown[], defaults?: unknown) => {
  const result = validateJobConfig("video", { clips, ...(defaults ? { defaults } : {}) });
  if (!result.valid || result.type !== "video") throw new Error(JSON.stringify(result));
  return result;
};

describe("token estimate", () => {
  it("charges images 2 + 1 per layer", () => {
    const result = validateJobConfig("image", {
      width: 9,
      height: 9,
      layers: [{ type: "circle" }, { type: "rectangle" }],
    });
    expect(result.valid && result.estimatedTokens).toBe(4);
  });

  it("charges videos 10 + 2 per started second of output", () => {
    expect(video([{ duration: 4, layers: pause }]).estimatedTokens).toBe(18);
    expect(video([{ duration: 4.2, layers: pause }]).estimatedTokens).toBe(20);
    // 2.1 + 0.9 is 3.0000000000000004 in floating point: still 3 seconds.
    expect(
      video([
        { duration: 2.1, layers: pause, transition: null },
        { duration: 0.9, layers: pause },
      ]).estimatedTokens,
    ).toBe(16);
  });

  it("uses defaults.duration, else 4 s, for clips without a duration", () => {
    expect(video([{ layers: pause }, { layers: pause }]).estimatedTokens).toBe(10 + 2 * 8);
    expect(
      video([{ layers: pause }, { duration: 1, layers: pause }], { duration: 2.5 }).estimatedTokens,
    ).toBe(10 + 2 * 4);
  });

  it("takes a clip's length from its first video layer's cut when both ends are given", () => {
    const layers = [{ type: "video", path: "/v.mp4", cutFrom: 2, cutTo: 9 }];
    expect(video([{ layers }], { duration: 3 }).estimatedTokens).toBe(10 + 2 * 7);
  });
});

describe("timeline", () => {
  const clips = (durations: number[], transition: unknown) =>
    durations.map((duration) => ({ duration, layers: pause, transition }));

  it("subtracts transition overlaps, ignoring the last clip's transition", () => {
    const t = timeline(video(clips([4, 4, 4], { name: "fade", duration: 1 })).config);
    expect(t.total).toBe(10);
    expect(t.clips.map((c) => [c.start, c.transition?.duration ?? null])).toEqual([
      [0, 1],
      [3, 1],
      [6, null],
    ]);
  });

  it("clamps a transition to half of each neighbouring clip", () => {
    const t = timeline(video(clips([2, 1, 6], { name: "fade", duration: 3 })).config);
    expect(t.clips.map((c) => c.transition?.duration ?? null)).toEqual([0.5, 0.5, null]);
    expect(t.total).toBe(2 + 1 + 6 - 0.5 - 0.5);
  });

  it("merges a clip's transition over defaults.transition and resolves the documented defaults", () => {
    const config = video(
      [
        { duration: 4, layers: pause, transition: { duration: 2 } },
        { duration: 4, layers: pause, transition: null },
        { duration: 4, layers: pause },
        { duration: 4, layers: pause },
      ],
      { transition: { name: "wipeLeft", audioInCurve: "exp" } },
    ).config as VideoConfig;
    const t = timeline(config);
    expect(t.clips[0]!.transition).toEqual({
      name: "wipeLeft",
      duration: 2,
      audioOutCurve: "tri",
      audioInCurve: "exp",
    });
    expect(t.clips[1]!.transition).toBeNull();
    expect(t.clips[2]!.transition).toMatchObject({ name: "wipeLeft", duration: 0.5 });
    expect(t.total).toBe(16 - 2 - 0.5);
  });

  it("has no transitions unless one is configured, and none for a zero duration", () => {
    expect(timeline(video(clips([3, 3], undefined)).config).total).toBe(6);
    expect(timeline(video(clips([3, 3], { name: "fade", duration: 0 })).config).total).toBe(6);
    expect(timeline(video(clips([3, 3], { name: "fade" })).config).total).toBe(5.5);
  });
});

describe("output format", () => {
  it("defaults to png and mp4 and spells jpg as jpeg", () => {
    const image = { width: 1, height: 1, layers: [] };
    expect(outputFormatOf("image", image as never)).toBe("png");
    expect(outputFormatOf("image", { ...image, format: "jpg" } as never)).toBe("jpeg");
    expect(outputFormatOf("image", { ...image, format: "webp" } as never)).toBe("webp");
    expect(outputFormatOf("video", { clips: [] } as never)).toBe("mp4");
    expect(outputFormatOf("video", { clips: [], format: "mov" } as never)).toBe("mov");
  });

  it("rounds odd frame sizes down to even", () => {
    expect([2, 3, 1001, 4096].map(evenDimension)).toEqual([2, 2, 1000, 4096]);
    expect(estimateTokens("image", { width: 1, height: 1, layers: [{ type: "circle" }] })).toBe(3);
  });
});
