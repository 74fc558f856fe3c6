/**
 * How compile.ts joins the composed clips, one transition at a time: each transition planned (resolved by
 * transitions.ts, and whether its GLSL draws it in this pass), the clips joined in order by their plans (the drawn
 * frames of gl/drawn-transitions.ts spliced in, a mixer of mixed-transitions.ts, ffmpeg's xfade or a plain concat),
 * and in the taps pass the frame pairs each drawn transition is drawn from.
 * Pure apart from the graph context's label counter.
 */
import type { GraphContext } from "./graph-context.ts";
import { glJoin, glTaps, type DrawnTransition, type TransitionDrawer } from "./gl/drawn-transitions.ts";
import { MIXERS, overlapJoin } from "./mixed-transitions.ts";
import { canvasHasAlpha } from "./outputs/encoders.ts";
import type { Timeline } from "@media-render/contract/timeline";
import { drawnByGl, resolveTransition } from "./transitions.ts";
import { ffNumber } from "./values.ts";

/**
 * Which graph to build. "plain": every transition by its xfade mapping (or the mixers of mixed-transitions.ts). With a
 * drawer (gl/drawn-transitions.ts), every transition but the exact ffmpeg twins (XFADE_TWINS) is drawn by its GLSL:
 * "taps" builds the run that writes the pairs of the transition after clip `tapping` (one run per
 * transition: a run writing two transitions' pairs interleaves them, and then waits on the second's reader
 * while the render waits for the first's frames); "splice" builds the render, reading the drawn frames.
 */
export type GraphPass =
  | { kind: "plain" }
  | { kind: "taps"; drawer: TransitionDrawer; tapping: number }
  | { kind: "splice"; drawer: TransitionDrawer };

/** A transition between clip c and c + 1 as compileGraph plans it: resolved, and whether its GLSL draws it. */
type TransitionPlan = {
  t: { name: string; frames: number; params?: Record<string, unknown>; easing?: string | null };
  r: ReturnType<typeof resolveTransition>;
  drawn: boolean;
} | null;

/**
 * Each clip's transition to the next, resolved (`random` seeded by the job), and whether its GLSL draws it: only with
 * a drawer, and in the taps pass only the one it is tapping; never at the range's edge.
 */
export const planTransitions = (
  timeline: Timeline,
  ranges: ({ from: number; to: number } | null)[],
  jobId: string,
  pass: GraphPass,
  format: string | undefined,
): TransitionPlan[] =>
  timeline.clips.map((timing, clipIndex): TransitionPlan => {
    const transition = timing.transition;
    if (!transition || clipIndex === timeline.clips.length - 1) return null;
    const resolved = resolveTransition(transition.name, `${jobId}:${clipIndex}`, transition.params);
    // The taps pass draws only the transition it is tapping; a window draws those it composes.
    const drawn =
      pass.kind !== "plain" &&
      (pass.kind !== "taps" || clipIndex === pass.tapping) &&
      ranges[clipIndex] !== null &&
      ranges[clipIndex + 1] !== null &&
      drawnByGl(resolved.name, transition.params, transition.easing, format);
    return { t: transition, r: resolved, drawn };
  });

/** The drawn transition after clip `clipIndex` (its key is the same in the taps and the splice pass). */
const drawnAfter = (
  clipIndex: number,
  plan: {
    r: { name: string };
    t: { frames: number; params?: Record<string, unknown>; easing?: string | null };
  },
  format: string | undefined,
): DrawnTransition => {
  const { r, t } = plan;
  return {
    key: `t${clipIndex}`,
    field: `clips[${clipIndex}].transition`,
    name: r.name,
    frames: t.frames,
    params: t.params,
    easing: t.easing,
    channels: canvasHasAlpha(format) ? 4 : 3,
  };
};

/**
 * The composed clips joined in order (`clipLabels`: "" for a clip the graph leaves out), each to the next by its
 * transition: drawn frames spliced in (drawn-transitions.ts), a mixer of mixed-transitions.ts, ffmpeg's xfade, or a plain concat. Answers
 * the joined stream, which starts at frame `from` of the timeline, and the transitions used.
 */
export const joinClips = (
  ctx: GraphContext,
  clipLabels: string[],
  plans: TransitionPlan[],
  options: {
    timeline: Timeline;
    from: number;
    drawer: TransitionDrawer | undefined;
    format: string | undefined;
    alpha: boolean;
  },
): { acc: string; used: string[] } => {
  const { timeline, drawer, format, alpha } = options;
  const { fps } = ctx.spec;
  const used: string[] = [];
  // The clips the graph composes, in order; `acc` starts at the composed range's first frame.
  const composed = clipLabels.flatMap((label, c) => (label ? [c] : []));
  let acc = clipLabels[composed[0]!]!;
  for (const clip of composed.slice(1)) {
    const next = ctx.label("join");
    const plan = plans[clip - 1];
    // Where this clip starts in `acc` (which starts at the range's first frame, never inside a transition).
    const at = timeline.clips[clip]!.startFrame - options.from;
    if (plan?.drawn && drawer) {
      used.push(plan.r.name);
      const drawn = drawnAfter(clip - 1, plan, format);
      glJoin(ctx, { acc, bMain: clipLabels[clip]!, at, out: next }, drawn, drawer);
    } else if (plan) {
      const { t, r } = plan;
      used.push(r.name);
      const start = at;
      const mixer = alpha ? undefined : (MIXERS[r.name] ?? (r.xfade === "fade" ? MIXERS.fade : undefined));
      if (mixer) {
        overlapJoin(ctx, acc, clipLabels[clip]!, start, t.frames, next, mixer);
      } else {
        const expr = r.expr ? `:expr='${r.expr}'` : "";
        ctx.chain(
          `[${acc}][${clipLabels[clip]}]xfade=transition=${r.xfade}:duration=${ffNumber(t.frames / fps)}:offset=${ffNumber(start / fps)}${expr}[${next}]`,
        );
      }
    } else {
      ctx.chain(`[${acc}][${clipLabels[clip]}]concat=n=2:v=1:a=0,settb=1/${fps}[${next}]`);
    }
    acc = next;
  }
  return { acc, used };
};

/** A clip's streams in the taps pass: `tail` feeds the drawn transition after it, `head` the one before it. */
export type ClipTap = { tail?: string; head?: string };

/**
 * Taps pass: the streams of clip `clipIndex` (composed as `[out]`) that its drawn transitions read, split in two when
 * one is drawn on each side.
 */
export const clipTap = (
  ctx: GraphContext,
  out: string,
  plans: TransitionPlan[],
  clipIndex: number,
): ClipTap => {
  const tap: ClipTap = {};
  if (plans[clipIndex]?.drawn) tap.tail = ctx.label("tail");
  if (plans[clipIndex - 1]?.drawn) tap.head = ctx.label("head");
  const both = tap.tail !== undefined && tap.head !== undefined;
  if (both) ctx.chain(`[${out}]split=2[${tap.tail}][${tap.head}]`);
  else if (tap.tail) tap.tail = out;
  else tap.head = out;
  return tap;
};

/**
 * Taps pass: hands `drawer` the frame pairs of each drawn transition, from the taps of the clips on either side
 * (`taps`, by clip) over the frames of the clip before that the graph composes (`ranges`).
 */
export const tapDrawnTransitions = (
  ctx: GraphContext,
  plans: TransitionPlan[],
  taps: ClipTap[],
  ranges: ({ from: number; to: number } | null)[],
  drawer: TransitionDrawer,
  format: string | undefined,
): void =>
  plans.forEach((plan, clipIndex) => {
    if (!plan?.drawn) return;
    const drawn = drawnAfter(clipIndex, plan, format);
    const part = ranges[clipIndex]!;
    const pair = {
      aTap: taps[clipIndex]!.tail!,
      aFrames: part.to - part.from,
      bTap: taps[clipIndex + 1]!.head!,
    };
    glTaps(ctx, pair, drawn, drawer);
  });
