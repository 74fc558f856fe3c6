/**
 * Animation of rasterised text layers, expressed in ffmpeg terms (pure): alpha fades, overlay
 * x/y expressions of `t` (clip seconds) and zoom. Values follow editly's sources where known.
 */
import type { LayerWindow } from "../graph-context.ts";
import type { LayerOf } from "../types.ts";
import { clamp, f } from "../values.ts";
import type { RasterLayer } from "./raster-types.ts";
import { zoomAmount, zoomDirection, zoompanFilter } from "./ken-burns.ts";

export interface TextMotion {
  /** Filters applied before retiming (frame-count based, e.g. zoompan). */
  pre: string[];
  /** Filters applied after retiming (timestamp based, e.g. fade). */
  post: string[];
  x: string | number;
  y: string | number;
}

/** The layers with a `style` (and `animationDuration`). */
export type TitleLayer = LayerOf<"title" | "title-background">;
export const isTitle = (layer: { type: string }): layer is TitleLayer =>
  layer.type === "title" || layer.type === "title-background";

/** Title styles (reference §2.4): fade-in (default), word-by-word, letter-by-letter. */
export function titleStyle(layer: TitleLayer): "fade-in" | "word-by-word" | "letter-by-letter" {
  return layer.style ?? "fade-in";
}

/** Seconds a title's fade-in takes without `animationDuration` (n/d in the sources, documented in README). */
const TITLE_FADE_IN = 0.5;

/**
 * Seconds the word/letter reveal (or fade-in) takes; n/d in the sources, documented in README. Layers
 * without a style (subtitles, banners) reveal nothing: 0.
 */
export function animationSeconds(layer: RasterLayer, windowSeconds: number): number {
  if (!isTitle(layer)) return 0;
  const style = titleStyle(layer);
  const fallback = style === "fade-in" ? TITLE_FADE_IN : Math.min(2, windowSeconds * 0.6);
  return clamp(layer.animationDuration ?? fallback, 0, windowSeconds);
}

const easeOutExpo = (p: string) => `(1-pow(2,-10*${p}))`;

/**
 * editly's banner clock (subtitle.ts, news-title.ts): `easeOutExpo(clamp((progress - delay) * speed * k,
 * 0, 1))`, progress = seconds into the layer / its length (so `delay` is a fraction of the layer, and the
 * default animation spans the whole layer), as an ffmpeg expression of the time variable `time`.
 */
export function bannerEase(
  layer: { delay?: number; speed?: number },
  win: LayerWindow,
  k: number,
  time: string,
): string {
  const x = `clip(((${time}-${f(win.start)})/${f(Math.max(0.001, win.duration))}-${f(layer.delay ?? 0)})*${f((layer.speed ?? 1) * k)},0,1)`;
  return `if(gte(${x},1),1,1-pow(2,-10*${x}))`;
}

/** Motion for a rasterised layer whose box is at (x,y) with size (w,h) in a WxH frame. */
export function textMotion(
  layer: RasterLayer,
  win: LayerWindow,
  box: { x: number; y: number; w: number; h: number },
  frame: { W: number; H: number; fps: number },
): TextMotion {
  const s = win.start;
  const d = win.duration;
  const fadeIn = (dur: number, at = s) =>
    `fade=t=in:st=${f(at)}:d=${f(Math.max(1 / frame.fps, dur))}:alpha=1`;
  const fadeOut = (at: number, dur: number) =>
    `fade=t=out:st=${f(at)}:d=${f(Math.max(1 / frame.fps, dur))}:alpha=1`;
  switch (layer.type) {
    case "title":
    case "title-background": {
      const style = titleStyle(layer);
      const pre: string[] = [];
      // JC disables zoom for the word/letter styles.
      const dir = style === "fade-in" ? zoomDirection(layer.zoomDirection, "in") : null;
      if (dir)
        pre.push(zoompanFilter(dir, zoomAmount(layer.zoomAmount), win.frames, box.w, box.h, frame.fps, true));
      const post = style === "fade-in" ? [fadeIn(animationSeconds(layer, d))] : [];
      return { pre, post, x: box.x, y: box.y };
    }
    case "subtitle": {
      // editly: opacity and a slide from `padding` (5 % of the shorter side) to the left, both eased.
      // The opacity is a linear alpha fade over warped timestamps (pts = the eased value in seconds),
      // then the frame times are put back: a per-frame alpha without a per-pixel expression.
      const pad = 0.05 * Math.min(frame.W, frame.H);
      const post = [
        `settb=AVTB,setpts='(${bannerEase(layer, win, 1, "T")})/TB'`,
        "fade=t=in:st=0:d=1:alpha=1",
        `settb=1/${frame.fps},setpts=N+${win.startFrame}`,
      ];
      return { pre: [], post, x: `${box.x}-${f(pad)}*(1-(${bannerEase(layer, win, 1, "t")}))`, y: box.y };
    }
    case "news-title": {
      // editly: the band slides in from the left on (progress - delay) * speed * 3.
      return {
        pre: [],
        post: [],
        x: `${box.x}-${box.x + box.w}*(1-(${bannerEase(layer, win, 3, "t")}))`,
        y: box.y,
      };
    }
    case "slide-in-text": {
      // editly: reveal between 10 % and 30 % of the window, hold, fade out 80 % → 90 %.
      const dx = frame.W * 0.1;
      const p = `min(1,max(0,(t-${f(s + d * 0.1)})/${f(Math.max(0.001, d * 0.2))}))`;
      return {
        pre: [],
        post: [fadeIn(d * 0.2, s + d * 0.1), fadeOut(s + d * 0.8, d * 0.1)],
        x: `${box.x}-${f(dx)}*(1-${easeOutExpo(p)})`,
        y: box.y,
      };
    }
    default:
      return { pre: [], post: [], x: box.x, y: box.y };
  }
}
