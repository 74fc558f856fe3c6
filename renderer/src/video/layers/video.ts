/**
 * `video` layer: cutFrom/cutTo, resizeMode (default contain-blur), box + position (PiP),
 * optional zoom, and its audio (mixVolume) when keepSourceAudio is on.
 * Speed-fit (reference §2.4 caution): when `cutTo` is given, the chosen segment is stretched to the
 * layer window (setpts + atempo); otherwise it plays at 1x and the last frame holds if it runs short. `speed`
 * plays it at that speed instead, and `loop` repeats it (playback.ts).
 */
import type { GraphContext, LayerVideo, LayerWindow } from "../graph-context.ts";
import { placeBox } from "../position.ts";
import type { LayerOf } from "../types.ts";
import { evenDimension } from "@media-render/contract/geometry";
import { clamp } from "../values.ts";
import { zoomAmount, zoomDirection } from "./ken-burns.ts";
import { playSegment, segmentSound, type Segment } from "./playback.ts";
import { laidOut } from "./sizes.ts";

/**
 * Source segment of a video layer: where to cut, how much and how fast to play it, whether it repeats (pure). With
 * `speed` or `loop` the cut plays at `speed` (default 1); else an explicit `cutTo` stretches it to the layer (editly's
 * speed-fit) and without one it plays at 1x. A file of unknown length (`fileDuration` 0: a webm written to a stream
 * has none) is cut where asked; where it runs out, the last frame holds (without a `cutTo` it cannot loop).
 */
export const videoSegment = (
  layer: LayerOf<"video">,
  fileDuration: number,
  windowSeconds: number,
): Segment => {
  const end = fileDuration > 0 ? fileDuration : Number.POSITIVE_INFINITY;
  const cutFrom = clamp(layer.cutFrom ?? 0, 0, Math.max(0, end - 0.01));
  const explicitTo = layer.cutTo ?? null;
  const cutTo = clamp(explicitTo ?? end, cutFrom + 0.01, end);
  const available = cutTo - cutFrom;
  const loop = layer.loop === true && Number.isFinite(available);
  if (layer.speed !== undefined || loop) {
    const speed = layer.speed ?? 1;
    return { cutFrom, length: loop ? available : Math.min(available, windowSeconds * speed), speed, loop };
  }
  if (explicitTo !== null && Math.abs(available - windowSeconds) > 1e-3) {
    return { cutFrom, length: available, speed: available / windowSeconds, loop: false };
  }
  return { cutFrom, length: Math.min(available, windowSeconds), speed: 1, loop: false };
};

/** A stretch to the clip (editly's speed-fit) plays its sound only within 0.5-100x (reference §2.4). */
const fitTempoOk = (speed: number): boolean => speed >= 0.5 && speed <= 100;

export const video = (layer: LayerOf<"video">, win: LayerWindow, ctx: GraphContext): LayerVideo | null => {
  const path = layer.path;
  const info = ctx.mediaInfo(path);
  if (!info || !info.hasVideo) return null;
  // A cut that starts at or after the file's end has no frame to show (creation refuses it for stored files: the
  // plan knows their lengths); drawn as nothing rather than as a stream that never yields a frame.
  if (info.duration > 0 && (layer.cutFrom ?? 0) >= info.duration) return null;
  const { width: W, height: H } = ctx.spec;
  const seg = videoSegment(layer, info.duration, win.duration);
  // ffmpeg's native VP8/VP9 decoders drop the alpha side channel; libvpx keeps it.
  const decoder =
    info.hasAlpha && (info.videoCodec === "vp9" || info.videoCodec === "vp8")
      ? ["-c:v", `lib${info.videoCodec === "vp9" ? "vpx-vp9" : "vpx"}`]
      : [];
  // A keyframed size is laid out at the largest it reaches; layers/motion.ts resizes it along its keyframes.
  const w = evenDimension(clamp(laidOut(layer.width ?? 1), 0.01, 1) * W);
  const h = evenDimension(clamp(laidOut(layer.height ?? 1), 0.01, 1) * H);
  const full = w === W && h === H;
  const { x, y } = full ? { x: 0, y: 0 } : placeBox(layer, W, H, w, h);
  const mode = layer.resizeMode ?? "contain-blur";
  const alpha = info.hasAlpha || mode === "contain";
  const zoom = { dir: zoomDirection(layer.zoomDirection, null), amount: zoomAmount(layer.zoomAmount) };
  const fmt = alpha ? "yuva420p" : "yuv420p";
  const played = playSegment(
    ctx,
    { path, info, seg, decoder, seek: true, box: { w, h }, mode, zoom, fmt, prefix: "vid" },
    win,
  );
  const explicit = layer.speed !== undefined || seg.loop;
  if (ctx.audio && ctx.spec.keepSourceAudio && info.hasAudio && (explicit || fitTempoOk(seg.speed))) {
    const sound = segmentSound(ctx, played.input, seg, win, layer.mixVolume ?? 1);
    ctx.clipAudio.push({ label: sound, offset: win.start, duration: win.duration });
  }
  return { label: played.label, x, y, w, h, coversFrame: full && !alpha };
};
