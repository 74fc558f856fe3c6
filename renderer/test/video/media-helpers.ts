/** Test helpers that look at real outputs: ffprobe streams, pixel colours at a time, audio level. */
import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { VideoConfig } from "@media-render/contract/config";
import { run } from "../../src/lib/process.ts";
import { renderVideo } from "../../src/video/render.ts";

/** The shared media fixtures: FIXTURES_DIR, else ../shared/fixtures beside the checkout (as the README lays it out). */
export const FIXTURES =
  process.env.FIXTURES_DIR ?? fileURLToPath(new URL("../../../../shared/fixtures", import.meta.url));

export interface StreamFacts {
  duration: number;
  video: { codec: string; width: number; height: number; fps: number; pixFmt: string } | null;
  audio: { codec: string; channels: number } | null;
}

/** ffprobe summary of a rendered file. */
export const probeOut = async (path: string): Promise<StreamFacts> => {
  const { stdout } = await run("ffprobe", [
    "-v",
    "error",
    "-show_streams",
    "-show_format",
    "-of",
    "json",
    path,
  ]);
  const j = JSON.parse(stdout.toString()) as {
    format: { duration: string };
    streams: Record<string, string | number>[];
  };
  const v = j.streams.find((s) => s.codec_type === "video");
  const a = j.streams.find((s) => s.codec_type === "audio");
  const [n, d] = String(v?.r_frame_rate ?? "0/1")
    .split("/")
    .map(Number);
  return {
    duration: Number(j.format.duration),
    video: v
      ? {
          codec: String(v.codec_name),
          width: Number(v.width),
          height: Number(v.height),
          fps: n! / d!,
          pixFmt: String(v.pix_fmt),
        }
      : null,
    audio: a ? { codec: String(a.codec_name), channels: Number(a.channels) } : null,
  };
};

/**
 * Mean RGB(A) of a region of the frame shown at `t` seconds (region as fractions of the frame;
 * default: the central 20 %). `alpha` decodes VP9 alpha with libvpx and returns 4 channels. One decoder thread: a
 * frame-threaded decoder spends ~15-20 % more CPU to hand back one frame, and the tests sample hundreds.
 */
export const colorAt = async (
  path: string,
  t: number,
  region = { x: 0.4, y: 0.4, w: 0.2, h: 0.2 },
  alpha = false,
): Promise<number[]> => {
  const crop = `crop=iw*${region.w}:ih*${region.h}:iw*${region.x}:ih*${region.y},scale=1:1:flags=area`;
  const { stdout } = await run("ffmpeg", [
    ...["-v", "error", "-threads", "1", ...(alpha ? ["-c:v", "libvpx-vp9"] : [])],
    ...["-ss", String(t), "-i", path, "-frames:v", "1", "-vf", crop],
    ...["-f", "rawvideo", "-pix_fmt", alpha ? "rgba" : "rgb24", "-"],
  ]);
  return [...stdout];
};

/** Mean volume in dB of [from, from+length] seconds (-91 dB = digital silence). */
export const meanVolume = async (path: string, from: number, length: number): Promise<number> => {
  const { stderr } = await run("ffmpeg", [
    ...["-v", "info", "-ss", String(from), "-t", String(length), "-i", path],
    ...["-vn", "-af", "volumedetect", "-f", "null", "-"],
  ]);
  const m = /mean_volume:\s*(-?[\d.]+|-inf) dB/.exec(stderr);
  return m && m[1] !== "-inf" ? Number(m[1]) : -91;
};

/** True when every channel is within `tol` of the expected colour. */
export const near = (actual: number[], expected: number[], tol = 24): boolean => {
  return expected.every((e, i) => Math.abs((actual[i] ?? -999) - e) <= tol);
};

/** Every decoded frame of `path` in grey, `width` x `height`, decoded on one thread (the same pixels, less CPU). */
export const greyFrames = async (path: string, width: number, height: number): Promise<Buffer[]> => {
  const { stdout } = await run("ffmpeg", [
    ...["-v", "error", "-threads", "1", "-i", path],
    ...["-f", "rawvideo", "-pix_fmt", "gray", "-"],
  ]);
  const size = width * height;
  return Array.from({ length: stdout.length / size }, (_, i) => stdout.subarray(i * size, (i + 1) * size));
};

/**
 * Renders `config` as job `jobId` into `dir`/`name` (a video, a still's PNG, a chunk's segment...), in a work folder
 * of its own, local files allowed; `extra` adds render options (a chunk, segments to join). Its output path.
 */
export const renderInto = async (
  dir: string,
  name: string,
  jobId: string,
  config: VideoConfig,
  extra: Record<string, unknown> = {},
): Promise<string> => {
  const outPath = join(dir, name);
  await renderVideo({
    jobId,
    config,
    workDir: await mkdtemp(join(dir, "w-")),
    outPath,
    allowLocalFiles: true,
    ...extra,
  });
  return outPath;
};
