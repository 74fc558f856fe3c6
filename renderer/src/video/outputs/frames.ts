/**
 * Posters and thumbnails (config `poster`, `thumbnails`): frames of the finished output, so each is exactly the
 * frame the file shows at its time, decoded after the render. A frame at `t` is frame floor(t × fps) (shown from
 * k/fps until (k+1)/fps), found by seeking half a frame before it or picked by number in one pass (writeFrames). Thumbnails are scaled to
 * their width; the sprite sheet tiles them SPRITE_COLUMNS a row, and its WebVTT index gives each cue its tile.
 */
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { SPRITE_COLUMNS } from "@media-render/contract/config/limits";
import { FRAME_DEFAULTS, thumbnailSize, thumbnailTimes } from "@media-render/contract/config/outputs";
import { fileExtension, outputFormat, type FormatFor } from "@media-render/contract/output-formats";
import type { VideoConfig } from "@media-render/contract/config/video";
import { run } from "../../lib/process.ts";
import { demuxerOfOutput } from "../../probe/demuxers.ts";
import type { Identity } from "../../lib/run-as.ts";
import { encoderOf } from "./encoders.ts";

/** What the render produced, as frames.ts reads it. */
export interface RenderedVideo {
  path: string;
  format: string;
  width: number;
  height: number;
  fps: number;
  duration: number;
}

/** The image files written, by output, with the time each shows. */
export interface FrameFiles {
  poster?: { path: string; ext: string; time: number };
  thumbnails?: {
    frames: { path: string; time: number }[];
    ext: string;
    sprite?: { path: string; vtt: string };
  };
}

/** The file extension and the quality options (encoders.ts) of a poster's or thumbnails' `format`. */
const picture = (format: FormatFor<"frame">) => ({
  ext: fileExtension(format),
  quality: encoderOf(format)?.quality,
});

/** The frame number shown at `t` s, within the video's `frames`. */
export const frameAt = (t: number, fps: number, frames: number): number =>
  Math.min(frames - 1, Math.max(0, Math.floor(t * fps + 1e-6)));

const seconds = (time: number) => {
  const ms = Math.round(time * 1000);
  const hh = String(Math.floor(ms / 3_600_000)).padStart(2, "0");
  const mm = String(Math.floor(ms / 60_000) % 60).padStart(2, "0");
  const ss = String(Math.floor(ms / 1000) % 60).padStart(2, "0");
  return `${hh}:${mm}:${ss}.${String(ms % 1000).padStart(3, "0")}`;
};

/**
 * The WebVTT index of a sprite sheet (the de-facto thumbnail track of video players): cue i spans thumbnail i's
 * time to the next one's (the last to the end) and names its tile as `sprite#xywh=x,y,w,h`.
 */
export const spriteVtt = (sprite: string, times: number[], duration: number, w: number, h: number): string =>
  [
    "WEBVTT",
    ...times.map((time, i) => {
      const x = (i % SPRITE_COLUMNS) * w;
      const y = Math.floor(i / SPRITE_COLUMNS) * h;
      return `${seconds(time)} --> ${seconds(times[i + 1] ?? duration)}\n${sprite}#xywh=${x},${y},${w},${h}`;
    }),
  ].join("\n\n") + "\n";

/**
 * Frames further apart than this decode faster by seeking to each (the decoder starts at the keyframe before it:
 * x264's longest GOP is 250 frames) than by one pass over the whole file.
 */
const SEEK_BEYOND_FRAMES = 250;

/**
 * The frames a config asks for; `spriteName` is the sprite's stored file name, which its WebVTT points at. A frame
 * far into the file is found by seeking (`-ss` half a frame before it: the decoder starts at the keyframe before and
 * drops what precedes it, so frame k is the first kept), not by decoding every frame before it: a poster at the
 * end costs what one at the start does. Thumbnails are sought one by one when they are sparser than a GOP, else taken
 * in one pass (`select` by frame number). A GIF is always read in one pass.
 */
export const writeFrames = async (
  config: Pick<VideoConfig, "poster" | "thumbnails">,
  video: RenderedVideo,
  job: {
    ffmpegPath: string;
    workDir: string;
    spriteName?: string;
    signal?: AbortSignal;
    onSpawn?: (pid: number) => void;
    user?: Identity | null;
    /** Tests: seek to frames further apart than this (default SEEK_BEYOND_FRAMES). */
    seekBeyondFrames?: number;
  },
): Promise<FrameFiles> => {
  const { poster, thumbnails } = config;
  if (!poster && !thumbnails) return {};
  const total = Math.max(1, Math.round(video.duration * video.fps));
  const files: FrameFiles = {};
  // A transparent webm keeps its alpha in PNG frames: VP9's alpha plane is read only by libvpx's decoder.
  const decoder = encoderOf(video.format)?.decoder ?? [];
  // An animated image is read in one pass (its demuxer does not seek by time).
  const seekable = outputFormat(video.format)?.kind !== "animated image";
  const ffmpeg = (args: string[]) =>
    run(job.ffmpegPath, ["-hide_banner", "-nostdin", "-y", "-loglevel", "error", ...args], {
      signal: job.signal,
      onSpawn: job.onSpawn,
      user: job.user,
      timeoutMs: 10 * 60_000,
    });
  const input = (k?: number) => [
    ...(k ? ["-ss", ((k - 0.5) / video.fps).toFixed(6)] : []),
    ...[...decoder, "-f", demuxerOfOutput(video.format), "-protocol_whitelist", "file", "-i", video.path],
  ];
  /** Frame `k`, through `filter`, into `path`: sought to, or picked by number in a pass from the start. */
  const oneFrame = (k: number, filter: string | null, path: string, quality: string[]) =>
    ffmpeg([
      ...input(seekable ? k : undefined),
      ...["-vf", [seekable ? null : `select='eq(n\\,${k})'`, filter].filter(Boolean).join(",") || "null"],
      ...["-frames:v", "1", ...quality, path],
    ]);

  if (poster) {
    const { ext, quality } = picture(poster.format ?? FRAME_DEFAULTS.poster);
    const path = join(job.workDir, `poster.${ext}`);
    await oneFrame(frameAt(poster.time, video.fps, total), null, path, quality?.full ?? []);
    files.poster = { path, ext, time: poster.time };
  }
  if (!thumbnails) return files;
  const { ext, quality: options } = picture(thumbnails.format ?? FRAME_DEFAULTS.thumbnails);
  const times = thumbnailTimes(thumbnails, video.duration);
  const { width: w, height: h } = thumbnailSize(thumbnails.width, video);
  const frames = times.map((t) => frameAt(t, video.fps, total));
  // Thumbnails closer together than a frame show the same frame: each distinct frame is written once and each
  // thumbnail is then a copy of its frame's file.
  const distinct = [...new Set(frames)];
  const scale = `scale=${w}:${h}:flags=lanczos,setsar=1`;
  const quality = options?.thumbnail ?? [];
  const frameFile = (n: number) =>
    join(job.workDir, `frame-${String(distinct.indexOf(n) + 1).padStart(3, "0")}.${ext}`);
  const sparse = distinct.length * (job.seekBeyondFrames ?? SEEK_BEYOND_FRAMES) < total;
  if (seekable && sparse)
    for (const frame of distinct) await oneFrame(frame, scale, frameFile(frame), quality);
  else {
    // `select` passes each frame once, in order: the distinct frames come out as frame-001, frame-002...
    const picks = distinct.map((n) => `eq(n\\,${n})`).join("+");
    await ffmpeg([
      ...input(),
      ...["-vf", `select='${picks}',${scale}`, "-fps_mode", "passthrough", ...quality],
      join(job.workDir, `frame-%03d.${ext}`),
    ]);
  }
  files.thumbnails = {
    ext,
    frames: times.map((time, i) => ({
      time,
      path: join(job.workDir, `thumb-${String(i + 1).padStart(3, "0")}.${ext}`),
    })),
  };
  await Promise.all(files.thumbnails.frames.map((f, i) => copyFile(frameFile(frames[i]!), f.path)));
  if (thumbnails.sprite) {
    // The sheet tiles every thumbnail, repeats included, in order: its WebVTT index counts on that.
    const rows = Math.ceil(times.length / SPRITE_COLUMNS);
    const cols = Math.min(SPRITE_COLUMNS, times.length);
    const path = join(job.workDir, `sprite.${ext}`);
    await ffmpeg([
      ...["-f", "image2", "-protocol_whitelist", "file", "-framerate", "1"],
      ...["-i", join(job.workDir, `thumb-%03d.${ext}`)],
      ...["-vf", `tile=${cols}x${rows}:nb_frames=${times.length}`, "-frames:v", "1"],
      ...quality,
      path,
    ]);
    const vtt = spriteVtt(job.spriteName ?? `sprite.${ext}`, times, video.duration, w, h);
    files.thumbnails.sprite = { path, vtt };
  }
  return files;
};
