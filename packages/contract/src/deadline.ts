/**
 * How long a render may take, derived from what it renders (issue: no render without a deadline; issue 29: no
 * render, however slow its content, holds a renderer longer than its planned length and size account for). The
 * Worker computes the figure from the planned timeline, refuses at validation a job whose GL drawing could never
 * fit, sends the deadline with the request (less what earlier hand-overs of the job already used) and the renderer
 * aborts the render when it passes (killing ffmpeg and the browser, not just giving up waiting). Generous against
 * the speeds measured here (a 720p25 second encodes in ~0.2 s on 2 cores), tight against a render that never ends.
 */
import { GL_NANOSECONDS_PER_PIXEL, VIDEO_DEFAULTS, VIDEO_MAX_GL_PIXELS } from "./config/limits.ts";
import { transcribedSeconds } from "./caption-parts.ts";
import { speechTexts } from "./config/speech.ts";
import type { Timeline } from "./timeline.ts";
import {
  chunkWindows,
  clipRange,
  composedRange,
  MAX_CHUNKS,
  type FrameRange,
  type FrameWindow,
} from "./windows.ts";
import { XFADE_TWINS } from "./transition-map.ts";

/** Pixels of 1280x720: the unit the per-frame allowance scales with. */
const UNIT_PIXELS = 1280 * 720;

/** Start-up: inputs downloaded and probed, browsers launched, text laid out. */
const FIXED_SECONDS = 60;
/** Every output frame, whatever its size (ffmpeg's own work per frame over many inputs). */
const SECONDS_PER_FRAME = 0.02;
/** Every output frame at 1280x720, in proportion to its pixels: 3 s per second of 720p25. */
const SECONDS_PER_720P_FRAME = 0.12;
/** Every frame captured from an animated html layer (a capture step and its PNG), plus its pixels as above. */
const SECONDS_PER_HTML_FRAME = 0.05;
/**
 * Each speech text is one synthesis (with Workers AI a request to the Worker, which has MeloTTS say it and Whisper
 * time it: an allowance, not measured here, where there is no Workers AI), and each character is the offline
 * espeak-ng voice's work (0.7-1.9 ms a character measured on the 2-core machine at load average 4.5, texts of
 * one-letter words included: 0.01 s leaves five times that).
 */
const SECONDS_PER_SPEECH_TEXT = 2;
const SECONDS_PER_SPEECH_CHARACTER = 0.01;
/** The longest any render may run (the stuck-job sweep's backstop is the same hour). */
export const MAX_DEADLINE_SECONDS = 3600;

/** What a video render asks of the renderer, from its planned timeline and size. */
export interface RenderWork {
  /** Output length, frames and frame size. */
  seconds: number;
  frames: number;
  width: number;
  height: number;
  /** Frames captured from animated html layers (each its recording length, at most its clip's frames). */
  htmlFrames: number;
  /**
   * Pixels drawn by software GL: each `gl` layer's frames (its clip's, or the whole video's when global) and each
   * transition that may be drawn by its GLSL (any but a plain `fade` or `dummy`: an upper bound), times the frame.
   */
  glPixels: number;
  /**
   * autoSubtitles: the seconds of the mix transcribed (caption-parts.ts): all of it, or a chunk's parts; 0 without.
   */
  captionSeconds: number;
  /** Speech to synthesise: its texts (speech layers and tracks) and their characters. */
  speech: { texts: number; characters: number };
}

interface LayerLike {
  type: string;
  animated?: boolean;
  duration?: number;
  start?: number;
  stop?: number;
}
/** The parts of a video config the work depends on (the grammar's VideoConfig has them). */
export interface WorkInput {
  width?: number;
  height?: number;
  autoSubtitles?: boolean;
  clips: readonly { layers: readonly LayerLike[] }[];
  globalLayers?: readonly LayerLike[];
  audioTracks?: readonly object[];
}

/** Whether a resolved transition is drawn by its GLSL, at most (the renderer draws some of these with ffmpeg). */
const mayDrawWithGl = (transition: NonNullable<Timeline["clips"][number]["transition"]>): boolean =>
  !(
    XFADE_TWINS.has(transition.name) &&
    (transition.easing ?? "linear") === "linear" &&
    Object.keys(transition.params ?? {}).length === 0
  );

/**
 * The work of rendering `config` on `timeline` (its planned timeline: src/jobs/planned-length.ts), or the part of it
 * a render of `window` composes (a still's, a preview's: windows.ts; a chunk's: chunkWork): only the frames, html
 * captures and GL drawing of that range count (an upper bound: a layer counts over the whole part of its clip in
 * range); the speech of the whole job counts for every window, as every render of it makes it, and so do the
 * captions of the whole mix (a still or a preview writes the whole job's caption files).
 */
export const renderWork = (config: WorkInput, timeline: Timeline, window?: FrameWindow): RenderWork => {
  const width = config.width ?? VIDEO_DEFAULTS.width;
  const height = config.height ?? VIDEO_DEFAULTS.height;
  const range = composedRange(timeline, window);
  let htmlFrames = 0;
  let glFrames = 0;
  const count = (layer: LayerLike, part: FrameRange) => {
    const frames = part.to - part.from;
    if (layer.type === "gl") glFrames += frames;
    if (layer.type === "html" && layer.animated) {
      // Captured from the first frame in range to the end of its recording (at least its held last frame).
      const recorded = Math.round((layer.duration ?? VIDEO_DEFAULTS.htmlAnimatedDuration) * timeline.fps);
      htmlFrames += Math.max(1, Math.min(part.to, recorded) - part.from);
    }
  };
  config.clips.forEach((clip, i) => {
    const timing = timeline.clips[i];
    const part = timing && clipRange(timing, range);
    if (!timing || !part) return;
    for (const layer of clip.layers) count(layer, part);
    const next = timeline.clips[i + 1];
    if (timing.transition && mayDrawWithGl(timing.transition) && next && clipRange(next, range))
      glFrames += timing.transition.frames;
  });
  for (const layer of config.globalLayers ?? []) count(layer, range);
  const said = speechTexts(config);
  return {
    seconds: timeline.duration,
    frames: range.to - range.from,
    width,
    height,
    htmlFrames,
    glPixels: glFrames * width * height,
    captionSeconds: config.autoSubtitles === true ? timeline.duration : 0,
    speech: { texts: said.length, characters: said.reduce((sum, { text }) => sum + text.length, 0) },
  };
};

/**
 * The work of a chunk of a split job (its `window`: chunkWindows): its window's frames (renderWork), and of the captions only the parts its
 * frames reach (caption-parts.ts: a chunk transcribes those, the join none).
 */
export const chunkWork = (config: WorkInput, timeline: Timeline, window: FrameWindow): RenderWork => {
  const work = renderWork(config, timeline, window);
  const range = composedRange(timeline, window);
  return {
    ...work,
    captionSeconds:
      config.autoSubtitles === true ? transcribedSeconds(timeline.duration, timeline.fps, range) : 0,
  };
};

/** Wall-clock seconds a render of `w` needs by the allowances above, before the longest render's cap. */
const allowanceSeconds = (w: RenderWork): number => {
  const scale = (w.width * w.height) / UNIT_PIXELS;
  return (
    FIXED_SECONDS +
    w.frames * (SECONDS_PER_FRAME + SECONDS_PER_720P_FRAME * scale) +
    w.htmlFrames * (SECONDS_PER_HTML_FRAME + SECONDS_PER_720P_FRAME * scale) +
    (w.glPixels * GL_NANOSECONDS_PER_PIXEL) / 1e9 +
    w.captionSeconds +
    w.speech.texts * SECONDS_PER_SPEECH_TEXT +
    w.speech.characters * SECONDS_PER_SPEECH_CHARACTER
  );
};

/** Rounded up, but not for a float's last bit (2670.0000000001 s is 2670). */
const wholeSeconds = (seconds: number): number => Math.ceil(seconds - 1e-6);

/**
 * Wall-clock seconds a video render may run:
 * 60 s + frames x (0.02 s + 0.12 s x pixels / 1280x720) + html frames x (0.05 s + 0.12 s x pixels / 1280x720)
 * + GL pixels x GL_NANOSECONDS_PER_PIXEL + (with captions) 1 s per second of audio transcribed (a chunk's parts, or
 * the whole output) + speech texts x 2 s + speech characters x 0.01 s, rounded up, at most 1 h.
 * The offline recogniser takes ~0.25 s per second of audio alone, about twice that on a loaded machine.
 */
export const videoDeadlineSeconds = (w: RenderWork): number =>
  Math.min(MAX_DEADLINE_SECONDS, wholeSeconds(allowanceSeconds(w)));

/**
 * The fewest chunks a job must render as so that no chunk needs longer than the longest render (an hour of 1080p
 * earns ~26,000 s: at least 8 chunks); 1 when the whole fits. More than MAX_CHUNKS means no split fits: validation
 * refuses such a job, as it refuses one that needs chunks but cannot be split (windows.ts splittable).
 */
export const chunksForDeadline = (config: WorkInput, timeline: Timeline): number => {
  const fits = (count: number) => {
    for (const window of chunkWindows(config, timeline, count))
      if (allowanceSeconds(chunkWork(config, timeline, window)) > MAX_DEADLINE_SECONDS) return false;
    return true;
  };
  if (fits(1)) return 1;
  // Each chunk's work shrinks as chunks are added (a chunk is never longer than 1/count of the frames, plus at most
  // a transition's): the first count that fits is found by halving.
  let low = 1;
  let high = MAX_CHUNKS + 1;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (fits(mid)) high = mid;
    else low = mid;
  }
  return high;
};

/** The join's allowance per second of output: the whole mix rendered once, segments fetched and copied. */
const JOIN_SECONDS_PER_SECOND = 0.25;
/** The join's allowance per output frame decoded for posters and thumbnails, at 1280x720, in proportion to pixels. */
const JOIN_SECONDS_PER_720P_FRAME = 0.01;

/**
 * Wall-clock seconds the join of a split job may run: 60 s + 0.25 s per output second (the mix rendered once, as
 * every render makes it: speech included; the segments fetched and concatenated by stream copy) + the frames decoded
 * for posters and thumbnails (every frame, at 0.01 s per 1280x720 frame) + speech as above, at most 1 h.
 */
export const joinDeadlineSeconds = (w: RenderWork, framesOut: boolean): number =>
  Math.min(
    MAX_DEADLINE_SECONDS,
    wholeSeconds(
      FIXED_SECONDS +
        w.seconds * JOIN_SECONDS_PER_SECOND +
        (framesOut ? w.frames * JOIN_SECONDS_PER_720P_FRAME * ((w.width * w.height) / UNIT_PIXELS) : 0) +
        w.speech.texts * SECONDS_PER_SPEECH_TEXT +
        w.speech.characters * SECONDS_PER_SPEECH_CHARACTER,
    ),
  );

/** Whether the GL drawing of `w` fits one render (VIDEO_MAX_GL_PIXELS); validation refuses it otherwise. */
export const glWorkFits = (w: RenderWork): boolean => w.glPixels <= VIDEO_MAX_GL_PIXELS;

/**
 * Wall-clock seconds an image render may run in the browser: `captureSeconds` (20 s; the Worker's
 * IMAGE_CAPTURE_SECONDS setting changes it) plus the html layers' settle time.
 */
export const imageDeadlineSeconds = (waitSeconds: number, captureSeconds = 20): number =>
  Math.ceil(captureSeconds + waitSeconds);
