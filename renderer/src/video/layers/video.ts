/**
 * `video` layer: cutFrom/cutTo, resizeMode (default contain-blur), box + position (PiP),
 * optional zoom, and its audio (mixVolume) when keepSourceAudio is on.
 * Speed-fit (reference §2.4 caution): when `cutTo` is given, the chosen segment is stretched to the
 * layer window (setpts + atempo); otherwise it plays at 1x and the last frame holds if it runs short.
 */
import type { GraphContext, LayerVideo, LayerWindow } from "../graph-context.ts";
import { placeBox } from "../position.ts";
import type { LayerOf } from "../types.ts";
import { evenDimension } from "@media-render/contract/geometry";
import { clamp, f } from "../values.ts";
import { isPan, panCrop, zoomAmount, zoomDirection, zoompanFilter } from "./ken-burns.ts";
import { resizeInto } from "./resize.ts";
import { laidOut } from "./sizes.ts";

/**
 * Source segment of a video layer: where to cut and how fast to play it (pure). A file of unknown length
 * (`fileDuration` 0: a webm written to a stream has none) is cut where asked; where it runs out, the last frame holds.
 */
export const videoSegment = (
  layer: LayerOf<"video">,
  fileDuration: number,
  windowSeconds: number,
): { cutFrom: number; length: number; speed: number } => {
  const end = fileDuration > 0 ? fileDuration : Number.POSITIVE_INFINITY;
  const cutFrom = clamp(layer.cutFrom ?? 0, 0, Math.max(0, end - 0.01));
  const explicitTo = layer.cutTo ?? null;
  const cutTo = clamp(explicitTo ?? end, cutFrom + 0.01, end);
  const available = cutTo - cutFrom;
  if (explicitTo !== null && Math.abs(available - windowSeconds) > 1e-3) {
    return { cutFrom, length: available, speed: available / windowSeconds };
  }
  return { cutFrom, length: Math.min(available, windowSeconds), speed: 1 };
};

/** Seconds before a file's end a window's seek stays: enough to decode its last frame at 1 fps or more. */
const HOLD_SECONDS = 1;

/** atempo accepts 0.5–100 in ffmpeg 5.1; outside that the audio is dropped (reference §2.4). */
const tempoOk = (speed: number): boolean => {
  return speed >= 0.5 && speed <= 100;
};

export const video = (layer: LayerOf<"video">, win: LayerWindow, ctx: GraphContext): LayerVideo | null => {
  const path = layer.path;
  const info = ctx.mediaInfo(path);
  if (!info || !info.hasVideo) return null;
  // A cut that starts at or after the file's end has no frame to show (creation refuses it for stored files: the
  // plan knows their lengths); drawn as nothing rather than as a stream that never yields a frame.
  if (info.duration > 0 && (layer.cutFrom ?? 0) >= info.duration) return null;
  const { width: W, height: H, fps } = ctx.spec;
  const seg = videoSegment(layer, info.duration, win.duration);
  // ffmpeg's native VP8/VP9 decoders drop the alpha side channel; libvpx keeps it.
  const decoder =
    info.hasAlpha && (info.videoCodec === "vp9" || info.videoCodec === "vp8")
      ? ["-c:v", `lib${info.videoCodec === "vp9" ? "vpx-vp9" : "vpx"}`]
      : [];
  // A window starting inside the layer seeks past what it does not draw: ffmpeg decodes from the keyframe before
  // (at most one GOP) and drops the rest, rather than decoding and filtering every frame before the window. It seeks
  // to a frame `from` of the layer's grid at least HOLD_SECONDS before the file's end (from the cut when its length
  // is unknown): where the file has run out the layer holds its last frame (tpad), which a seek past that frame would
  // never decode; the frames between `from` and the window are cut after the hold.
  const held = Math.floor(((info.duration - HOLD_SECONDS - seg.cutFrom) / seg.speed) * fps);
  const from = Math.min(win.skip, Math.max(0, held));
  const ahead = (from / fps) * seg.speed;
  const input = ctx.addMedia(
    info,
    [...decoder, "-ss", f(seg.cutFrom + ahead), "-t", f(seg.length - ahead + 1 / fps)],
    path,
  );
  // A keyframed size is laid out at the largest it reaches; layers/motion.ts resizes it along its keyframes.
  const w = evenDimension(clamp(laidOut(layer.width ?? 1), 0.01, 1) * W);
  const h = evenDimension(clamp(laidOut(layer.height ?? 1), 0.01, 1) * H);
  const full = w === W && h === H;
  const { x, y } = full ? { x: 0, y: 0 } : placeBox(layer, W, H, w, h);
  const mode = layer.resizeMode ?? "contain-blur";
  // Timestamps as seconds from the cut (ffmpeg makes the seek point 0: the cut plus `ahead`), played at the
  // segment's speed; `fps` takes the frame nearest each of the layer's frame times from the first one drawn, so a
  // window draws the same source frame at a frame as the whole render does.
  const first = from / fps;
  const pre = `setpts=PTS/${f(seg.speed)}+${f(first)}/TB,fps=${fps}:start_time=${f(first)}`;
  const dir = zoomDirection(layer.zoomDirection, null);
  const amount = zoomAmount(layer.zoomAmount);
  // A pan resizes each frame once, to the panned size, and crops it (ken-burns.ts); a zoom resizes twice.
  const pan = isPan(dir) ? panCrop(dir, amount, win.frames, w, h, from) : null;
  const resized = resizeInto(ctx, `${input}:v`, pre, mode, pan?.w ?? w, pan?.h ?? h, info);
  const alpha = info.hasAlpha || mode === "contain";
  const fmt = alpha ? "yuva420p" : "yuv420p";
  const zoom = pan
    ? `,${pan.crop}`
    : dir
      ? `,${zoompanFilter(dir, amount, win.frames, w, h, fps, { skip: from, drawn: win.drawn, moving: true })}`
      : "";
  const label = ctx.label("vid");
  const lead = win.skip - from;
  const cut = `${lead > 0 ? `start_frame=${lead}:` : ""}end_frame=${lead + win.drawn}`;
  ctx.chain(
    `[${resized}]format=${fmt}${zoom},tpad=stop_mode=clone:stop=-1,trim=${cut},${ctx.retimeLayer(win)}[${label}]`,
  );
  if (ctx.audio && ctx.spec.keepSourceAudio && info.hasAudio && tempoOk(seg.speed)) {
    const a = ctx.label("va");
    const vol = layer.mixVolume ?? 1;
    const tempo = seg.speed !== 1 ? `,atempo=${f(seg.speed)}` : "";
    ctx.chain(`[${input}:a]asetpts=PTS-STARTPTS${tempo},volume=${f(vol)}[${a}]`);
    ctx.clipAudio.push({ label: a, offset: win.start, duration: win.duration });
  }
  return { label, x, y, w, h, coversFrame: full && !alpha };
};
