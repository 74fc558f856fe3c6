/**
 * How long a render may take, derived from what it renders (issue: no render without a deadline; issue 29: no
 * render, however slow its content, holds a renderer longer than its planned length and size account for). The
 * Worker computes the figure from the planned timeline, refuses at validation a job whose GL drawing could never
 * fit, sends the deadline with the request (less what earlier hand-overs of the job already used) and the renderer
 * aborts the render when it passes (killing ffmpeg and the browser, not just giving up waiting). Generous against
 * the speeds measured here (a 720p25 second encodes in ~0.2 s on 2 cores), tight against a render that never ends.
 */
import { GL_NANOSECONDS_PER_PIXEL, VIDEO_DEFAULTS, VIDEO_MAX_GL_PIXELS } from "./config/limits.ts";
import { speechTexts } from "./config/speech.ts";
import type { Timeline } from "./timeline.ts";
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
  /** autoSubtitles: the mix is transcribed. */
  captions: boolean;
  /** Speech to synthesise: its texts (speech layers and tracks) and their characters. */
  speech: { texts: number; characters: number };
}

interface LayerLike {
  type: string;
  animated?: boolean;
  duration?: number;
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
const mayDrawWithGl = (t: NonNullable<Timeline["clips"][number]["transition"]>): boolean =>
  !(
    XFADE_TWINS.has(t.name) &&
    (t.easing ?? "linear") === "linear" &&
    Object.keys(t.params ?? {}).length === 0
  );

/** The work of rendering `config` on `timeline` (its planned timeline: src/jobs/planned-length.ts). */
export const renderWork = (config: WorkInput, timeline: Timeline): RenderWork => {
  const width = config.width ?? VIDEO_DEFAULTS.width;
  const height = config.height ?? VIDEO_DEFAULTS.height;
  let htmlFrames = 0;
  let glFrames = 0;
  const count = (layer: LayerLike, frames: number) => {
    if (layer.type === "gl") glFrames += frames;
    if (layer.type === "html" && layer.animated) {
      const recorded = Math.round((layer.duration ?? VIDEO_DEFAULTS.htmlAnimatedDuration) * timeline.fps);
      htmlFrames += Math.min(frames, recorded);
    }
  };
  config.clips.forEach((clip, i) => {
    const timing = timeline.clips[i];
    if (!timing) return;
    for (const layer of clip.layers) count(layer, timing.frames);
    if (timing.transition && mayDrawWithGl(timing.transition)) glFrames += timing.transition.frames;
  });
  for (const layer of config.globalLayers ?? []) count(layer, timeline.totalFrames);
  const said = speechTexts(config);
  return {
    seconds: timeline.duration,
    frames: timeline.totalFrames,
    width,
    height,
    htmlFrames,
    glPixels: glFrames * width * height,
    captions: config.autoSubtitles === true,
    speech: { texts: said.length, characters: said.reduce((sum, { text }) => sum + text.length, 0) },
  };
};

/**
 * Wall-clock seconds a video render may run:
 * 60 s + frames x (0.02 s + 0.12 s x pixels / 1280x720) + html frames x (0.05 s + 0.12 s x pixels / 1280x720)
 * + GL pixels x GL_NANOSECONDS_PER_PIXEL + (with captions) 1 s per output second + speech texts x 2 s + speech
 * characters x 0.01 s, rounded up, at most 1 h.
 * The offline recogniser takes ~0.25 s per second of audio alone, about twice that on a loaded machine.
 */
export const videoDeadlineSeconds = (w: RenderWork): number => {
  const scale = (w.width * w.height) / UNIT_PIXELS;
  const seconds =
    FIXED_SECONDS +
    w.frames * (SECONDS_PER_FRAME + SECONDS_PER_720P_FRAME * scale) +
    w.htmlFrames * (SECONDS_PER_HTML_FRAME + SECONDS_PER_720P_FRAME * scale) +
    (w.glPixels * GL_NANOSECONDS_PER_PIXEL) / 1e9 +
    (w.captions ? w.seconds : 0) +
    w.speech.texts * SECONDS_PER_SPEECH_TEXT +
    w.speech.characters * SECONDS_PER_SPEECH_CHARACTER;
  // Rounded up, but not for a float's last bit (2670.0000000001 s is 2670).
  return Math.min(MAX_DEADLINE_SECONDS, Math.ceil(seconds - 1e-6));
};

/** Whether the GL drawing of `w` fits one render (VIDEO_MAX_GL_PIXELS); validation refuses it otherwise. */
export const glWorkFits = (w: RenderWork): boolean => w.glPixels <= VIDEO_MAX_GL_PIXELS;

/**
 * Wall-clock seconds an image render may run in the browser: `captureSeconds` (20 s; the Worker's
 * IMAGE_CAPTURE_SECONDS setting changes it) plus the html layers' settle time.
 */
export const imageDeadlineSeconds = (waitSeconds: number, captureSeconds = 20): number =>
  Math.ceil(captureSeconds + waitSeconds);
