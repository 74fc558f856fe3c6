/**
 * The renderer's own, normalised view of a video job config (config reference §2-§4).
 * `parseVideoConfig` produces it from untrusted JSON; everything downstream reads only this shape.
 */
import type { Writable } from "node:stream";

/** One layer: its type plus every property as given (after defaults.layer / defaults.layerType merge). */
export type Layer = { type: string } & Record<string, unknown>;

export interface TransitionSpec {
  name: string;
  duration: number;
  audioOutCurve: string;
  audioInCurve: string;
  params?: Record<string, unknown>;
}

export interface ClipSpec {
  /** Explicit clip duration in seconds, or null when it must come from a video layer / the default. */
  duration: number | null;
  transition: TransitionSpec | null;
  layers: Layer[];
}

export interface AudioTrackSpec {
  path: string;
  mixVolume: number;
  /** Seconds into the output. */
  start: number;
  cutFrom: number;
  cutTo: number | null;
}

export interface VideoSpec {
  width: number;
  height: number;
  fps: number;
  format: "mp4" | "mov" | "webm";
  fast: boolean;
  /**
   * Output pixels per config pixel: 1, or the preview (`fast`) factor. Pixel-valued text properties are
   * already multiplied by it; html pages are laid out at their config size and captured at this scale.
   */
  pixelScale: number;
  defaultDuration: number;
  clips: ClipSpec[];
  globalLayers: Layer[];
  audioFilePath: string | null;
  loopAudio: boolean;
  keepSourceAudio: boolean;
  clipsAudioVolume: number;
  outputVolume: number;
  audioTracks: AudioTrackSpec[];
  audioNorm: { enable: boolean; gaussSize: number; maxGain: number };
}

/** What ffprobe told us about a downloaded input file. */
export interface MediaInfo {
  width: number;
  height: number;
  duration: number;
  hasVideo: boolean;
  hasAudio: boolean;
  /** The first video stream has an alpha channel (png rgba, vp9 alpha...). */
  hasAlpha: boolean;
  rotation: number;
  videoCodec: string | null;
  /**
   * EXIF orientation of a JPEG still (1–8, 1 = as stored). ffprobe does not report it (its size is the
   * stored one) and ffmpeg's autorotate ignores the mirrored ones, so the graph applies it.
   */
  orientation: number;
}

/** A transparent PNG produced by rasterising a text/html layer, placed at (x,y) in the frame. */
export interface RasterFrame {
  path: string;
  /** The frame is the width x height region of `path` at this offset (a text sheet), else all of it. */
  crop?: { x: number; y: number };
  /** The image is larger than width x height (an html page captured at config size for a preview): scale it. */
  resize?: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * RasterFrame.path of a still that reaches ffmpeg on its stdin (`-f png_pipe -i pipe:0`): the text
 * sheet, whose screenshot is still being taken while ffmpeg starts.
 */
export const STDIN_PATH = "pipe:0";

/** What the rasteriser produced: assets by layer key, and the PNG bytes of STDIN_PATH if used. */
export interface Rasters {
  assets: Map<string, RasterAsset>;
  stdin: Promise<Uint8Array> | null;
}

/**
 * A rasterised layer: one frame (static) or a sequence whose entry i is shown from `times[i]`
 * (seconds relative to the layer's start) until the next entry.
 */
export interface RasterAsset {
  frames: RasterFrame[];
  times: number[];
  /** Frames come from an image sequence pattern (animated html), one per output frame. */
  sequencePattern?: string;
  /** Frames are PNGs written into ffmpeg's input pipe while they are captured (one animated html layer). */
  stream?: (out: Writable) => Promise<void>;
}
