/**
 * Posters and thumbnails (config `poster`, `thumbnails`): frames of the finished output, so each is exactly the
 * frame the file shows at its time, decoded once in one ffmpeg run after the render. A frame at `t` is frame
 * floor(t × fps) (shown from k/fps until (k+1)/fps), picked by number, not by seeking. Thumbnails are scaled to
 * their width; the sprite sheet tiles them SPRITE_COLUMNS a row, and its WebVTT index gives each cue its tile.
 */
import { join } from "node:path";
import { SPRITE_COLUMNS } from "@media-render/contract/config/limits";
import { thumbnailSize, thumbnailTimes } from "@media-render/contract/config/outputs";
import type { VideoConfig } from "@media-render/contract/config/video";
import { run } from "../../lib/process.ts";

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

const EXT = { png: "png", jpeg: "jpg" } as const;

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
    const ext = EXT[poster.format ?? "png"];
    const path = join(o.workDir, `poster.${ext}`);
    filters.push(`[p]select='eq(n\\,${frameAt(poster.time, video.fps, total)})'[po]`);
    outputs.push("-map", "[po]", "-frames:v", "1", ...(ext === "jpg" ? ["-q:v", "2"] : []), path);
    files.poster = { path, ext, time: poster.time };
  }
  if (thumbnails) {
    const ext = EXT[thumbnails.format ?? "jpeg"];
    const times = thumbnailTimes(thumbnails, video.duration);
    const { width: w, height: h } = thumbnailSize(thumbnails.width, video);
    const picks = times.map((t) => `eq(n\\,${frameAt(t, video.fps, total)})`).join("+");
    const quality = ext === "jpg" ? ["-q:v", "3"] : [];
    filters.push(
      `[t]select='${picks}',scale=${w}:${h}:flags=lanczos,setsar=1${thumbnails.sprite ? ",split=2[th][ts]" : "[th]"}`,
    );
    outputs.push(
      "-map",
      "[th]",
      "-fps_mode",
      "passthrough",
      ...quality,
      join(o.workDir, `thumb-%03d.${ext}`),
    );
    files.thumbnails = {
      ext,
      frames: times.map((time, i) => ({
        time,
        path: join(o.workDir, `thumb-${String(i + 1).padStart(3, "0")}.${ext}`),
      })),
    };
    if (thumbnails.sprite) {
      const rows = Math.ceil(times.length / SPRITE_COLUMNS);
      const cols = Math.min(SPRITE_COLUMNS, times.length);
      const path = join(o.workDir, `sprite.${ext}`);
      filters.push(`[ts]tile=${cols}x${rows}:nb_frames=${times.length}[sheet]`);
      outputs.push("-map", "[sheet]", "-frames:v", "1", ...quality, path);
      const vtt = spriteVtt(o.spriteName ?? `sprite.${ext}`, times, video.duration, w, h);
      files.thumbnails.sprite = { path, vtt };
    }
  }
  // VP9's alpha plane is read only by libvpx's decoder; a transparent webm keeps it in PNG frames.
  const decoder = video.format === "webm" ? ["-c:v", "libvpx-vp9"] : [];
  await run(
    o.ffmpegPath,
    [
      ...["-hide_banner", "-nostdin", "-y", "-loglevel", "error", ...decoder, "-i", video.path],
      ...["-filter_complex", filters.join(";"), ...outputs],
    ],
    { signal: o.signal, onSpawn: o.onSpawn, timeoutMs: 10 * 60_000 },
  );
  return files;
};
