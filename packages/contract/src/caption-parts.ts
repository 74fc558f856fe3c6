/**
 * autoSubtitles' transcription parts (issue 41 §3): the final mix is transcribed in parts, spans of the timeline cut
 * at the quietest moment near a fixed grid (every CAPTION_PART_SECONDS of output, searched CAPTION_CUT_SEARCH_SECONDS
 * either side). Each part is recognised on its own and its cues are laid out on their own, never past its end, so
 * the cuts depend only on the mix and every render of a job (the single render, each chunk, the join) finds the same
 * parts and draws the same cues: a chunk transcribes only the parts its frames reach. The renderer cuts the audio
 * (renderer/src/video/captions/parts.ts); the Worker sizes a chunk's deadline by the parts it may transcribe.
 */
import type { FrameRange } from "./windows.ts";

/** A part is cut near every this many seconds of output: Whisper's own window, a few seconds of context either side. */
export const CAPTION_PART_SECONDS = 30;
/** The cut is the quietest moment within this many seconds of its grid point. */
export const CAPTION_CUT_SEARCH_SECONDS = 2;
/** No grid point closer to the end than this: the last part lasts at least this long, less the search. */
const LAST_PART_MIN_SECONDS = 15;

/** The grid points (seconds of output) near which a mix `duration` seconds long is cut, in order; none: one part. */
export const captionGrid = (duration: number): number[] => {
  const points: number[] = [];
  for (let k = 1; k * CAPTION_PART_SECONDS <= duration - LAST_PART_MIN_SECONDS + 1e-9; k++)
    points.push(k * CAPTION_PART_SECONDS);
  return points;
};

/**
 * The seconds of the timeline whose captions a render of frames `range` draws: the range widened by two frames either
 * side (a whole cue fades in over the frame before its first word; frame rounding). The parts overlapping it are the
 * ones it transcribes.
 */
export const captionSpan = (range: FrameRange, fps: number): { start: number; end: number } => ({
  start: (range.from - 2) / fps,
  end: (range.to + 2) / fps,
});

/**
 * Seconds of audio, at most, a render transcribes: the whole mix (`range` absent), or the parts that may overlap the
 * caption span of `range` (each as long as its grid points and their search allow).
 */
export const transcribedSeconds = (duration: number, fps: number, range?: FrameRange): number => {
  if (!range) return duration;
  const span = captionSpan(range, fps);
  const bounds = [0, ...captionGrid(duration), duration];
  let total = 0;
  for (let k = 0; k + 1 < bounds.length; k++) {
    const from = k === 0 ? 0 : bounds[k]! - CAPTION_CUT_SEARCH_SECONDS;
    const to = k + 2 === bounds.length ? duration : bounds[k + 1]! + CAPTION_CUT_SEARCH_SECONDS;
    if (from < span.end && to > span.start) total += to - from;
  }
  return Math.min(duration, total);
};
