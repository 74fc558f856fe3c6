/**
 * Timeline arithmetic (reference §2.2, §3.1), quantised to whole frames so that video length,
 * xfade offsets and audio placement agree exactly: clip i starts at Σ(duration − transition) of the
 * clips before it; a transition lasts at most half of each neighbouring clip; the last clip's is ignored.
 */
import type { ClipSpec, TransitionSpec } from "./types.ts";

export interface ClipTiming {
  /** First frame of the clip on the output timeline. */
  startFrame: number;
  frames: number;
  /** Seconds (= frames / fps). */
  start: number;
  duration: number;
  /** Transition into the next clip, with its effective length; null for a hard cut. */
  transition: (TransitionSpec & { frames: number }) | null;
  /** Frames of overlap with the previous clip (its transition length). */
  inFrames: number;
}

export interface Timeline {
  fps: number;
  clips: ClipTiming[];
  totalFrames: number;
  /** Output length in seconds. */
  duration: number;
}

/**
 * A clip's length in seconds: its own `duration`, else the first video layer's cut length, else the default.
 * `videoLength` returns a video layer's playable length (cutTo or file end, minus cutFrom) or null.
 */
export function clipDuration(
  clip: ClipSpec,
  defaultDuration: number,
  videoLength: (layerIndex: number) => number | null,
): number {
  if (clip.duration !== null) return clip.duration;
  for (let i = 0; i < clip.layers.length; i++) {
    if (clip.layers[i]?.type !== "video") continue;
    const len = videoLength(i);
    if (len !== null && len > 0) return len;
  }
  return defaultDuration;
}

/** Lays clips of the given durations (seconds) and transitions on a frame-exact timeline. */
export function buildTimeline(
  durations: number[],
  transitions: (TransitionSpec | null)[],
  fps: number,
): Timeline {
  const frames = durations.map((d) => Math.max(1, Math.round(d * fps)));
  const clips: ClipTiming[] = [];
  let cursor = 0;
  let inFrames = 0;
  for (let i = 0; i < frames.length; i++) {
    const own = frames[i]!;
    const next = frames[i + 1];
    const t = transitions[i] ?? null;
    let transition: ClipTiming["transition"] = null;
    if (t && next !== undefined) {
      const tf = Math.min(Math.round(t.duration * fps), Math.floor(own / 2), Math.floor(next / 2));
      if (tf > 0) transition = { ...t, frames: tf };
    }
    clips.push({
      startFrame: cursor,
      frames: own,
      start: cursor / fps,
      duration: own / fps,
      transition,
      inFrames,
    });
    const overlap = transition?.frames ?? 0;
    cursor += own - overlap;
    inFrames = overlap;
  }
  const last = clips[clips.length - 1];
  const totalFrames = last ? last.startFrame + last.frames : 0;
  return { fps, clips, totalFrames, duration: totalFrames / fps };
}
