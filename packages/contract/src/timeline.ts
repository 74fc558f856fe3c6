/**
 * The timeline of a video config (config reference §2.2, §3.1), quantised to whole frames, in one shape for
 * everyone who needs it: validation (the output-length cap), the token estimate and the renderer (xfade
 * offsets, layer windows, audio placement). Clip i starts at Σ(frames − transition frames) of the clips
 * before it; a transition lasts at most half of each neighbouring clip; the last clip's is ignored.
 *
 * A clip without its own `duration` takes the playable length of its first video layer; how long that is
 * depends on who asks: `cutTo − cutFrom` when both ends are in the config, a stored file's duration when the
 * caller knows it (`videoLength`), else `defaults.duration`, else 4 s. A layer's `speed` divides it (the cut played
 * twice as fast lasts half as long); `loop` does not lengthen it.
 */
import { VIDEO_DEFAULTS } from "./config/limits.ts";
import { applyLayerDefaults, type LayerDefaults } from "./config/rules.ts";
import type { Transition, TransitionName } from "./config/transitions.ts";

interface LayerLike {
  type: string;
  path?: string;
  cutFrom?: number;
  cutTo?: number;
  /** A video layer's playback speed (default 1). */
  speed?: number;
}
interface ClipLike {
  duration?: number;
  transition?: Transition | null;
  layers: readonly LayerLike[];
}
/** The parts of a video config the timeline depends on. */
export interface TimelineInput {
  fps?: number;
  defaults?: { duration?: number; transition?: Transition | null } & LayerDefaults;
  clips: readonly ClipLike[];
}

/** Seconds of file a video layer plays (its cut, at any speed), or null when only its file could tell. */
export type VideoLength = (layer: LayerLike) => number | null;

/** A transition as it will be rendered: name and curves resolved, length clamped and quantised. */
export interface ResolvedTransition {
  name: TransitionName;
  /** Effective overlap in frames: min(requested, half of this clip, half of the next), rounded. */
  frames: number;
  /** `frames / fps` seconds. */
  duration: number;
  audioOutCurve: NonNullable<Transition["audioOutCurve"]>;
  audioInCurve: NonNullable<Transition["audioInCurve"]>;
  easing?: Transition["easing"];
  params?: Transition["params"];
}

export interface ClipTiming {
  /** First frame of the clip on the output timeline. */
  startFrame: number;
  frames: number;
  /** Seconds (= startFrame / fps and frames / fps). */
  start: number;
  duration: number;
  /** Into the next clip; null for a cut and for the last clip. */
  transition: ResolvedTransition | null;
  /** Frames of overlap with the previous clip (its transition). */
  inFrames: number;
}

export interface Timeline {
  fps: number;
  clips: ClipTiming[];
  totalFrames: number;
  /** Output length in seconds (totalFrames / fps). */
  duration: number;
}

/** The length a video layer's own cut gives: `cutTo − cutFrom` when `cutTo` is set. */
export const cutLength: VideoLength = (layer) =>
  layer.cutTo !== undefined ? Math.max(0, layer.cutTo - (layer.cutFrom ?? 0)) : null;

/**
 * A video layer's playable length when its file lasts `fileDuration` seconds: the cut, clamped into the file.
 */
export const playableLength = (layer: LayerLike, fileDuration: number): number => {
  const from = Math.min(Math.max(0, layer.cutFrom ?? 0), fileDuration);
  const to = Math.min(Math.max(from, layer.cutTo ?? fileDuration), fileDuration);
  return to - from;
};

/**
 * A clip's length in seconds: its own `duration`, else the length of its first video layer (with the layer
 * defaults applied: its cut divided by its `speed`) when known and positive, else `defaults.duration`, else
 * {@link VIDEO_DEFAULTS.clipDuration}.
 */
export const clipDuration = (
  clip: ClipLike,
  defaults: TimelineInput["defaults"],
  videoLength: VideoLength = cutLength,
): number => {
  if (clip.duration !== undefined) return clip.duration;
  const found = clip.layers.find((layer) => layer.type === "video");
  // As rendered: a cut given in `defaults.layer` or `defaults.layerType.video` counts.
  const video = found && applyLayerDefaults(defaults, found);
  const length = video ? videoLength(video) : null;
  if (length !== null && length > 0) return length / (video?.speed ?? 1);
  return defaults?.duration ?? VIDEO_DEFAULTS.clipDuration;
};

/**
 * The transition a clip asks for: its own merged over `defaults.transition`; `null` on either level, or
 * nothing configured at all, means a cut (docs/config-grammar.md's rule: clips cut unless a transition is configured).
 */
export const requestedTransition = (
  clip: ClipLike,
  defaults: TimelineInput["defaults"],
): Transition | null => {
  if (clip.transition === null) return null;
  const base = defaults?.transition ?? undefined;
  if (clip.transition === undefined && !base) return null;
  return { ...base, ...clip.transition };
};

/** Lays the config's clips on a frame-exact timeline at `fps` (default: the config's, else 25). */
export const buildTimeline = (
  config: TimelineInput,
  options: { fps?: number; videoLength?: VideoLength } = {},
): Timeline => {
  const fps = options.fps ?? config.fps ?? VIDEO_DEFAULTS.fps;
  const frames = config.clips.map((clip) =>
    Math.max(1, Math.round(clipDuration(clip, config.defaults, options.videoLength) * fps)),
  );
  const clips: ClipTiming[] = [];
  let cursor = 0;
  let inFrames = 0;
  config.clips.forEach((clip, i) => {
    const own = frames[i]!;
    const next = frames[i + 1];
    const requested = next === undefined ? null : requestedTransition(clip, config.defaults);
    let transition: ResolvedTransition | null = null;
    if (requested && next !== undefined) {
      const wanted = requested.duration ?? VIDEO_DEFAULTS.transitionDuration;
      const overlap = Math.min(Math.round(wanted * fps), Math.floor(own / 2), Math.floor(next / 2));
      if (overlap > 0) {
        transition = {
          name: requested.name ?? VIDEO_DEFAULTS.transitionName,
          frames: overlap,
          duration: overlap / fps,
          audioOutCurve: requested.audioOutCurve ?? VIDEO_DEFAULTS.audioCurve,
          audioInCurve: requested.audioInCurve ?? VIDEO_DEFAULTS.audioCurve,
          ...(requested.easing !== undefined && { easing: requested.easing }),
          ...(requested.params !== undefined && { params: requested.params }),
        };
      }
    }
    clips.push({
      startFrame: cursor,
      frames: own,
      start: cursor / fps,
      duration: own / fps,
      transition,
      inFrames,
    });
    cursor += own - (transition?.frames ?? 0);
    inFrames = transition?.frames ?? 0;
  });
  const last = clips.at(-1);
  const totalFrames = last ? last.startFrame + last.frames : 0;
  return { fps, clips, totalFrames, duration: totalFrames / fps };
};
