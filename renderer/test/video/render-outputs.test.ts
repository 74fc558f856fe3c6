/**
 * The outputs beyond mp4 (config reference, "Outputs"): a GIF with its own palette within its caps, audio-only
 * mp3/wav/m4a files of the mix, ProRes 4444 with alpha in mov, and editly's outPath choosing the format. Checked
 * by ffprobe, the GIF's palette bytes, counted frames, sampled pixels and measured sound.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/lib/process.ts";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { colorAt, FIXTURES, meanVolume, near, probeOut } from "./media-helpers.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "outputs-test-"));
});
afterAll(async () => {
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

const render = async (name: string, config: Record<string, unknown>, ext: string) => {
  const work = await mkdtemp(join(dir, `${name}-`));
  const outPath = join(dir, `${name}.${ext}`);
  const result = await renderVideo({
    jobId: `job_${name}`,
    config: videoConfig(config),
    workDir: work,
    outPath,
    allowLocalFiles: true,
  });
  return { outPath, result };
};

/** Frames ffprobe decodes from the first video stream. */
const countFrames = async (path: string): Promise<number> => {
  const { stdout } = await run("ffprobe", [
    ...["-v", "error", "-count_frames", "-select_streams", "v:0"],
    ...["-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path],
  ]);
  return Number(stdout.toString().trim());
};

/** The GIF's global colour table as [r, g, b] entries (GIF89a logical screen descriptor). */
const gifPalette = async (path: string): Promise<number[][]> => {
  const bytes = await readFile(path);
  expect(bytes.subarray(0, 6).toString("latin1")).toBe("GIF89a");
  const packed = bytes[10]!;
  if ((packed & 0x80) === 0) return [];
  const entries = 2 ** ((packed & 0x07) + 1);
  return Array.from({ length: entries }, (_, i) => [...bytes.subarray(13 + 3 * i, 16 + 3 * i)]);
};

/** Mean RGBA of a region of the frame at `t`, decoded with the file's own decoder (ProRes keeps alpha). */
const rgbaAt = async (path: string, t: number, region: { x: number; y: number; w: number; h: number }) => {
  const crop = `crop=iw*${region.w}:ih*${region.h}:iw*${region.x}:ih*${region.y},scale=1:1:flags=area`;
  const { stdout } = await run("ffmpeg", [
    ...["-v", "error", "-ss", String(t), "-i", path, "-frames:v", "1", "-vf", crop],
    ...["-f", "rawvideo", "-pix_fmt", "rgba", "-"],
  ]);
  return [...stdout];
};

/** Seconds of sound a player decodes (an mp3's encoder delay and padding removed, as its LAME header says). */
const decodedSeconds = async (path: string): Promise<number> => {
  const { stderr } = await run("ffmpeg", ["-v", "info", "-i", path, "-af", "astats", "-f", "null", "-"]);
  const samples = /Number of samples: (\d+)/.exec(stderr)?.[1];
  return Number(samples) / 48000;
};

const redThenBlue = {
  width: 1280,
  height: 720,
  fps: 25,
  clips: [
    { duration: 1, layers: [{ type: "fill-color", color: "#ff0000" }] },
    { duration: 1, layers: [{ type: "fill-color", color: "#0000ff" }] },
  ],
};

describe("GIF output", () => {
  it("is scaled into 640 px at 20 fps, keeps every frame, and its palette holds the video's colours", async () => {
    const { outPath, result } = await render("gif", { ...redThenBlue, format: "gif" }, "gif");
    const p = await probeOut(outPath);
    expect(p.video).toMatchObject({ codec: "gif", width: 640, height: 360 });
    expect(p.audio).toBeNull();
    expect(result).toMatchObject({ width: 640, height: 360, fps: 20, duration: 2 });
    expect(await countFrames(outPath)).toBe(40);
    const palette = await gifPalette(outPath);
    expect(palette.length).toBeGreaterThan(0);
    expect(palette.some((c) => near(c, [255, 0, 0], 12))).toBe(true);
    expect(palette.some((c) => near(c, [0, 0, 255], 12))).toBe(true);
    expect(near(await colorAt(outPath, 0.5), [255, 0, 0], 12)).toBe(true);
    expect(near(await colorAt(outPath, 1.5), [0, 0, 255], 12)).toBe(true);
  });

  it("takes the format from editly's outPath when format is absent, and dithers as asked", async () => {
    const gradient = {
      width: 320,
      height: 180,
      fps: 10,
      outPath: "./ph.gif",
      clips: [{ duration: 0.5, layers: [{ type: "linear-gradient", colors: ["#000000", "#ffffff"] }] }],
    };
    const plain = await render("gif-none", { ...gradient, gif: { dither: "none" } }, "gif");
    const bayer = await render("gif-bayer", { ...gradient, gif: { dither: "bayer" } }, "gif");
    expect((await probeOut(plain.outPath)).video).toMatchObject({ codec: "gif", width: 320, height: 180 });
    expect(await countFrames(plain.outPath)).toBe(5);
    // Ordered dithering changes the pixels of a smooth gradient; no dithering leaves flat bands.
    const a = await readFile(plain.outPath);
    const b = await readFile(bayer.outPath);
    expect(a.equals(b)).toBe(false);
  });
});

describe("audio-only outputs", () => {
  const withMusic = {
    ...redThenBlue,
    width: 320,
    height: 180,
    audioTracks: [{ path: `${FIXTURES}/winxp.mp3`, cutTo: 1 }],
    clips: [
      {
        duration: 1.2,
        transition: { name: "cube", duration: 0.4 },
        layers: [{ type: "title", text: "only drawn in the video" }],
      },
      { duration: 1.2, layers: [{ type: "fill-color", color: "#00f" }] },
    ],
  };

  it.each([
    ["mp3", "mp3"],
    ["wav", "pcm_s16le"],
    ["m4a", "aac"],
  ])("%s holds the mix only (%s), as long as the video within a frame", async (format, codec) => {
    const { outPath, result } = await render(`audio-${format}`, { ...withMusic, format }, format);
    const p = await probeOut(outPath);
    expect(p.video).toBeNull();
    expect(p.audio).toMatchObject({ codec, channels: 2 });
    expect(result.duration).toBeCloseTo(2, 5);
    expect(Math.abs((await decodedSeconds(outPath)) - 2)).toBeLessThan(1 / 25);
    // The container's own figure counts mp3's whole first and last frames (1152 samples each).
    expect(Math.abs(p.duration - 2)).toBeLessThanOrEqual(format === "mp3" ? 0.05 : 1 / 25);
    // The track plays for its first second, then silence.
    expect(await meanVolume(outPath, 0.1, 0.7)).toBeGreaterThan(-40);
    expect(await meanVolume(outPath, 1.2, 0.7)).toBeLessThan(-80);
  });

  it("keeps a speech layer's voice (espeak-ng), said where it is placed", async () => {
    const config = {
      width: 320,
      height: 180,
      format: "mp3",
      clips: [
        { duration: 1, layers: [{ type: "fill-color", color: "#00f" }] },
        {
          duration: 3,
          layers: [
            { type: "fill-color", color: "#00f" },
            { type: "speech", text: "Hello world", start: 0.5 },
          ],
        },
      ],
    };
    const { outPath, result } = await render("audio-speech", config, "mp3");
    expect((await probeOut(outPath)).video).toBeNull();
    expect(result.duration).toBeCloseTo(4, 5);
    expect(await meanVolume(outPath, 0, 1.4)).toBeLessThan(-80);
    expect(await meanVolume(outPath, 1.5, 1)).toBeGreaterThan(-40);
  });
});

describe("mov with alpha", () => {
  const overlay = {
    width: 240,
    height: 136,
    fps: 10,
    clips: [{ duration: 1, layers: [{ type: "image-overlay", path: `${FIXTURES}/emoji.png`, width: 0.4 }] }],
  };

  it("is ProRes 4444 whose alpha is transparent where no layer covers the frame", async () => {
    const { outPath } = await render("prores", { ...overlay, format: "mov", alpha: true }, "mov");
    const p = await probeOut(outPath);
    expect(p.video?.codec).toBe("prores");
    expect(p.video?.pixFmt).toMatch(/^yuva444p1[02]le$/);
    expect(p.audio?.codec).toBe("pcm_s16le");
    const corner = await rgbaAt(outPath, 0.5, { x: 0, y: 0, w: 0.1, h: 0.1 });
    expect(corner[3]).toBeLessThan(20);
    const centre = await rgbaAt(outPath, 0.5, { x: 0.45, y: 0.45, w: 0.1, h: 0.1 });
    expect(centre[3]).toBeGreaterThan(200);
  });

  it("stays H.264 without alpha, opaque black where no layer covers the frame", async () => {
    const { outPath } = await render("plain-mov", { ...overlay, format: "mov" }, "mov");
    const p = await probeOut(outPath);
    expect(p.video).toMatchObject({ codec: "h264", pixFmt: "yuv420p" });
    expect(near(await colorAt(outPath, 0.5, { x: 0, y: 0, w: 0.1, h: 0.1 }), [0, 0, 0], 12)).toBe(true);
  });
});

describe("previews", () => {
  it("renders the range from..to of the video at a fraction of its size, sound and picture in step", async () => {
    const config = {
      ...redThenBlue,
      width: 640,
      height: 360,
      fps: 10,
      audioTracks: [{ path: `${FIXTURES}/winxp.mp3`, cutTo: 1 }],
      preview: { scale: 0.5, from: 0.5, to: 1.5 },
    };
    const { outPath, result } = await render("preview", config, "mp4");
    const p = await probeOut(outPath);
    expect(p.video).toMatchObject({ codec: "h264", width: 320, height: 180, fps: 10 });
    expect(result).toMatchObject({ width: 320, height: 180, duration: 1 });
    expect(Math.abs(p.duration - 1)).toBeLessThanOrEqual(0.1);
    expect(await countFrames(outPath)).toBe(10);
    // Video 0.5-1 s (red, the track playing), then 1-1.5 s (blue, silent).
    expect(near(await colorAt(outPath, 0.2), [255, 0, 0])).toBe(true);
    expect(near(await colorAt(outPath, 0.7), [0, 0, 255])).toBe(true);
    expect(await meanVolume(outPath, 0.05, 0.4)).toBeGreaterThan(-40);
    expect(await meanVolume(outPath, 0.6, 0.35)).toBeLessThan(-80);
  });
});
