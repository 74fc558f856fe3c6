/**
 * End-to-end renders through the real ffmpeg, checked by probing streams, sampling pixels at known
 * times (including mid-transition) and measuring audio level where sound or silence is expected.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { colorAt, FIXTURES, meanVolume, near, probeOut } from "./media-helpers.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "video-test-"));
});
afterAll(async () => {
  await closeBrowser(); // wipeLeft is drawn on the WebGL page
  await rm(dir, { recursive: true, force: true });
});

const render = async (name: string, config: Record<string, unknown>) => {
  const work = await mkdtemp(join(dir, `${name}-`));
  const ext = typeof config.format === "string" ? config.format : "mp4";
  const outPath = join(dir, `${name}.${ext}`);
  const stages: string[] = [];
  const result = await renderVideo({
    jobId: `job_${name}`,
    config: videoConfig(config),
    workDir: work,
    outPath,
    allowLocalFiles: true,
    onProgress: (_p, stage) => stages.push(stage),
  });
  return { outPath, result, stages };
};

describe("video render: clips, transitions, audio tracks", () => {
  const config = {
    width: 320,
    height: 180,
    fps: 10,
    defaults: { transition: { name: "fade", duration: 0.5 } },
    audioTracks: [{ path: `${FIXTURES}/winxp.mp3`, cutTo: 1.5 }],
    clips: [
      { duration: 1.5, layers: [{ type: "fill-color", color: "#ff0000" }] },
      { duration: 1.5, transition: null, layers: [{ type: "fill-color", color: "#0000ff" }] },
      {
        duration: 1,
        transition: { name: "wipeLeft", duration: 0.4 },
        layers: [{ type: "image", path: `${FIXTURES}/img2.jpg` }],
      },
      { duration: 1, layers: [{ type: "video", path: `${FIXTURES}/kohlipe3.mp4`, cutFrom: 1 }] },
    ],
  };
  let out: Awaited<ReturnType<typeof render>>;
  beforeAll(async () => {
    out = await render("basic", config);
  });

  it("has the timeline's length (Σ durations − Σ transitions), size, fps and codecs", async () => {
    const p = await probeOut(out.outPath);
    expect(out.result.duration).toBeCloseTo(1.5 + 1.5 + 1 + 1 - 0.5 - 0.4, 5);
    expect(Math.abs(p.duration - out.result.duration)).toBeLessThanOrEqual(0.1);
    expect(p.video).toMatchObject({ codec: "h264", width: 320, height: 180, fps: 10, pixFmt: "yuv420p" });
    expect(p.audio?.codec).toBe("aac");
    expect(out.stages).toContain("downloading");
    expect(out.stages.at(-1)).toBe("encoding");
  });

  it("shows each clip's colour, and a blend in the middle of the fade", async () => {
    expect(near(await colorAt(out.outPath, 0.5), [255, 0, 0])).toBe(true);
    const mid = await colorAt(out.outPath, 1.25);
    expect(near(mid, [128, 0, 128], 40)).toBe(true);
    expect(near(await colorAt(out.outPath, 2.0), [0, 0, 255])).toBe(true);
  });

  it("cuts hard where the transition is null, and wipes left into the photo", async () => {
    // Clip 2 ends at 2.5 s with a cut; the photo runs 2.5-3.5 s, wiping into the video from 3.1 s.
    expect(near(await colorAt(out.outPath, 2.45, { x: 0.4, y: 0.4, w: 0.2, h: 0.2 }), [0, 0, 255])).toBe(
      false,
    );
    const photo = await colorAt(out.outPath, 2.6);
    expect(near(photo, [0, 0, 255], 60)).toBe(false);
  });

  it("plays the audio track where it is placed and is silent after it", async () => {
    expect(await meanVolume(out.outPath, 0.1, 1.2)).toBeGreaterThan(-45);
    expect(await meanVolume(out.outPath, 2.0, 2.0)).toBeLessThan(-80);
  });
});

describe("video render: clips without a transition", () => {
  it("cut: the output lasts the sum of the clips, and the second clip starts at its own start", async () => {
    // No transition anywhere in the config: the renderer used to fade for 0.5 s (2 s + 1.5 s − 0.5 s).
    const { outPath, result } = await render("cut", {
      width: 160,
      height: 90,
      fps: 10,
      clips: [
        { duration: 2, layers: [{ type: "fill-color", color: "#ff0000" }] },
        { duration: 1.5, layers: [{ type: "fill-color", color: "#0000ff" }] },
      ],
    });
    expect(result.duration).toBeCloseTo(3.5, 5);
    expect((await probeOut(outPath)).duration).toBeCloseTo(3.5, 1);
    // The last frame of the first clip (1.9 s) is still all red; a fade would be mostly blue by then.
    expect(near(await colorAt(outPath, 1.85), [255, 0, 0])).toBe(true);
    expect(near(await colorAt(outPath, 2.05), [0, 0, 255])).toBe(true);
  });
});

describe("video render: frame size", () => {
  it("rounds odd sizes down to even: a 1001x601 job renders a 1000x600 file", async () => {
    const { outPath, result } = await render("odd", {
      width: 1001,
      height: 601,
      fps: 5,
      clips: [
        {
          duration: 0.4,
          layers: [
            { type: "fill-color", color: "#00ff00" },
            { type: "image-overlay", path: `${FIXTURES}/emoji.png`, width: 0.3 },
          ],
        },
      ],
    });
    expect([result.width, result.height]).toEqual([1000, 600]);
    expect((await probeOut(outPath)).video).toMatchObject({ width: 1000, height: 600 });
  });
});

describe("video render: webm with alpha, clip audio, picture-in-picture", () => {
  it("keeps a transparent background in VP9 and plays audio layers only with keepSourceAudio", async () => {
    const { outPath } = await render("alpha", {
      width: 240,
      height: 136,
      fps: 10,
      format: "webm",
      keepSourceAudio: true,
      defaults: { transition: null },
      clips: [
        {
          duration: 1,
          layers: [
            { type: "image-overlay", path: `${FIXTURES}/emoji.png`, width: 0.4 },
            { type: "audio", path: `${FIXTURES}/sample1.m4a` },
          ],
        },
        { duration: 1, layers: [{ type: "image-overlay", path: `${FIXTURES}/emoji.png`, width: 0.2 }] },
      ],
    });
    const p = await probeOut(outPath);
    expect(p.video?.codec).toBe("vp9");
    expect(p.audio?.codec).toBe("opus");
    const corner = await colorAt(outPath, 0.5, { x: 0, y: 0, w: 0.1, h: 0.1 }, true);
    expect(corner[3]).toBeLessThan(20);
    const centre = await colorAt(outPath, 0.5, { x: 0.45, y: 0.45, w: 0.1, h: 0.1 }, true);
    expect(centre[3]).toBeGreaterThan(200);
    expect(await meanVolume(outPath, 0.1, 0.7)).toBeGreaterThan(-50);
    expect(await meanVolume(outPath, 1.2, 0.7)).toBeLessThan(-80);
  });

  it("places a picture-in-picture video in its box and keeps the background elsewhere", async () => {
    const { outPath } = await render("pip", {
      width: 320,
      height: 180,
      fps: 10,
      clips: [
        {
          duration: 1,
          layers: [
            { type: "fill-color", color: "#00ff00" },
            {
              type: "video",
              path: `${FIXTURES}/kohlipe3.mp4`,
              width: 0.5,
              height: 0.5,
              position: "top-left",
              resizeMode: "cover",
            },
          ],
        },
      ],
    });
    expect(near(await colorAt(outPath, 0.5, { x: 0.7, y: 0.7, w: 0.2, h: 0.2 }), [0, 255, 0])).toBe(true);
    expect(near(await colorAt(outPath, 0.5, { x: 0.1, y: 0.1, w: 0.3, h: 0.3 }), [0, 255, 0], 60)).toBe(
      false,
    );
    const p = await probeOut(outPath);
    expect(Math.abs(p.duration - 1)).toBeLessThanOrEqual(0.1);
  });
});
