/**
 * A moving picture played into a layer's box: a video layer's cut, an animated GIF or WebP of an image layer. The
 * segment of the file is played at its speed on the layer's frame grid (frame k shows the file at
 * `cutFrom + k / fps × speed`, the nearest frame), resized, zoomed or panned, and then either holds its last frame
 * or, looped, starts again every `period` frames (its length over its speed, in whole frames of the layer).
 * A window of the timeline (a chunk, a still) draws the frames the whole render draws at its numbers: it seeks to
 * the frame it starts at (in the iteration it falls in), never decoding what it does not draw.
 */
import type { GraphContext, LayerWindow } from "../graph-context.ts";
import type { MediaInfo } from "../types.ts";
import { ffNumber } from "../values.ts";
import { isPan, panCrop, zoompanFilter, type ZoomDirection } from "./ken-burns.ts";
import { resizeInto, type ResizeMode } from "./resize.ts";

/** What of a file a layer plays: from `cutFrom`, `length` seconds of it (Infinity: until it runs out), how fast. */
export interface Segment {
  cutFrom: number;
  length: number;
  speed: number;
  /** Starts again when it ends (a finite `length` only), instead of holding its last frame. */
  loop: boolean;
}

/** Seconds before a file's end a window's seek stays: enough to decode its last frame at 1 fps or more. */
const HOLD_SECONDS = 1;

/**
 * Bytes a looped segment's frames may take in memory (the `loop` filter holds one period, resized into the box):
 * 256 MiB, 180 frames of a full 1280x720 frame; a longer period is decoded again for each time it repeats, from an
 * input of its own (each open input costs ~12-22 MB at 720p). A setting only so a test can take the other way.
 */
export const loopMemory = { bytes: 256 * 1024 * 1024 };

/** Frames of the layer one play of a looped segment lasts (at least 1). */
export const loopPeriod = (seg: Segment, fps: number): number =>
  Math.max(1, Math.round((seg.length / seg.speed) * fps));

/**
 * ffmpeg's `atempo` filters that play sound `speed` times as fast with its pitch kept: steps within 0.5-2x, where
 * atempo sounds best (0.25x is two halvings). Empty at 1x.
 */
export const atempoChain = (speed: number): string[] => {
  const steps: string[] = [];
  let rest = speed;
  while (rest > 2 + 1e-9) {
    steps.push("atempo=2");
    rest /= 2;
  }
  while (rest < 0.5 - 1e-9) {
    steps.push("atempo=0.5");
    rest /= 0.5;
  }
  if (Math.abs(rest - 1) > 1e-9) steps.push(`atempo=${ffNumber(rest)}`);
  return steps;
};

/** How a moving picture is drawn into its box. */
export interface PlayOptions {
  path: string;
  info: MediaInfo;
  seg: Segment;
  /** Input options before `-ss` (a decoder). */
  decoder: string[];
  /**
   * Whether a window may seek into the file. Not for an animated picture: its frames may last long, and ffmpeg's
   * exact seek drops the frame on screen at the seek point (it starts before it); such files are small, so a
   * window decodes them from their start.
   */
  seek: boolean;
  box: { w: number; h: number };
  mode: ResizeMode;
  zoom: { dir: ZoomDirection | null; amount: number };
  /** The pixel format the layer's frames leave in (`yuva420p` when it has alpha). */
  fmt: string;
  /** Label prefix of the layer's stream (`vid`, `img`). */
  prefix: string;
}

/** The layer's stream (frames on the timeline's grid from the window's first) and the input its sound is in. */
export interface Played {
  label: string;
  input: number;
}

const bytesPerPixel = (fmt: string): number => (fmt === "yuva420p" ? 2.5 : 1.5);

/**
 * Opens the segment from the layer's frame `frame` on (seeking to a frame of the layer's grid at least HOLD_SECONDS
 * before the file's end, so that a window inside the held last frame still decodes it): the input, the filters
 * that put its frames on the layer's grid, and the frame the stream starts at (`from` <= `frame`).
 */
const openAt = (ctx: GraphContext, options: PlayOptions, frame: number) => {
  const { fps } = ctx.spec;
  const { seg, info } = options;
  const held = Math.floor(((info.duration - HOLD_SECONDS - seg.cutFrom) / seg.speed) * fps);
  const from = options.seek ? Math.min(frame, Math.max(0, held)) : 0;
  const ahead = (from / fps) * seg.speed;
  const read = Number.isFinite(seg.length) ? seg.length - ahead + 1 / fps : Number.POSITIVE_INFINITY;
  const input = ctx.addMedia(
    info,
    [
      ...options.decoder,
      "-ss",
      ffNumber(seg.cutFrom + ahead),
      ...(Number.isFinite(read) ? ["-t", ffNumber(read)] : []),
    ],
    options.path,
  );
  // Timestamps as seconds from the cut (ffmpeg makes the seek point 0: the cut plus `ahead`), played at the
  // segment's speed; `fps` takes the frame nearest each of the layer's frame times from the first one drawn, so a
  // window draws the same source frame at a frame as the whole render does.
  const first = from / fps;
  const pre = `setpts=PTS/${ffNumber(seg.speed)}+${ffNumber(first)}/TB,fps=${fps}:start_time=${ffNumber(first)}`;
  return { input, pre, from };
};

/** The zoom or pan filters after the resize (`,...` or empty), counting from the layer's frame `skip`. */
const zoomFilters = (
  ctx: GraphContext,
  options: PlayOptions,
  win: LayerWindow,
  skip: number,
  pan: ReturnType<typeof panCrop> | null,
): string => {
  if (pan) return `,${pan.crop}`;
  if (!options.zoom.dir) return "";
  const { w, h } = options.box;
  const at = { skip, drawn: win.drawn, moving: true };
  return `,${zoompanFilter(options.zoom.dir, options.zoom.amount, win.frames, w, h, ctx.spec.fps, at)}`;
};

/** Draws the segment over the window, holding its last frame (or looping) where it runs short. */
export const playSegment = (ctx: GraphContext, options: PlayOptions, win: LayerWindow): Played => {
  const period = options.seg.loop ? loopPeriod(options.seg, ctx.spec.fps) : Number.POSITIVE_INFINITY;
  // A loop that never comes round inside the layer plays as the segment alone.
  if (period >= win.frames) return playOnce(ctx, options, win);
  const { w, h } = options.box;
  if (period * w * h * bytesPerPixel(options.fmt) <= loopMemory.bytes)
    return playLooped(ctx, options, win, period);
  return playIterations(ctx, options, win, period);
};

/**
 * The pan's crop when the zoom pans (its motion counted from frame `from` of the segment), and the input `stream`
 * resized into the layer's box, or into the pan's larger frame.
 */
const panAndResize = (
  ctx: GraphContext,
  options: PlayOptions,
  win: LayerWindow,
  stream: string,
  pre: string,
  from: number,
) => {
  const pan = isPan(options.zoom.dir)
    ? panCrop(options.zoom.dir, options.zoom.amount, win.frames, options.box.w, options.box.h, from)
    : null;
  const resized = resizeInto(
    ctx,
    stream,
    pre,
    options.mode,
    pan?.w ?? options.box.w,
    pan?.h ?? options.box.h,
    options.info,
  );
  return { pan, resized };
};

/** The segment once, from the window's first frame, then its last frame held. */
const playOnce = (ctx: GraphContext, options: PlayOptions, win: LayerWindow): Played => {
  const { input, pre, from } = openAt(ctx, options, win.skip);
  const { pan, resized } = panAndResize(ctx, options, win, `${input}:v`, pre, from);
  const label = ctx.label(options.prefix);
  const lead = win.skip - from;
  const cut = `${lead > 0 ? `start_frame=${lead}:` : ""}end_frame=${lead + win.drawn}`;
  ctx.chain(
    `[${resized}]format=${options.fmt}${zoomFilters(ctx, options, win, from, pan)},tpad=stop_mode=clone:stop=-1,trim=${cut},${ctx.retimeLayer(win)}[${label}]`,
  );
  return { label, input };
};

/**
 * A short loop: one period decoded and resized once, held by the `loop` filter and played again and again; a
 * window takes its frames from the iteration it starts in.
 */
const playLooped = (ctx: GraphContext, options: PlayOptions, win: LayerWindow, period: number): Played => {
  const { input, pre } = openAt(ctx, options, 0);
  const { pan, resized } = panAndResize(ctx, options, win, `${input}:v`, pre, win.skip);
  const label = ctx.label(options.prefix);
  const phase = win.skip % period;
  const cut = `${phase > 0 ? `start_frame=${phase}:` : ""}end_frame=${phase + win.drawn}`;
  ctx.chain(
    `[${resized}]format=${options.fmt},tpad=stop_mode=clone:stop=-1,trim=end_frame=${period},loop=loop=-1:size=${period},trim=${cut}${zoomFilters(ctx, options, win, win.skip, pan)},${ctx.retimeLayer(win)}[${label}]`,
  );
  return { label, input };
};

/**
 * A long loop (its period too large to hold): each iteration the window reaches is an input of its own, seeked
 * to where the window needs it, and the iterations are joined before the resize.
 */
const playIterations = (
  ctx: GraphContext,
  options: PlayOptions,
  win: LayerWindow,
  period: number,
): Played => {
  const end = win.skip + win.drawn;
  const parts: string[] = [];
  let first: number | null = null;
  for (let k = Math.floor(win.skip / period); k * period < end; k++) {
    const start = Math.max(win.skip - k * period, 0);
    const stop = Math.min(end - k * period, period);
    const opened = openAt(ctx, options, start);
    first ??= opened.input;
    const part = ctx.label("it");
    const lead = start - opened.from;
    ctx.chain(
      `[${opened.input}:v]${opened.pre},tpad=stop_mode=clone:stop=-1,trim=${lead > 0 ? `start_frame=${lead}:` : ""}end_frame=${stop - opened.from},setpts=N[${part}]`,
    );
    parts.push(`[${part}]`);
  }
  const joined = ctx.label("its");
  ctx.chain(`${parts.join("")}concat=n=${parts.length}:v=1:a=0[${joined}]`);
  const pan = isPan(options.zoom.dir)
    ? panCrop(options.zoom.dir, options.zoom.amount, win.frames, options.box.w, options.box.h, win.skip)
    : null;
  const resized = resizeInto(
    ctx,
    joined,
    "",
    options.mode,
    pan?.w ?? options.box.w,
    pan?.h ?? options.box.h,
    options.info,
  );
  const label = ctx.label(options.prefix);
  ctx.chain(
    `[${resized}]format=${options.fmt}${zoomFilters(ctx, options, win, win.skip, pan)},${ctx.retimeLayer(win)}[${label}]`,
  );
  return { label, input: first! };
};

/**
 * The sound of a segment played from its start (a whole render: windows make none), `speed` times as fast with its
 * pitch kept, and, looped, repeating every period of the picture: an `aloop` of exactly that many samples.
 */
export const segmentSound = (
  ctx: GraphContext,
  input: number,
  seg: Segment,
  win: LayerWindow,
  volume: number,
): string => {
  const label = ctx.label("va");
  const tempo = atempoChain(seg.speed).map((t) => `,${t}`);
  const period = seg.loop ? loopPeriod(seg, ctx.spec.fps) : Number.POSITIVE_INFINITY;
  let loop = "";
  if (period < win.frames) {
    const samples = Math.round((period / ctx.spec.fps) * 48000);
    loop = `,aresample=48000,apad,atrim=end_sample=${samples},aloop=loop=-1:size=${samples}`;
  }
  ctx.chain(`[${input}:a]asetpts=PTS-STARTPTS${tempo.join("")}${loop},volume=${ffNumber(volume)}[${label}]`);
  return label;
};
