/**
 * The words of the `karaoke` and `pop` caption presets, moved by the graph (pure filter text): each word, cut from the
 * text sheet where it was drawn on its own (raster/rasterize-text.ts), is overlaid from the frame it is said until the
 * caption ends, with an expression of the frame's time. So every frame shows the value at its own time, in a single
 * render, a chunk or a still alike (a window starting inside a word evaluates the same expression there).
 * - `wipe` (karaoke): the word in the fill colour is revealed left to right over the time it is said: at time t the
 *   left `clip((t - start) / (end - start), 0, 1)` of it (on even pixels), then held, filled, until the caption ends.
 * - `pop`: the word scales in about its centre from `POP_FROM` of its size to its size over `POP_SECONDS` (ease-out
 *   cubic), then holds.
 */
import type { GraphContext, LayerVideo, LayerWindow } from "../graph-context.ts";
import type { WordMotion, WordOverlay } from "../types.ts";
import { ffNumber } from "../values.ts";

/** Seconds a popping word takes to reach its size, and the fraction of it it starts at. */
export const POP_SECONDS = 0.15;
export const POP_FROM = 0.4;

/** The scale of a popping word said at `start` (seconds), as an expression of the time variable `t`. */
export const popScale = (start: number): string => {
  const progress = `clip((t-${ffNumber(start)})/${ffNumber(POP_SECONDS)},0,1)`;
  return `(${ffNumber(POP_FROM)}+${ffNumber(1 - POP_FROM)}*(1-pow(1-${progress},3)))`;
};

/** The filled width (even pixels) of a `width`-wide word said over [start, end], as an expression of `t`. */
export const wipeWidth = (start: number, end: number, width: number): string =>
  `2*floor(clip((t-${ffNumber(start)})/${ffNumber(Math.max(1e-3, end - start))},0,1)*${width / 2})`;

/**
 * The overlays of a caption's moving words over the layer window `win` (times in the words are seconds from the
 * layer's start): one stream per word that is on screen in the window, from its first frame there.
 */
export const wordMotionLayers = (motion: WordMotion, win: LayerWindow, ctx: GraphContext): LayerVideo[] => {
  const { fps } = ctx.spec;
  const end = win.skip + win.drawn;
  return motion.words.flatMap((word): LayerVideo[] => {
    const from = Math.max(win.skip, Math.round(word.start * fps));
    if (from >= end) return [];
    // Seconds on the stream's clock (frame numbers over fps from the layer's own grid).
    const start = win.start + word.start;
    const source = wordSource(ctx, word, end - from, win.startFrame + from);
    const label = ctx.label("word");
    const { x, y, width: w, height: h } = word.frame;
    if (motion.motion === "pop") {
      const scale = popScale(start);
      ctx.chain(
        `${source},scale=w='max(2,2*trunc(iw*${scale}/2))':h='max(2,2*trunc(ih*${scale}/2))':eval=frame[${label}]`,
      );
      return [{ label, x: `${x + w / 2}-overlay_w/2`, y: `${y + h / 2}-overlay_h/2`, coversFrame: false }];
    }
    // The word beside a transparent copy of its width; a window of its width slides over both, and is placed so
    // the word stays put: the window at wipeAt shows the word's left wipeAt pixels at their place.
    const wipeAt = wipeWidth(start, win.start + word.end, w);
    ctx.chain(
      `${source},pad=w=${2 * w}:h=${h}:x=${w}:y=0:color=black@0,crop=w=${w}:h=${h}:x='${wipeAt}':y=0[${label}]`,
    );
    return [{ label, x: `${x - w}+${wipeAt}`, y, coversFrame: false }];
  });
};

/** A word's still, `count` frames of it with timestamps from output frame `first` (tb 1/fps). */
const wordSource = (ctx: GraphContext, word: WordOverlay, count: number, first: number): string => {
  const frame = word.frame;
  const crop = frame.crop ? `crop=${frame.width}:${frame.height}:${frame.crop.x}:${frame.crop.y},` : "";
  const input = ctx.stillInput("png_pipe", frame.path);
  return `[${input}:v]${crop}format=yuva420p,loop=loop=${count - 1}:size=1,${ctx.retime(first)}`;
};
