/**
 * `audio` (clip audio, needs keepSourceAudio; an explicit cutTo is time-stretched to the window)
 * and `detached-audio` (becomes an absolute audio track starting at clip start + layer start).
 */
import type { GraphContext, LayerWindow } from "../graph-context.ts";
import type { AudioTrackSpec, Layer } from "../types.ts";
import { clamp, f, num, optNum, str } from "../values.ts";

/** Compiles an `audio` layer into ctx.clipAudio. Returns nothing visual. */
export function audioLayer(layer: Layer, win: LayerWindow, ctx: GraphContext): null {
  const path = str(layer.path, "");
  const info = ctx.mediaInfo(path);
  if (!ctx.spec.keepSourceAudio || !info?.hasAudio) return null;
  const cutFrom = clamp(num(layer.cutFrom, 0), 0, info.duration);
  const explicitTo = optNum(layer.cutTo);
  const cutTo = clamp(explicitTo ?? cutFrom + win.duration, cutFrom + 0.01, info.duration);
  const length = cutTo - cutFrom;
  const speed = explicitTo !== null ? length / win.duration : 1;
  if (speed < 0.5 || speed > 100) return null;
  const input = ctx.addInput(["-ss", f(cutFrom), "-t", f(length)], path);
  const label = ctx.label("al");
  const tempo = speed !== 1 ? `,atempo=${f(speed)}` : "";
  ctx.chain(
    `[${input}:a]asetpts=PTS-STARTPTS${tempo},volume=${f(clamp(num(layer.mixVolume, 1), 0, 100))}[${label}]`,
  );
  ctx.clipAudio.push({ label, offset: win.start, duration: win.duration });
  return null;
}

/** A `detached-audio` layer as an absolute audio track (clipStart in seconds). */
export function detachedTrack(layer: Layer, clipStart: number): AudioTrackSpec | null {
  const path = str(layer.path, "");
  if (!path) return null;
  return {
    path,
    mixVolume: clamp(num(layer.mixVolume, 1), 0, 100),
    start: clipStart + Math.max(0, num(layer.start, 0)),
    cutFrom: Math.max(0, num(layer.cutFrom, 0)),
    cutTo: optNum(layer.cutTo),
  };
}
