import { describe, expect, it } from "vitest";
import { estimateTokens, outputFormatOf, validateJobConfig } from "../../../src/config/index.ts";

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
    const clips = [
      { duration: 2.1, layers: pause, transition: null },
      { duration: 0.9, layers: pause },
    ];
    // At 30 fps 2.1 + 0.9 s is 63 + 27 frames, exactly 3 s (not 3.0000000000000004 s of float sum).
    expect(validateJobConfig("video", { fps: 30, clips })).toMatchObject({ estimatedTokens: 16 });
    // At 25 fps each clip is a whole number of frames (53 + 23), so the output lasts 3.04 s, as rendered.
    expect(video(clips).estimatedTokens).toBe(18);
  });

  it("adds 5 + 1 per started second of output for autoSubtitles", () => {
    const clips = [{ duration: 4.2, layers: pause }];
    expect(validateJobConfig("video", { clips, autoSubtitles: true })).toMatchObject({
      estimatedTokens: 10 + 2 * 5 + 5 + 5,
    });
    expect(validateJobConfig("video", { clips, autoSubtitles: false })).toMatchObject({
      estimatedTokens: 20,
    });
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

describe("output format", () => {
  it("defaults to png and mp4 and spells jpg as jpeg", () => {
    const image = { width: 1, height: 1, layers: [] };
    expect(outputFormatOf("image", image as never)).toBe("png");
    expect(outputFormatOf("image", { ...image, format: "jpg" } as never)).toBe("jpeg");
    expect(outputFormatOf("image", { ...image, format: "webp" } as never)).toBe("webp");
    expect(outputFormatOf("video", { clips: [] } as never)).toBe("mp4");
    expect(outputFormatOf("video", { clips: [], format: "mov" } as never)).toBe("mov");
  });

  it("charges an image by its layers whatever its size", () => {
    expect(estimateTokens("image", { width: 1, height: 1, layers: [{ type: "circle" }] })).toBe(3);
  });
});
