/**
 * `audio` (clip audio, needs keepSourceAudio; an explicit cutTo is time-stretched to the window)
 * and `detached-audio` (becomes an absolute audio track starting at clip start + layer start).
 */
import type { GraphContext, LayerWindow } from "../graph-context.ts";
import type { AudioTrackSpec, LayerOf } from "../types.ts";
import { clamp, ffNumber } from "../values.ts";
import { volumeFilter } from "./keyframe-expr.ts";

/** Compiles an `audio` layer into ctx.clipAudio. Returns nothing visual. */
export const audioLayer = (layer: LayerOf<"audio">, win: LayerWindow, ctx: GraphContext): null => {
  const info = ctx.mediaInfo(layer.path);
  if (!ctx.audio || !ctx.spec.keepSourceAudio || !info?.hasAudio) return null;
  // A file of unknown length (0: a webm written to a stream) is cut where asked.
  const end = info.duration > 0 ? info.duration : Number.POSITIVE_INFINITY;
  const cutFrom = clamp(layer.cutFrom ?? 0, 0, end);
  const explicitTo = layer.cutTo ?? null;
  const cutTo = clamp(explicitTo ?? cutFrom + win.duration, cutFrom + 0.01, end);
  const length = cutTo - cutFrom;
  const speed = explicitTo !== null ? length / win.duration : 1;
  if (speed < 0.5 || speed > 100) return null;
  const input = ctx.addMedia(info, ["-ss", ffNumber(cutFrom), "-t", ffNumber(length)], layer.path);
  const label = ctx.label("al");
  const tempo = speed !== 1 ? `,atempo=${ffNumber(speed)}` : "";
  ctx.chain(`[${input}:a]asetpts=PTS-STARTPTS${tempo},${volumeFilter(layer.mixVolume ?? 1)}[${label}]`);
  ctx.clipAudio.push({ label, offset: win.start, duration: win.duration });
  return null;
};

/** A `detached-audio` layer as an absolute audio track (clipStart in seconds). */
export const detachedTrack = (layer: LayerOf<"detached-audio">, clipStart: number): AudioTrackSpec => {
  return {
    path: layer.path,
    mixVolume: layer.mixVolume ?? 1,
    start: clipStart + (layer.start ?? 0),
    cutFrom: layer.cutFrom ?? 0,
    cutTo: layer.cutTo ?? null,
  };
};
