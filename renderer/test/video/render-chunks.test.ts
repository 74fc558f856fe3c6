/**
 * Parallel rendering (src/video/chunks.ts, docs/parallel-rendering.md): a job rendered as chunks and joined equals
 * its single render. The frame-index config plays a video whose frame n draws n in binary (16 columns, white = 1),
 * so every output frame says which timeline frame it is; its background track is a sine sweep, the same samples
 * whether the video was split or not.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VideoConfig } from "@media-render/contract/config/video";
import { run } from "../../src/lib/process.ts";
import { greyFrames } from "./media-helpers.ts";
import { buildTimeline } from "@media-render/contract/timeline";
import { chunkWindows } from "@media-render/contract/windows";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";

const W = 320;
const H = 240;
const FPS = 25;
let dir: string;
let pattern: string;
let sweep: string;

/** Renders `config` whole, and as `count` chunks joined; the two output paths. */
const renderBoth = async (name: string, config: VideoConfig, count: number, ext = "mp4") => {
  const single = join(dir, `${name}-single.${ext}`);
  const base = { jobId: `job_${name}`, config, allowLocalFiles: true };
  await renderVideo({ ...base, workDir: await mkdtemp(join(dir, "w-")), outPath: single });
  const segments = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const outPath = join(dir, `${name}-seg${index}.mp4`);
      const workDir = await mkdtemp(join(dir, "w-"));
      await renderVideo({ ...base, workDir, outPath, chunk: { index, count } });
      return outPath;
    }),
  );
  const joined = join(dir, `${name}-joined.${ext}`);
  const workDir = await mkdtemp(join(dir, "w-"));
  await renderVideo({ ...base, workDir, outPath: joined, joinSegments: segments });
  return { single, joined, segments };
};

/** Every decoded frame, grey, W x H. */
const greyFramesOf = (path: string): Promise<Buffer[]> => greyFrames(path, W, H);

/** The number a pattern frame draws. */
const indexOf = (frame: Buffer): number => {
  let n = 0;
  for (let bit = 0; bit < 16; bit++) if (frame[(H / 2) * W + bit * 20 + 10]! > 128) n |= 1 << bit;
  return n;
};

/** The decoded audio, 48 kHz mono float samples. */
const samples = async (path: string): Promise<Float32Array> => {
  const { stdout } = await run("ffmpeg", ["-v", "error", "-i", path, "-ac", "1", "-f", "f32le", "-"]);
  return new Float32Array(stdout.buffer, stdout.byteOffset, stdout.length / 4);
};

interface Stream {
  codec_type: string;
  start_time: string;
  duration: string;
  nb_frames: string;
}
const streams = async (path: string): Promise<Stream[]> => {
  const { stdout } = await run("ffprobe", ["-v", "error", "-show_streams", "-of", "json", path]);
  return (JSON.parse(stdout.toString()) as { streams: Stream[] }).streams;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "video-chunks-"));
  pattern = join(dir, "pattern.mp4");
  sweep = join(dir, "sweep.wav");
  // Lossless, so the pattern is exact in the input; the render re-encodes it (crf 20) and the columns stay clear.
  const geq = "geq=lum='255*gt(bitand(N\\,pow(2\\,floor(X/20)))\\,0)'";
  await run("ffmpeg", [
    ...[
      "-v",
      "error",
      "-f",
      "lavfi",
      "-i",
      `nullsrc=s=${W}x${H}:r=${FPS}:d=8,format=gray,${geq},format=yuv420p`,
    ],
    ...["-c:v", "libx264", "-qp", "0", "-preset", "ultrafast", "-y", pattern],
  ]);
  // 200 Hz rising to 1800 Hz over 8 s.
  await run("ffmpeg", [
    ...["-v", "error", "-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*(200*t+100*t*t)):s=48000:d=8"],
    ...["-y", sweep],
  ]);
});
afterAll(async () => {
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

describe("a video rendered as chunks and joined", () => {
  let out: { single: string; joined: string; segments: string[] };
  let config: VideoConfig;
  beforeAll(async () => {
    config = videoConfig({
      width: W,
      height: H,
      fps: FPS,
      audioFilePath: sweep,
      defaults: { transition: null },
      clips: [
        { duration: 3, layers: [{ type: "video", path: pattern, cutFrom: 0, cutTo: 3 }] },
        { duration: 5, layers: [{ type: "video", path: pattern, cutFrom: 3, cutTo: 8 }] },
      ],
    });
    out = await renderBoth("index", config, 3);
  }, 240_000);

  it("has the single render's frames, each once, in order: nothing duplicated or missing at the joins", async () => {
    const single = (await greyFramesOf(out.single)).map(indexOf);
    const joined = (await greyFramesOf(out.joined)).map(indexOf);
    expect(single).toHaveLength(8 * FPS);
    expect(joined).toEqual(single);
    expect(joined).toEqual(Array.from({ length: 8 * FPS }, (_, i) => i));
  });

  it("is joined by stream copy: the segments' packets, closed GOPs each starting with a keyframe", async () => {
    const { stdout } = await run("ffprobe", [
      ...[
        "-v",
        "error",
        "-select_streams",
        "v",
        "-show_entries",
        "packet=flags",
        "-of",
        "csv=p=0",
        out.joined,
      ],
    ]);
    const flags = stdout.toString().trim().split("\n");
    const starts = chunkWindows(config, buildTimeline(config), 3).map((w) => w.start);
    for (const s of starts) expect(flags[s]).toMatch(/^K/);
    for (const segment of out.segments)
      expect((await streams(segment)).map((s) => s.codec_type)).toEqual(["video"]);
  });

  it("has the single render's audio, sample for sample, with no gap or click at the joins", async () => {
    const a = await samples(out.single);
    const b = await samples(out.joined);
    expect(b.length).toBe(a.length);
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
    expect(worst).toBeLessThan(1e-6);
    // The sweep is loud everywhere: no 10 ms window near a join is silent, and no sample jumps (a click) more
    // than the sweep's own steepest step (0.5 × 2π × 1800 / 48000 ≈ 0.12) allows with the codec's noise.
    for (const s of [3 * 48000, (8 * 48000) / 3, (16 * 48000) / 3]) {
      const at = Math.round(s);
      for (let w = at - 4800; w < at + 4800; w += 480) {
        let sum = 0;
        for (let i = w; i < w + 480; i++) sum += b[i]! ** 2;
        expect(Math.sqrt(sum / 480)).toBeGreaterThan(0.2);
      }
      for (let i = at - 4800; i < at + 4800; i++) expect(Math.abs(b[i]! - b[i - 1]!)).toBeLessThan(0.2);
    }
  });

  it("keeps audio and video in step: both start at 0 and last the timeline, within one frame", async () => {
    for (const path of [out.single, out.joined]) {
      const [video, audio] = [
        (await streams(path)).find((s) => s.codec_type === "video")!,
        (await streams(path)).find((s) => s.codec_type === "audio")!,
      ];
      expect(Number(video.start_time)).toBeCloseTo(0, 3);
      expect(Math.abs(Number(audio.start_time))).toBeLessThan(1 / FPS);
      expect(Math.abs(Number(video.duration) - 8)).toBeLessThan(1 / FPS);
      expect(Math.abs(Number(audio.duration) - Number(video.duration))).toBeLessThan(1 / FPS);
    }
  });
});

describe("layers across a chunk boundary", () => {
  it("a GLSL transition, a title and an html animation spanning the join equal the single render", async () => {
    // 2 s + 2 s with a 1 s burn: 75 frames, the transition on frames 25-49; two chunks meet at frame 37.
    const config = videoConfig({
      width: W,
      height: H,
      fps: FPS,
      clips: [
        {
          duration: 2,
          transition: { name: "burn", duration: 1 },
          layers: [{ type: "fill-color", color: "#ff0000" }],
        },
        { duration: 2, layers: [{ type: "fill-color", color: "#0000ff" }] },
      ],
      globalLayers: [
        { type: "title", text: "Across", position: "top" },
        {
          type: "html",
          animated: true,
          html: `<style>html,body{margin:0}#b{position:absolute;left:0;top:150px;width:40px;height:40px;background:#0f0;animation:mv 3s linear forwards}@keyframes mv{to{left:280px}}</style><div id="b"></div>`,
        },
      ],
    });
    const out = await renderBoth("across", config, 2);
    const single = await greyFramesOf(out.single);
    const joined = await greyFramesOf(out.joined);
    expect(joined).toHaveLength(single.length);
    expect(single).toHaveLength(75);
    for (let f = 0; f < single.length; f++) {
      let diff = 0;
      for (let i = 0; i < W * H; i++) diff += Math.abs(single[f]![i]! - joined[f]![i]!);
      // Two encodes of the same pictures: a mean difference of a few grey levels at most.
      expect(diff / (W * H), `frame ${f}`).toBeLessThan(3);
    }
  }, 240_000);
});

describe("speech in a video rendered as chunks", () => {
  it("the join says the speech and ducks the music under it as the single render does", async () => {
    // The speech itself is silent (mixVolume 0): what is heard is the sweep, 20 dB lower while the words are said.
    const config = videoConfig({
      width: W,
      height: H,
      fps: FPS,
      audioFilePath: sweep,
      ducking: { amount: 20, attack: 0.1, release: 0.2 },
      defaults: { transition: null },
      clips: [
        {
          duration: 3,
          layers: [
            { type: "fill-color", color: "#202020" },
            { type: "speech", text: "This is a test of ducking", start: 1.5, mixVolume: 0 },
          ],
        },
        { duration: 3, layers: [{ type: "fill-color", color: "#404040" }] },
      ],
    });
    const out = await renderBoth("speech", config, 2);
    const a = await samples(out.single);
    const b = await samples(out.joined);
    expect(b.length).toBe(a.length);
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
    expect(worst).toBeLessThan(1e-6);
    const rms = (from: number, seconds: number) => {
      let sum = 0;
      const n = Math.round(seconds * 48000);
      for (let i = Math.round(from * 48000); i < Math.round(from * 48000) + n; i++) sum += b[i]! ** 2;
      return Math.sqrt(sum / n);
    };
    // Before the speech the sweep is at full level; a moment into the speech it is ducked.
    expect(rms(0.5, 0.5)).toBeGreaterThan(0.2);
    expect(rms(2, 0.3)).toBeLessThan(rms(0.5, 0.5) / 4);
  }, 240_000);
});

describe("a gl layer in a video rendered as chunks", () => {
  it("is drawn by the chunks and left out of the join, whose frames equal the single render's", async () => {
    // A shader that brightens with time: each frame's grey level says when it is.
    const config = videoConfig({
      width: W,
      height: H,
      fps: FPS,
      clips: [
        {
          duration: 2,
          layers: [
            {
              type: "gl",
              fragmentShader:
                "uniform float time; void main() { gl_FragColor = vec4(vec3(time / 2.0), 1.0); }",
            },
          ],
        },
      ],
    });
    const out = await renderBoth("gl", config, 2);
    const single = await greyFramesOf(out.single);
    const joined = await greyFramesOf(out.joined);
    expect(single).toHaveLength(2 * FPS);
    expect(joined).toHaveLength(single.length);
    const mean = (f: Buffer) => f.reduce((a, v) => a + v, 0) / f.length;
    for (let f = 0; f < single.length; f++)
      expect(Math.abs(mean(joined[f]!) - mean(single[f]!))).toBeLessThan(3);
    expect(mean(single.at(-1)!)).toBeGreaterThan(mean(single[0]!) + 100);
  }, 240_000);
});

describe("a mov rendered as chunks", () => {
  it("is a QuickTime file as its single render is: the join muxes the job's format, not the canvas' mp4", async () => {
    const config = videoConfig({
      ...{ width: 160, height: 120, fps: FPS, format: "mov" },
      clips: [{ duration: 1, layers: [{ type: "fill-color", color: "#336699" }] }],
    });
    const out = await renderBoth("mov", config, 2, "mov");
    const brand = async (path: string) => {
      const { stdout } = await run("ffprobe", [
        ...["-v", "error", "-show_entries", "format_tags=major_brand", "-of", "csv=p=0", path],
      ]);
      return stdout.toString().trim();
    };
    expect(await brand(out.single)).toBe("qt");
    expect(await brand(out.joined)).toBe("qt");
    expect((await streams(out.joined)).map((s) => [s.codec_type, s.nb_frames])).toEqual(
      (await streams(out.single)).map((s) => [s.codec_type, s.nb_frames]),
    );
  }, 240_000);
});
