/**
 * Compiles a VideoSpec (+ probed media and rasterised text) into ONE ffmpeg filter graph:
 * per clip, layers overlaid on a base (or the first full-frame opaque layer AS the base), clips
 * joined by their transitions (clip-joins.ts: drawn frames, the cheap mixers of mixed-transitions.ts, else xfade,
 * or concat for cuts), global layers on top, audio mixed to the exact length.
 * Pure apart from the label counter: same inputs → same graph.
 */
import { clipAudioStream, finishAudio } from "./audio-graph.ts";
import { GraphContext, type GlLayerDrawer, type LayerWindow } from "./graph-context.ts";
import type { PipeUser } from "../lib/process.ts";
import {
  clipTap,
  joinClips,
  planTransitions,
  tapDrawnTransitions,
  type ClipTap,
  type GraphPass,
} from "./clip-joins.ts";
import { canvasHasAlpha } from "./outputs/encoders.ts";
import { detachedTrack } from "./layers/audio-layer.ts";
import { compileLayer, keyedLayers, keyedOf, type KeyedLayer } from "./layers/index.ts";
import type { Timeline } from "@media-render/contract/timeline";
import { clipRange, composedRange, type FrameRange, type FrameWindow } from "@media-render/contract/windows";
import type { AudioTrackSpec, Layer, MediaInfo, RasterAsset, VideoSpec } from "./types.ts";

export interface CompiledGraph {
  /** Per input: its options followed by `-i path`. */
  inputs: string[][];
  /**
   * Users of the extra pipes `pipe:3`, `pipe:4`, ...: writers of streamed html frames and drawn
   * transitions, readers of the frames transitions are drawn from.
   */
  pipes: PipeUser[];
  /** How many pipes cannot be written twice (html captures); 0 lets the graph run twice (drawn-transitions.ts). */
  oneShotPipes?: number;
  /** Extra outputs (label, output options, pipe) after the main one. */
  outputs?: { label: string; args: string[]; pipe: string }[];
  filterGraph: string;
  /** Transition names actually used (after `random`), for logs and tests. */
  transitions: string[];
}

/** A window of the timeline to render (a chunk, a still, a preview): the contract's FrameWindow. */
export type RenderWindow = FrameWindow;

/**
 * Frame window of a layer inside a span of `frames` frames (start/stop in seconds, clamped), and which of its
 * frames fall in the part of the span composed (`range`, default all of it); null when none do.
 */
export const layerWindow = (
  layer: Layer,
  frames: number,
  fps: number,
  range: FrameRange = { from: 0, to: frames },
): LayerWindow | null => {
  const total = frames / fps;
  const start = Math.min(Math.max(0, layer.start ?? 0), total);
  const stop = Math.min(Math.max(start, layer.stop ?? total), total);
  const startFrame = Math.round(start * fps);
  const endFrame = Math.min(frames, Math.round(stop * fps));
  const first = Math.max(startFrame, range.from);
  const last = Math.min(endFrame, range.to);
  if (last <= first) return null;
  return {
    startFrame,
    frames: endFrame - startFrame,
    start: startFrame / fps,
    duration: (endFrame - startFrame) / fps,
    skip: first - startFrame,
    drawn: last - first,
  };
};

const composite = (
  ctx: GraphContext,
  layers: KeyedLayer[],
  frames: number,
  base: string | null,
  range: FrameRange = { from: 0, to: frames },
): string => {
  const { width: W, height: H, fps, format } = ctx.spec;
  const alpha = canvasHasAlpha(format);
  const fmt = alpha ? "yuva420p" : "yuv420p";
  const count = range.to - range.from;
  let current = base;
  for (const { layer, key } of layers) {
    const win = layerWindow(layer, frames, fps, range);
    const out = win ? compileLayer(layer, win, ctx, key) : null;
    if (!out || !win) continue;
    if (
      current === null &&
      out.coversFrame &&
      win.startFrame + win.skip === range.from &&
      win.drawn === count
    ) {
      current = out.label;
      continue;
    }
    if (current === null) {
      current = ctx.label("base");
      const bg = alpha ? "black@0" : "black";
      ctx.chain(
        `color=c=${bg}:s=${W}x${H}:r=${fps},format=${fmt},trim=end_frame=${count},${ctx.retime(range.from)}[${current}]`,
      );
    }
    for (const overlay of [out, ...(out.more ?? [])]) {
      const next = ctx.label("ov");
      const x = typeof overlay.x === "number" ? overlay.x : `'${overlay.x}'`;
      const y = typeof overlay.y === "number" ? overlay.y : `'${overlay.y}'`;
      // An opaque base stays yuv420p: format=auto would negotiate yuva420p for the whole frame and add
      // two full-frame conversions per layer per frame (~0.5 ms each at 720p).
      const ovFmt = alpha ? "auto" : "yuv420";
      ctx.chain(
        `[${current}][${overlay.label}]overlay=x=${x}:y=${y}:eof_action=pass:format=${ovFmt}[${next}]`,
      );
      current = next;
    }
  }
  return current ?? "";
};

/**
 * `[vout]`: the joined clips `acc` under the global layers, cut to the window's frames (or the whole timeline).
 */
const videoOut = (
  ctx: GraphContext,
  acc: string,
  globals: ReturnType<typeof keyedLayers>,
  range: { from: number; to: number },
  requested: RenderWindow | undefined,
  fmt: string,
) => {
  const { timeline } = ctx;
  // The grammar keeps video and audio layers out of globalLayers. They are laid over the composed range with
  // timeline frame numbers as timestamps.
  let top = acc;
  if (globals.length > 0) {
    let base = acc;
    if (range.from > 0) {
      base = ctx.label("timed");
      ctx.chain(`[${acc}]${ctx.retime(range.from)}[${base}]`);
    }
    top = composite(ctx, globals, timeline.totalFrames, base, range);
  }
  // A window's frames out of the composed range (which may start or end with a transition's pre- or post-roll).
  const window = requested ?? { start: 0, end: timeline.totalFrames };
  const skip = window.start - range.from;
  const cut = `${skip > 0 ? `start_frame=${skip}:` : ""}end_frame=${window.end - range.from}`;
  const restamp = range.from > 0 || skip > 0 ? ",setpts=PTS-STARTPTS" : "";
  ctx.chain(`[${top}]format=${fmt},trim=${cut}${restamp}[vout]`);
};

/** What a graph is compiled from. */
export interface GraphInput {
  spec: VideoSpec;
  timeline: Timeline;
  /** Seeds `random` transitions. */
  jobId: string;
  media: ReadonlyMap<string, MediaInfo>;
  /** The rasterised text and html layers by layer key (none: those layers draw nothing). */
  rasters: ReadonlyMap<string, RasterAsset>;
  /** Draws `gl` layers (gl/gl-drawer.ts); absent: a gl layer fails the compile. */
  glLayers?: GlLayerDrawer;
  /**
   * Render only these frames of the timeline, as `[vout]` from its frame 0, and no sound (a chunk, a still, a
   * preview's picture): what lies before and after is not in the graph at all (composedRange). Absent: the whole
   * timeline, with `[aout]`.
   */
  window?: RenderWindow;
}

const PLAIN: GraphPass = { kind: "plain" };

/** Builds the complete graph of `pass`: outputs `[vout]` and `[aout]`, or the taps pass's pair outputs. */
export const compileGraph = (input: GraphInput, pass: GraphPass = PLAIN): CompiledGraph => {
  const { spec, timeline, jobId } = input;
  const ctx = new GraphContext(spec, timeline, jobId, input.media, input.rasters);
  ctx.glLayers = input.glLayers;
  ctx.audio = input.window === undefined;
  const range = composedRange(timeline, input.window);
  const ranges = timeline.clips.map((timing) => clipRange(timing, range));
  const drawer = pass.kind === "plain" ? undefined : pass.drawer;
  const { width: W, height: H, fps, format } = spec;
  const alpha = canvasHasAlpha(format);
  const fmt = alpha ? "yuva420p" : "yuv420p";
  const all = keyedLayers(spec);
  for (const k of all) ctx.layerPaths.set(k.key, k.path);
  const clipLabels: string[] = [];
  const clipAudio: string[] = [];
  const tracks: AudioTrackSpec[] = [...spec.audioTracks];
  // Transitions resolved first: a drawn one taps the streams of the clips on both sides.
  const plans = planTransitions(timeline, ranges, jobId, pass, format);
  const tapping = pass.kind === "taps";
  const taps: ClipTap[] = [];
  timeline.clips.forEach((timing, clipIndex) => {
    ctx.clipAudio = [];
    // The taps pass composes only the clips on either side of a drawn transition, without sound; a window only
    // the clips it reaches, only as far as it does.
    const part = ranges[clipIndex];
    if (!part || (tapping && !plans[clipIndex]?.drawn && !plans[clipIndex - 1]?.drawn)) {
      taps.push({});
      clipLabels.push("");
      return;
    }
    const layers = all.filter((k) => k.clip === clipIndex);
    if (ctx.audio)
      for (const k of layers.filter(keyedOf("detached-audio")))
        tracks.push(detachedTrack(k.layer, timing.start));
    let video = composite(ctx, layers, timing.frames, null, part);
    if (!video) {
      video = ctx.label("empty");
      const bg = alpha ? "black@0" : "black";
      ctx.chain(
        `color=c=${bg}:s=${W}x${H}:r=${fps},format=${fmt},trim=end_frame=${part.to - part.from},${ctx.retime(0)}[${video}]`,
      );
    }
    const out = ctx.label("clip");
    ctx.chain(`[${video}]format=${fmt},setsar=1,${ctx.retime(0)}[${out}]`);
    clipLabels.push(out);
    if (tapping) {
      for (const track of ctx.clipAudio) ctx.chain(`[${track.label}]anullsink`);
      taps.push(clipTap(ctx, out, plans, clipIndex));
      return;
    }
    const sound = ctx.audio ? clipAudioStream(ctx, clipIndex, ctx.clipAudio) : null;
    if (sound) clipAudio.push(sound);
  });
  if (tapping) {
    tapDrawnTransitions(ctx, plans, taps, ranges, drawer!, format);
    return graphOf(
      ctx,
      plans.flatMap((p) => (p ? [p.r.name] : [])),
    );
  }
  const { acc, used } = joinClips(ctx, clipLabels, plans, {
    timeline,
    from: range.from,
    drawer,
    format,
    alpha,
  });
  ctx.clipAudio = [];
  videoOut(
    ctx,
    acc,
    all.filter((k) => k.clip === -1),
    range,
    input.window,
    fmt,
  );
  if (ctx.audio) finishAudio(ctx, clipAudio, tracks);
  return graphOf(ctx, used);
};

/** The compiled graph of what `ctx` gathered. */
const graphOf = (ctx: GraphContext, transitions: string[]): CompiledGraph => ({
  inputs: ctx.inputs,
  pipes: ctx.pipes,
  outputs: ctx.outputs,
  oneShotPipes: ctx.oneShotPipes,
  filterGraph: ctx.filters.join(";\n"),
  transitions,
});

/**
 * The same graph with the inputs read from pipes (stdin, `pipe:3`, ...) moved to the end of the input
 * list, in their order, references `[i:v]` / `[i:a]` renumbered: ffmpeg opens inputs one by one, so it
 * opens every file while the pipes' writers are still producing their first bytes.
 */
export const pipesLast = (graph: CompiledGraph): CompiledGraph => {
  // ffmpeg 5.1's -nofind_stream_info is one setting that holds from the input naming it to the last: inputs
  // that ask for no probing (drawn transitions) go after every other.
  const rank = (args: string[]) =>
    args.includes("-nofind_stream_info") ? 2 : args.at(-1)?.startsWith("pipe:") === true ? 1 : 0;
  const order = [...graph.inputs.keys()].sort((a, b) => rank(graph.inputs[a]!) - rank(graph.inputs[b]!));
  if (order.every((from, to) => from === to)) return graph;
  const newIndex = new Map(order.map((from, to) => [from, to]));
  return {
    ...graph,
    inputs: order.map((from) => graph.inputs[from]!),
    filterGraph: graph.filterGraph.replace(
      /\[(\d+):([va])\]/g,
      (_, i: string, kind: string) => `[${newIndex.get(Number(i))}:${kind}]`,
    ),
  };
};
