/**
 * A video render's budget from its planned timeline and size (packages/contract/src/deadline.ts): the deadline the Worker sends
 * and the renderer enforces, and the GL drawing validation bounds (issue 29).
 */
import { describe, expect, it } from "vitest";
import { chunkWork, renderWork, videoDeadlineSeconds } from "../../src/deadline.ts";
import { buildTimeline } from "../../src/timeline.ts";
import { chunkWindow } from "../../src/windows.ts";

describe("render work", () => {
  it("counts every gl layer and each transition drawn by its shader, not a plain fade", () => {
    const config = {
      width: 1280,
      height: 720,
      fps: 25,
      clips: [
        {
          duration: 4,
          transition: { name: "cube" as const, duration: 1 },
          layers: [{ type: "gl" }, { type: "gl" }],
        },
        { duration: 4, transition: { name: "fade" as const, duration: 1 }, layers: [{ type: "fill-color" }] },
        { duration: 4, layers: [{ type: "fill-color" }] },
      ],
      globalLayers: [{ type: "gl" }],
    };
    const timeline = buildTimeline(config);
    const work = renderWork(config, timeline);
    // Two layers over clip 0 (100 frames each), the cube (25), the global layer over all 250 frames.
    expect(work.glPixels).toBe((200 + 25 + 250) * 1280 * 720);
    expect(work.frames).toBe(250);
  });
});

describe("render deadline", () => {
  it("is 60 s plus what the planned frames, their size and their GL drawing earn (the issue's 64x64 job: 67 s)", () => {
    const deadline = (config: Parameters<typeof renderWork>[0] & { fps?: number }) =>
      videoDeadlineSeconds(renderWork(config, buildTimeline(config)));
    // 300 s of 64x64 at 1 fps with a gl layer: 60 + 300 x (0.02 + 0.12 x 4096 / 921600) + GL 0.07 s.
    const slow = { width: 64, height: 64, fps: 1, clips: [{ duration: 300, layers: [{ type: "gl" }] }] };
    expect(deadline(slow)).toBe(67);
    // 8 s of 720p25: 60 + 200 x 0.14 = 88 s; at 1080p30 300 s: 2670 s; 4K60 is capped at an hour.
    const clip = (duration: number) => [{ duration, layers: [{ type: "fill-color" }] }];
    expect(deadline({ width: 1280, height: 720, fps: 25, clips: clip(8) })).toBe(88);
    expect(deadline({ width: 1920, height: 1080, fps: 30, clips: clip(300) })).toBe(2670);
    expect(deadline({ width: 3840, height: 2160, fps: 60, clips: clip(300) })).toBe(3600);
    // An animated html layer adds its captured frames; captions add a second per output second.
    const html = {
      width: 1280,
      height: 720,
      fps: 25,
      clips: [{ duration: 8, layers: [{ type: "html", animated: true }] }],
    };
    expect(deadline(html)).toBe(88 + Math.ceil(125 * 0.17));
    expect(deadline({ width: 1280, height: 720, fps: 25, autoSubtitles: true, clips: clip(8) })).toBe(96);
  });

  it("adds 2 s per speech text and 0.01 s per character of speech (issue 42)", () => {
    const deadline = (config: Parameters<typeof renderWork>[0] & { fps?: number }) =>
      videoDeadlineSeconds(renderWork(config, buildTimeline(config)));
    const layers = [
      { type: "fill-color" },
      { type: "speech", text: "a".repeat(4000) },
      { type: "speech", text: "Hello" },
    ];
    const config = {
      width: 1280,
      height: 720,
      fps: 25,
      clips: [{ duration: 8, layers }],
      audioTracks: [{ path: "/audio/a.mp3" }, { type: "speech", text: "a".repeat(995) }],
    };
    expect(renderWork(config, buildTimeline(config)).speech).toEqual({ texts: 3, characters: 5000 });
    // 8 s of 720p25 earn 88 s; three texts 6 s, 5,000 characters 50 s.
    expect(deadline(config)).toBe(88 + 6 + 50);
  });
});

describe("a chunk's deadline", () => {
  it("counts its own frames, and of autoSubtitles only the parts of the mix its frames reach", () => {
    const clip = (duration: number) => [{ duration, layers: [{ type: "fill-color" }] }];
    const plain = { width: 640, height: 360, fps: 25, clips: clip(120) };
    const captioned = { ...plain, autoSubtitles: true };
    const timeline = buildTimeline(plain);
    // Each quarter's 750 frames earn 60 + 750 x 0.05 = 97.5 s.
    const quarter = (config: typeof plain) => chunkWindow(config, timeline, { index: 0, count: 4 });
    expect(videoDeadlineSeconds(chunkWork(plain, timeline, quarter(plain)))).toBe(98);
    // With captions, chunk 0 (0-30 s) reaches the parts cut near 30 and 60 s: at most 66 s of audio (not 120).
    const first = chunkWork(captioned, timeline, quarter(captioned));
    expect(first.captionSeconds).toBe(66);
    expect(videoDeadlineSeconds(first)).toBe(164);
    // The whole render transcribes all of it: 60 + 3000 x 0.05 + 120.
    expect(videoDeadlineSeconds(renderWork(captioned, timeline))).toBe(330);
    // A single chunk is the whole render.
    expect(chunkWork(captioned, timeline, { start: 0, end: timeline.totalFrames }).captionSeconds).toBe(120);
  });
});
