/**
 * The pieces text layer types animate with, in ffmpeg terms (pure): alpha fades, editly's eased banner clock
 * as an expression of time. Values follow editly's sources where known.
 */
import type { LayerWindow } from "../graph-context.ts";
import { f } from "../values.ts";

/** An alpha fade-in over `dur` seconds from `at` (at least one frame). */
export const fadeIn = (fps: number, at: number, dur: number): string =>
  `fade=t=in:st=${f(at)}:d=${f(Math.max(1 / fps, dur))}:alpha=1`;

/** An alpha fade-out over `dur` seconds from `at` (at least one frame). */
export const fadeOut = (fps: number, at: number, dur: number): string =>
  `fade=t=out:st=${f(at)}:d=${f(Math.max(1 / fps, dur))}:alpha=1`;

/** editly's easeOutExpo of the expression `p` (0..1). */
export const easeOutExpo = (p: string): string => `(1-pow(2,-10*${p}))`;

/**
 * editly's banner clock (subtitle.ts, news-title.ts): `easeOutExpo(clamp((progress - delay) * speed * k,
 * 0, 1))`, progress = seconds into the layer / its length (so `delay` is a fraction of the layer, and the
 * default animation spans the whole layer), as an ffmpeg expression of the time variable `time`.
 */
export const bannerEase = (
  layer: { delay?: number; speed?: number },
  win: LayerWindow,
  k: number,
  time: string,
): string => {
  const x = `clip(((${time}-${f(win.start)})/${f(Math.max(0.001, win.duration))}-${f(layer.delay ?? 0)})*${f((layer.speed ?? 1) * k)},0,1)`;
  return `if(gte(${x},1),1,1-pow(2,-10*${x}))`;
};
