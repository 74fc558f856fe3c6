/**
 * Posters and thumbnails (config `poster`, `thumbnails`): frames of the finished output, checked against the
 * frames the video itself decodes to at those times, and the sprite sheet's tiles and WebVTT index.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/lib/process.ts";
import { frameAt, spriteVtt, writeFrames } from "../../src/video/outputs/frames.ts";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { FIXTURES, probeOut } from "./media-helpers.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "frames-test-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Raw rgb24 pixels of a file's frame number `n` (a video) or its only frame (an image), at w x h. */
const pixels = async (path: string, w: number, h: number, n = 0): Promise<Buffer> => {
  const { stdout } = await run("ffmpeg", [
    ...["-v", "error", "-i", path, "-vf", `select='eq(n\\,${n})',scale=${w}:${h}:flags=area`],
    ...["-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
  ]);
  return stdout;
};

/** Mean absolute difference per channel (0-255). */
const diff = (a: Buffer, b: Buffer): number => {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
};

const moving = {
  width: 320,
  height: 180,
  fps: 10,
  clips: [
    {
      duration: 2,
      layers: [{ type: "image", path: `${FIXTURES}/img2.jpg`, zoomDirection: "left", zoomAmount: 0.3 }],
    },
    { duration: 1, layers: [{ type: "video", path: `${FIXTURES}/kohlipe3.mp4` }] },
  ],
};

describe("posters and thumbnails", () => {
  let out: string;
  let files: Awaited<ReturnType<typeof writeFrames>>;
  const config = videoConfig({
    ...moving,
    poster: { time: 1.25 },
    thumbnails: { count: 6, width: 96, sprite: true },
  });
  beforeAll(async () => {
    out = join(dir, "frames.mp4");
    const r = await renderVideo({
      jobId: "job_frames",
      config,
      workDir: dir,
      outPath: out,
      allowLocalFiles: true,
    });
    files = await writeFrames(
      config,
      { path: out, format: "mp4", ...r },
      { ffmpegPath: "ffmpeg", workDir: dir, spriteName: "job_frames.thumbnails.jpg" },
    );
  });

  it("writes a poster equal to the frame the video shows at its time, and unlike frames a moment away", async () => {
    expect(files.poster?.ext).toBe("png");
    const poster = await pixels(files.poster!.path, 320, 180);
    const k = frameAt(1.25, 10, 30);
    expect(k).toBe(12);
    expect(diff(poster, await pixels(out, 320, 180, k))).toBeLessThan(1);
    expect(diff(poster, await pixels(out, 320, 180, k + 5))).toBeGreaterThan(3);
    expect((await probeOut(files.poster!.path)).video).toMatchObject({
      codec: "png",
      width: 320,
      height: 180,
    });
  });

  it("writes count thumbnails evenly spaced from 0, each the video's frame at its time, scaled to width", async () => {
    const thumbs = files.thumbnails!;
    expect(thumbs.frames.map((f) => f.time)).toEqual([0, 0.5, 1, 1.5, 2, 2.5]);
    for (const frame of thumbs.frames) {
      expect((await probeOut(frame.path)).video).toMatchObject({ codec: "mjpeg", width: 96, height: 54 });
      // Scaled by different filters and JPEG-coded: near its own frame, nearer than to the frames around it.
      const k = frameAt(frame.time, 10, 30);
      const thumb = await pixels(frame.path, 96, 54);
      const own = diff(thumb, await pixels(out, 96, 54, k));
      expect(own).toBeLessThan(8);
      for (const other of [k - 2, k + 2].filter((n) => n >= 0 && n < 30))
        expect(own, `${frame.time} s`).toBeLessThan(diff(thumb, await pixels(out, 96, 54, other)));
    }
  });

  it("tiles the thumbnails into one sprite sheet whose WebVTT cues point at each tile", async () => {
    const sprite = files.thumbnails!.sprite!;
    expect((await probeOut(sprite.path)).video).toMatchObject({ width: 6 * 96, height: 54 });
    const vtt = sprite.vtt;
    expect(
      vtt.startsWith("WEBVTT\n\n00:00:00.000 --> 00:00:00.500\njob_frames.thumbnails.jpg#xywh=0,0,96,54"),
    ).toBe(true);
    expect(
      vtt.trim().endsWith("00:00:02.500 --> 00:00:03.000\njob_frames.thumbnails.jpg#xywh=480,0,96,54"),
    ).toBe(true);
    // Tile 3 of the sheet is thumbnail 3.
    const { stdout } = await run("ffmpeg", [
      ...[
        "-v",
        "error",
        "-i",
        sprite.path,
        "-vf",
        "crop=96:54:192:0",
        "-f",
        "rawvideo",
        "-pix_fmt",
        "rgb24",
        "-",
      ],
    ]);
    expect(diff(stdout, await pixels(files.thumbnails!.frames[2]!.path, 96, 54))).toBeLessThan(4);
  });

  it("takes one frame every interval seconds, and wraps a sheet's rows after ten", () => {
    const vtt = spriteVtt("s.jpg", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 11, 10, 6);
    expect(vtt).toContain("00:00:10.000 --> 00:00:11.000\ns.jpg#xywh=0,6,10,6");
  });
});

describe("stills", () => {
  it("renders only the frame the video shows at its time, equal to the video's frame", async () => {
    const config = { ...moving, fps: 10 };
    const video = join(dir, "for-still.mp4");
    await renderVideo({
      jobId: "job_still_video",
      config: videoConfig(config),
      workDir: dir,
      outPath: video,
      allowLocalFiles: true,
    });
    for (const [time, format] of [
      [1.25, "png"],
      [2.5, "jpeg"],
    ] as const) {
      const still = join(dir, `still-${time}.${format === "png" ? "png" : "jpg"}`);
      const r = await renderVideo({
        jobId: "job_still",
        config: videoConfig({ ...config, still: { time, format } }),
        workDir: await mkdtemp(join(dir, "still-")),
        outPath: still,
        allowLocalFiles: true,
      });
      expect(r).toMatchObject({ width: 320, height: 180 });
      const p = await probeOut(still);
      expect(p.video).toMatchObject({ codec: format === "png" ? "png" : "mjpeg", width: 320, height: 180 });
      const k = frameAt(time, 10, 30);
      const pixelsOfStill = await pixels(still, 320, 180);
      // The video's frames went through x264 (crf 20): the still is nearest its own frame, and within a few levels.
      const near = [];
      for (const n of [k - 2, k - 1, k, k + 1, k + 2])
        near.push(diff(pixelsOfStill, await pixels(video, 320, 180, n)));
      expect(near[2], `${time} s: ${near.map((d) => d.toFixed(2)).join(" ")}`).toBe(Math.min(...near));
      expect(near[2]).toBeLessThan(4);
    }
  });
});

describe("a still in the middle of a transition drawn by its shader", () => {
  it("equals the video's frame there, though the render stops while later frames are being drawn", async () => {
    const config = {
      width: 320,
      height: 180,
      fps: 10,
      clips: [
        {
          duration: 1,
          transition: { name: "cube", duration: 0.5 },
          layers: [{ type: "fill-color", color: "#f00" }],
        },
        {
          duration: 1,
          transition: { name: "cube", duration: 0.5 },
          layers: [{ type: "fill-color", color: "#0f0" }],
        },
        { duration: 2, layers: [{ type: "fill-color", color: "#00f" }] },
      ],
    };
    const video = join(dir, "cube.mp4");
    await renderVideo({
      jobId: "job_cube",
      config: videoConfig(config),
      workDir: dir,
      outPath: video,
      allowLocalFiles: true,
    });
    const still = join(dir, "cube-still.png");
    await renderVideo({
      jobId: "job_cube_still",
      config: videoConfig({ ...config, still: { time: 0.7 } }),
      workDir: await mkdtemp(join(dir, "cube-")),
      outPath: still,
      allowLocalFiles: true,
    });
    const near = [];
    for (const n of [5, 6, 7, 8, 9])
      near.push(diff(await pixels(still, 320, 180), await pixels(video, 320, 180, n)));
    expect(near[2], near.map((d) => d.toFixed(2)).join(" ")).toBe(Math.min(...near));
    expect(near[2]).toBeLessThan(4);
  });
});

describe("a transparent webm's poster", () => {
  it("keeps the alpha channel in its PNG", async () => {
    const out = join(dir, "alpha.webm");
    const config = videoConfig({
      width: 240,
      height: 136,
      fps: 10,
      format: "webm",
      poster: { time: 0.5 },
      clips: [
        { duration: 1, layers: [{ type: "image-overlay", path: `${FIXTURES}/emoji.png`, width: 0.4 }] },
      ],
    });
    const r = await renderVideo({
      jobId: "job_alpha_poster",
      config,
      workDir: dir,
      outPath: out,
      allowLocalFiles: true,
    });
    const files = await writeFrames(
      config,
      { path: out, format: "webm", ...r },
      { ffmpegPath: "ffmpeg", workDir: dir },
    );
    expect((await probeOut(files.poster!.path)).video?.pixFmt).toBe("rgba");
    const { stdout } = await run("ffmpeg", [
      ...["-v", "error", "-i", files.poster!.path, "-vf", "crop=24:13:0:0,scale=1:1:flags=area"],
      ...["-f", "rawvideo", "-pix_fmt", "rgba", "-"],
    ]);
    expect(stdout[3]).toBeLessThan(20);
    expect((await readFile(files.poster!.path)).length).toBeGreaterThan(100);
  });
});

describe("posters and thumbnails far into a long file", () => {
  it("are found by seeking, each the frame decoded by its number, in a single render and one joined from chunks", async () => {
    // 34 s of the fixture at 160x90, 25 fps: 850 frames, several GOPs; the picture changes every frame.
    const config = videoConfig({
      width: 160,
      height: 90,
      fps: 25,
      clips: [{ layers: [{ type: "video", path: `${FIXTURES}/kohlipe3.mp4`, cutFrom: 0, cutTo: 34 }] }],
      poster: { time: 31.3 },
      thumbnails: { count: 3, format: "png" },
    });
    const single = join(dir, "long.mp4");
    const r = await renderVideo({
      jobId: "job_long",
      config,
      workDir: dir,
      outPath: single,
      allowLocalFiles: true,
    });
    const segments = [];
    for (const index of [0, 1]) {
      const path = join(dir, `long-seg${index}.mp4`);
      await renderVideo({
        jobId: "job_long",
        config,
        workDir: await mkdtemp(join(dir, "seg-")),
        outPath: path,
        allowLocalFiles: true,
        chunk: { index, count: 2 },
      });
      segments.push(path);
    }
    const joined = join(dir, "long-joined.mp4");
    await renderVideo({
      jobId: "job_long",
      config,
      workDir: await mkdtemp(join(dir, "join-")),
      outPath: joined,
      allowLocalFiles: true,
      joinSegments: segments,
    });
    for (const out of [single, joined]) {
      const workDir = await mkdtemp(join(dir, "frames-"));
      // Three thumbnails 283 frames apart: sparser than a GOP, so each is sought (and the poster always is).
      const files = await writeFrames(
        config,
        { path: out, format: "mp4", ...r },
        { ffmpegPath: "ffmpeg", workDir },
      );
      const k = frameAt(31.3, 25, 850);
      expect(k).toBe(782);
      const poster = await pixels(files.poster!.path, 160, 90);
      const around = [];
      for (const n of [k - 1, k, k + 1]) around.push(diff(poster, await pixels(out, 160, 90, n)));
      // The same decoded picture, losslessly: no difference at all; its neighbours differ.
      expect(around[1], `${out}: ${around.map((d) => d.toFixed(3)).join(" ")}`).toBeLessThan(0.01);
      expect(Math.min(around[0]!, around[2]!)).toBeGreaterThan(around[1]! + 0.05);
      const thumbs = files.thumbnails!.frames;
      expect(thumbs.map((t) => frameAt(t.time, 25, 850))).toEqual([0, 283, 566]);
      for (const t of thumbs) {
        const n = frameAt(t.time, 25, 850);
        // PNG thumbnails scaled by lanczos against the frame scaled the same way: equal but for rounding.
        const { stdout: own } = await run("ffmpeg", [
          ...["-v", "error", "-i", out, "-vf", `select='eq(n\\,${n})',scale=160:90:flags=lanczos,setsar=1`],
          ...["-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
        ]);
        expect(diff(await pixels(t.path, 160, 90), own), `${out} thumbnail at ${t.time}`).toBeLessThan(0.01);
      }
    }
  });
});
