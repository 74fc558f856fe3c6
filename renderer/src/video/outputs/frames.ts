/**
 * Posters and thumbnails (config `poster`, `thumbnails`): frames of the finished output, so each is exactly the
 * frame the file shows at its time, decoded once in one ffmpeg run after the render. A frame at `t` is frame
 * floor(t × fps) (shown from k/fps until (k+1)/fps), picked by number, not by seeking. Thumbnails are scaled to
 * their width; the sprite sheet tiles them SPRITE_COLUMNS a row, and its WebVTT index gives each cue its tile.
 */
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { SPRITE_COLUMNS } from "@media-render/contract/config/limits";
import { FRAME_DEFAULTS, thumbnailSize, thumbnailTimes } from "@media-render/contract/config/outputs";
import { fileExtension, type FormatFor } from "@media-render/contract/output-formats";
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

const seconds = (t: number) => {
  const ms = Math.round(t * 1000);
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
    ...times.map((t, i) => {
      const x = (i % SPRITE_COLUMNS) * w;
      const y = Math.floor(i / SPRITE_COLUMNS) * h;
      return `${seconds(t)} --> ${seconds(times[i + 1] ?? duration)}\n${sprite}#xywh=${x},${y},${w},${h}`;
    }),
  ].join("\n\n") + "\n";

/** The frames a config asks for; `spriteName` is the sprite's stored file name, which its WebVTT points at. */
export const writeFrames = async (
  config: Pick<VideoConfig, "poster" | "thumbnails">,
  video: RenderedVideo,
  o: {
    ffmpegPath: string;
    workDir: string;
    spriteName?: string;
    signal?: AbortSignal;
    onSpawn?: (pid: number) => void;
    user?: Identity | null;
  },
): Promise<FrameFiles> => {
  const { poster, thumbnails } = config;
  if (!poster && !thumbnails) return {};
  const total = Math.max(1, Math.round(video.duration * video.fps));
  const filters: string[] = [];
  const outputs: string[] = [];
  const files: FrameFiles = {};
  const splits = [poster && "p", thumbnails && "t"].filter(Boolean) as string[];
  filters.push(splits.length === 2 ? `[0:v]split=2[p][t]` : `[0:v]null[${splits[0]}]`);
  if (poster) {
    const { ext, quality } = picture(poster.format ?? FRAME_DEFAULTS.poster);
    const path = join(o.workDir, `poster.${ext}`);
    filters.push(`[p]select='eq(n\\,${frameAt(poster.time, video.fps, total)})'[po]`);
    outputs.push("-map", "[po]", "-frames:v", "1", ...(quality?.full ?? []), path);
    files.poster = { path, ext, time: poster.time };
  }
  // Thumbnails closer together than a frame show the same frame: `select` passes each frame once, so the distinct
  // frames are written first and each thumbnail is then a copy of its frame's file.
  let thumbs: {
    frames: string[];
    ext: string;
    quality: string[];
    w: number;
    h: number;
    times: number[];
  } | null = null;
  if (thumbnails) {
    const { ext, quality: options } = picture(thumbnails.format ?? FRAME_DEFAULTS.thumbnails);
    const quality = options?.thumbnail ?? [];
    const times = thumbnailTimes(thumbnails, video.duration);
    const { width: w, height: h } = thumbnailSize(thumbnails.width, video);
    const frames = times.map((t) => frameAt(t, video.fps, total));
    const distinct = [...new Set(frames)];
    const picks = distinct.map((n) => `eq(n\\,${n})`).join("+");
    filters.push(`[t]select='${picks}',scale=${w}:${h}:flags=lanczos,setsar=1[th]`);
    outputs.push(
      "-map",
      "[th]",
      "-fps_mode",
      "passthrough",
      ...quality,
      join(o.workDir, `frame-%03d.${ext}`),
    );
    const frameFile = (n: number) =>
      join(o.workDir, `frame-${String(distinct.indexOf(n) + 1).padStart(3, "0")}.${ext}`);
    thumbs = { frames: frames.map(frameFile), ext, quality, w, h, times };
    files.thumbnails = {
      ext,
      frames: times.map((time, i) => ({
        time,
        path: join(o.workDir, `thumb-${String(i + 1).padStart(3, "0")}.${ext}`),
      })),
    };
  }
  // A transparent webm keeps its alpha in PNG frames: VP9's alpha plane is read only by libvpx's decoder.
  const decoder = encoderOf(video.format)?.decoder ?? [];
  const ffmpeg = (args: string[]) =>
    run(o.ffmpegPath, ["-hide_banner", "-nostdin", "-y", "-loglevel", "error", ...args], {
      signal: o.signal,
      onSpawn: o.onSpawn,
      user: o.user,
      timeoutMs: 10 * 60_000,
    });
  await ffmpeg([
    ...[...decoder, "-f", demuxerOfOutput(video.format), "-protocol_whitelist", "file", "-i", video.path],
    ...["-filter_complex", filters.join(";"), ...outputs],
  ]);
  if (thumbs && files.thumbnails) {
    await Promise.all(files.thumbnails.frames.map((f, i) => copyFile(thumbs.frames[i]!, f.path)));
    if (thumbnails?.sprite) {
      // The sheet tiles every thumbnail, repeats included, in order: its WebVTT index counts on that.
      const { ext, quality, w, h, times } = thumbs;
      const rows = Math.ceil(times.length / SPRITE_COLUMNS);
      const cols = Math.min(SPRITE_COLUMNS, times.length);
      const path = join(o.workDir, `sprite.${ext}`);
      await ffmpeg([
        ...["-f", "image2", "-protocol_whitelist", "file", "-framerate", "1"],
        ...["-i", join(o.workDir, `thumb-%03d.${ext}`)],
        ...["-vf", `tile=${cols}x${rows}:nb_frames=${times.length}`, "-frames:v", "1"],
        ...quality,
        path,
      ]);
      const vtt = spriteVtt(o.spriteName ?? `sprite.${ext}`, times, video.duration, w, h);
      files.thumbnails.sprite = { path, vtt };
    }
  }
  return files;
};
