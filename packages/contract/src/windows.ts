/**
 * Windows of a timeline (issue 41: frame-addressable rendering): which frames a render draws (a chunk of a split
 * job, a still, a preview's range) and which it composes to draw them. The renderer compiles a window into a graph
 * of those frames only; the Worker sizes its deadline and its chunks by them. One definition for both.
 */
import { layerFrameCost } from "./config/video-layer-types.ts";
import { outputFormat } from "./output-formats.ts";
import type { Timeline } from "./timeline.ts";

/**
 * The most chunks one job is split into: the instances a job can get (RENDERER_INSTANCES) count up to this many. An
 * hour of 1080p needs at least 8 (each chunk's deadline within the longest render's, deadline.ts).
 */
export const MAX_CHUNKS = 64;

/** What of a config decides whether its job can be split into chunks. */
export interface SplitInput extends PartOf {
  alpha?: boolean;
  fast?: boolean;
}

/**
 * Whether a job can render as chunks joined by stream copy: H.264 outputs only (mp4, mov without alpha: a GIF's
 * palette, a webm's VP9, ProRes 4444 and an audio-only file are one piece of work) and the whole timeline (a still or
 * a preview is one window already, `fast` is a preview). Posters and thumbnails are taken from the joined file;
 * autoSubtitles are transcribed in parts, each chunk the parts its frames reach (caption-parts.ts).
 */
export const splittable = (config: SplitInput, format: string): boolean =>
  outputFormat(format)?.splittable === true &&
  !config.alpha &&
  !config.fast &&
  !config.still &&
  !config.preview;

/** The frames `start` to `end - 1` of a timeline a render draws. */
export interface FrameWindow {
  start: number;
  end: number;
}

/** Frames `from` to `to - 1` of a span (a clip's frames, or the timeline's): what a graph composes of it. */
export interface FrameRange {
  from: number;
  to: number;
}

/** Which chunk of how many (a split job's). */
export interface ChunkPart {
  index: number;
  count: number;
}

/** A layer as the chunks' balance reads it: its type, whether it animates, when it shows. */
interface CostedLayer {
  type: string;
  animated?: boolean;
  start?: number;
  stop?: number;
}

/** What of a config the chunks' balance reads (the grammar's VideoConfig has it). */
export interface BalanceInput {
  clips: readonly { layers: readonly CostedLayer[] }[];
  globalLayers?: readonly CostedLayer[];
}

/**
 * The estimated CPU of every frame's composing and encoding, summed from the start: `cost[f]` is frames `0..f-1`'s.
 * A frame costs 1, plus what each layer shown on it adds (its type's frame cost, video-layer-types.ts: a clip's
 * layers over its frames, transitions' overlaps holding both clips' layers; `start`/`stop` honoured).
 */
const cumulativeCost = (config: BalanceInput, timeline: Timeline): Float64Array => {
  const total = timeline.totalFrames;
  const step = new Float64Array(total + 1);
  const add = (from: number, to: number, cost: number) => {
    const start = Math.max(0, Math.min(total, from));
    const end = Math.max(start, Math.min(total, to));
    step[start]! += cost;
    step[end]! -= cost;
  };
  const frameOf = (seconds: number) => Math.round(seconds * timeline.fps);
  add(0, total, 1);
  config.clips.forEach((clip, i) => {
    const timing = timeline.clips[i];
    if (!timing) return;
    for (const layer of clip.layers) {
      const from = timing.startFrame + (layer.start === undefined ? 0 : frameOf(layer.start));
      const to =
        layer.stop === undefined
          ? timing.startFrame + timing.frames
          : timing.startFrame + frameOf(layer.stop);
      add(from, Math.min(to, timing.startFrame + timing.frames), layerFrameCost(layer));
    }
  });
  for (const layer of config.globalLayers ?? [])
    add(
      layer.start === undefined ? 0 : frameOf(layer.start),
      layer.stop === undefined ? total : frameOf(layer.stop),
      layerFrameCost(layer),
    );
  const cumulative = new Float64Array(total + 1);
  let rate = 0;
  for (let frame = 0; frame < total; frame++) {
    rate += step[frame]!;
    cumulative[frame + 1] = cumulative[frame]! + rate;
  }
  return cumulative;
};

/**
 * The `count` chunks of a split job: contiguous windows of the timeline, every frame in exactly one, each at least
 * one frame, cut where the estimated work (cumulativeCost) is shared evenly, so no chunk is the slow one because it
 * holds the photos while another holds the titles. Every renderer and the Worker compute them from the same normal
 * form and frame-exact timeline.
 */
export const chunkWindows = (config: BalanceInput, timeline: Timeline, count: number): FrameWindow[] => {
  const total = timeline.totalFrames;
  const cost = cumulativeCost(config, timeline);
  const all = cost[total]!;
  const cuts = [0];
  let frame = 0;
  for (let i = 1; i < count; i++) {
    const share = (all * i) / count;
    while (frame < total && cost[frame]! < share) frame++;
    // Each chunk keeps at least one frame, and leaves one to each chunk after it.
    cuts.push(Math.min(Math.max(frame, cuts[i - 1]! + 1), total - (count - i)));
  }
  cuts.push(total);
  return Array.from({ length: count }, (_, i) => ({ start: cuts[i]!, end: cuts[i + 1]! }));
};

/** Chunk `part.index` of `part.count` (chunkWindows). */
export const chunkWindow = (config: BalanceInput, timeline: Timeline, part: ChunkPart): FrameWindow =>
  chunkWindows(config, timeline, part.count)[part.index]!;

/**
 * The frames a render of `window` composes: the window, widened to whole transitions where it starts or ends inside
 * one (a transition's mixers and drawings work on its whole overlap: at most one transition's frames of pre-roll,
 * or of post-roll, are composed and dropped). No window: every frame.
 */
export const composedRange = (timeline: Timeline, window?: FrameWindow): FrameRange => {
  if (!window) return { from: 0, to: timeline.totalFrames };
  let { start: from, end: to } = window;
  for (const timing of timeline.clips) {
    const overlapEnd = timing.startFrame + timing.inFrames;
    if (timing.inFrames > 0 && timing.startFrame < from && from < overlapEnd) from = timing.startFrame;
    if (timing.inFrames > 0 && timing.startFrame < to && to < overlapEnd) to = overlapEnd;
  }
  return { from, to };
};

/** The part of a clip (its first frame and length on the timeline) inside `range`, in its own frames; or null. */
export const clipRange = (
  timing: { startFrame: number; frames: number },
  range: FrameRange,
): FrameRange | null => {
  const from = Math.max(0, range.from - timing.startFrame);
  const to = Math.min(timing.frames, range.to - timing.startFrame);
  return to > from ? { from, to } : null;
};

/** What of a config says a render draws part of its timeline (the grammar's `still` and `preview`). */
export interface PartOf {
  still?: { time: number };
  preview?: { from?: number; to?: number };
}

/**
 * The frames a still or a preview draws, undefined for all of them: a still's one frame (frame k is shown from
 * k/fps; a hair of tolerance keeps a time written in decimal seconds on its frame), a preview's range (the frames
 * shown from `from` until `to`).
 */
export const partWindow = (part: PartOf, timeline: Timeline): FrameWindow | undefined => {
  const { totalFrames: total, fps } = timeline;
  if (part.still) {
    const k = Math.min(total - 1, Math.max(0, Math.floor(part.still.time * fps + 1e-6)));
    return { start: k, end: k + 1 };
  }
  const preview = part.preview;
  if (!preview || ((preview.from ?? 0) <= 0 && (preview.to ?? Infinity) >= timeline.duration))
    return undefined;
  const frameAt = (t: number) => Math.min(total, Math.max(0, Math.ceil(t * fps - 1e-6)));
  const start = Math.min(total - 1, frameAt(preview.from ?? 0));
  return { start, end: Math.max(start + 1, frameAt(preview.to ?? timeline.duration)) };
};
