/**
 * The still job that draws a video config's frame at the playhead (web/src/builder/video/frame-preview.ts): the
 * frame as the video shows it, in preview mode, without what a frame does not show or a still cannot have.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { validateJobConfig } from "@media-render/contract/config";

// The module runs jobs through the page's API client, which takes the page's origin when it loads.
let stillConfig: typeof import("../../../../src/builder/video/frame-preview.ts").stillConfig;
beforeAll(async () => {
  vi.stubGlobal("location", new URL("http://127.0.0.1:8787/builder"));
  ({ stillConfig } = await import("../../../../src/builder/video/frame-preview.ts"));
});
afterAll(() => {
  vi.unstubAllGlobals();
});

const config = {
  width: 640,
  height: 360,
  clips: [
    { duration: 2, layers: [{ type: "fill-color", color: "#336699" }] },
    { duration: 1, layers: [{ type: "pause" }] },
  ],
  audioFilePath: "/audio/song.mp3",
  keepSourceAudio: true,
  autoSubtitles: true,
  format: "webm",
  gif: { fps: 5 },
  preview: { from: 0, to: 1 },
  captionsFile: "/captions/cues.srt",
};

describe("stillConfig", () => {
  it("keeps the picture and the captions file, drops sound, transcription and other outputs, in preview mode", () => {
    expect(stillConfig(config, 1.2345)).toEqual({
      width: 640,
      height: 360,
      clips: config.clips,
      captionsFile: "/captions/cues.srt",
      keepSourceAudio: false,
      fast: true,
      still: { time: 1.235 },
    });
  });

  it("keeps the caption style with a captions file (the frame shows its preset), drops it without one", () => {
    const autoSubtitlesStyle = { preset: "karaoke", highlightColor: "#00ff00" };
    expect(stillConfig({ ...config, autoSubtitlesStyle }, 1).autoSubtitlesStyle).toEqual(autoSubtitlesStyle);
    const { captionsFile: _, ...transcribed } = config;
    expect(stillConfig({ ...transcribed, autoSubtitlesStyle }, 1).autoSubtitlesStyle).toBeUndefined();
    const result = validateJobConfig("video", stillConfig({ ...config, autoSubtitlesStyle }, 1));
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it("keeps the time inside the video", () => {
    expect(stillConfig(config, -1).still).toEqual({ time: 0 });
    expect(stillConfig(config, 99).still).toEqual({ time: 2.95 });
  });

  it("is a config the service accepts as a still job", () => {
    const result = validateJobConfig("video", stillConfig(config, 1));
    expect(result.valid ? [] : result.errors).toEqual([]);
  });
});
