/**
 * Timeline arithmetic of a video config: clip lengths, effective transitions and the output length.
 * Used by the total-duration limit, the token estimate and the renderer, so all three agree.
 */
import { VIDEO_DEFAULTS } from "./limits";
import type { Transition } from "./transitions";

interface LayerLike {
  type: string;
  cutFrom?: number;
  cutTo?: number;
}
interface ClipLike {
  duration?: number;
  transition?: Transition | null;
  layers: readonly LayerLike[];
}
/** The parts of a video config the timeline depends on. */
export interface TimelineInput {
  defaults?: { duration?: number; transition?: Transition | null };
  clips: readonly ClipLike[];
}

/** A transition as it will be rendered: names and curves resolved, duration clamped. */
export interface ResolvedTransition extends Transition {
  name: NonNullable<Transition["name"]>;
  /** Effective overlap in seconds: min(requested, half of this clip, half of the next). */
  duration: number;
  audioOutCurve: NonNullable<Transition["audioOutCurve"]>;
  audioInCurve: NonNullable<Transition["audioInCurve"]>;
}

export interface ClipTiming {
  /** Output time at which the clip starts. */
  start: number;
  duration: number;
  /** Into the next clip; null for a cut and for the last clip. */
  transition: ResolvedTransition | null;
}

export interface Timeline {
  clips: ClipTiming[];
  /** Output length in seconds: sum of clip lengths minus the transition overlaps. */
  total: number;
}

/**
 * A clip's length: its own `duration`, else the cut length of its first video layer when both ends are
 * known, else `defaults.duration`, else 4 s. (A video layer without `cutTo` lasts as long as its file,
 * which only the renderer knows; the default stands in for it here.)
 */
export function clipDuration(clip: ClipLike, defaults: TimelineInput["defaults"]): number {
  if (clip.duration !== undefined) return clip.duration;
  const video = clip.layers.find((layer) => layer.type === "video");
  if (video?.cutTo !== undefined) return video.cutTo - (video.cutFrom ?? 0);
  return defaults?.duration ?? VIDEO_DEFAULTS.clipDuration;
}

/** The clip's transition merged over `defaults.transition`; `null` (on either level) means a cut. */
function requestedTransition(clip: ClipLike, defaults: TimelineInput["defaults"]): Transition | null {
  if (clip.transition === null) return null;
  const base = defaults?.transition ?? undefined;
  if (clip.transition === undefined && !base) return null;
  return { ...base, ...clip.transition };
}

export function timeline(config: TimelineInput): Timeline {
  const durations = config.clips.map((clip) => clipDuration(clip, config.defaults));
  let start = 0;
  const clips = config.clips.map((clip, i): ClipTiming => {
    const duration = durations[i]!;
    const next = durations[i + 1];
    const requested = next === undefined ? null : requestedTransition(clip, config.defaults);
    let transition: ResolvedTransition | null = null;
    if (requested && next !== undefined) {
      const overlap = Math.min(
        requested.duration ?? VIDEO_DEFAULTS.transitionDuration,
        duration / 2,
        next / 2,
      );
      if (overlap > 0) {
        transition = {
          ...requested,
          name: requested.name ?? VIDEO_DEFAULTS.transitionName,
          duration: overlap,
          audioOutCurve: requested.audioOutCurve ?? VIDEO_DEFAULTS.audioCurve,
          audioInCurve: requested.audioInCurve ?? VIDEO_DEFAULTS.audioCurve,
        };
      }
    }
    const timing = { start, duration, transition };
    start += duration - (transition?.duration ?? 0);
    return timing;
  });
  const last = clips[clips.length - 1];
  return { clips, total: last ? last.start + last.duration : 0 };
}
