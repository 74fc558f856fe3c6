/**
 * The renderer's typed view of a video job config (config reference §2-§4): the config as the contract's
 * grammar parsed it (`VideoConfigSchema`), with documented defaults filled in and `defaults.layer` /
 * `defaults.layerType` merged under every layer (spec.ts `videoSpec`). Layers keep the grammar's types,
 * so each compiler gets its own narrowed type (`LayerOf<"video">`).
 */
import type { Writable } from "node:stream";
import type { AutoSubtitlesStyle, VIDEO_FORMATS, VideoLayer } from "@media-render/contract/config/video";
import type { Transition } from "@media-render/contract/config/transitions";
import type { SpeechTrack } from "@media-render/contract/config/speech";
import type { JobFonts } from "../fonts/hosted.ts";

export type { AutoSubtitlesStyle };

/** One layer as drawn: a layer of the grammar with the config's layer defaults merged in. */
export type Layer = VideoLayer;
/** The layer type(s) `T`, e.g. `LayerOf<"video">`, `LayerOf<"fill-color" | "pause">`. */
export type LayerOf<T extends Layer["type"]> = Extract<Layer, { type: T }>;
export type LayerType = Layer["type"];

/** Output containers the renderer writes (the grammar's `format`). */
export type VideoFormat = (typeof VIDEO_FORMATS)[number];

/** A clip as the timeline reads it (packages/contract/src/timeline.ts): absent duration/transition = the defaults'. */
export interface ClipSpec {
  duration?: number;
  transition?: Transition | null;
  layers: Layer[];
}

export interface AudioTrackSpec {
  path: string;
  mixVolume: number;
  /** Seconds into the output. */
  start: number;
  cutFrom: number;
  cutTo: number | null;
  /** Lowered under speech when the config asks for `ducking` (file tracks; not speech, not detached audio). */
  duck?: boolean;
}

/** `ducking` worked out for a render (ducking.ts): dB down while speech is heard, ramps in seconds. */
export interface Ducking {
  amount: number;
  attack: number;
  release: number;
  /** Seconds of the output where speech is heard, merged, in order. */
  intervals: [number, number][];
}

export interface VideoSpec {
  /** Even sizes (evenDimension). */
  width: number;
  height: number;
  fps: number;
  format: VideoFormat;
  fast: boolean;
  /**
   * Output pixels per config pixel: 1, or the preview (`fast`) factor. Pixel-valued text properties are
   * already multiplied by it; html pages are laid out at their config size and captured at this scale.
   */
  pixelScale: number;
  /** The config's `defaults.duration` / `defaults.transition`: with `fps` and `clips`, the timeline's input. */
  defaults: { duration?: number; transition?: Transition | null };
  /** `defaults.duration`, else the documented clip length: the window of a layer whose clip is unknown yet. */
  defaultDuration: number;
  clips: ClipSpec[];
  globalLayers: Layer[];
  audioFilePath: string | null;
  /** The background track's gain (editly's weight, made relative by mix-weights.ts). */
  backgroundAudioVolume: number;
  loopAudio: boolean;
  keepSourceAudio: boolean;
  clipsAudioVolume: number;
  outputVolume: number;
  audioTracks: AudioTrackSpec[];
  /**
   * `audioTracks` entries with `"type": "speech"`, each with its index in `audioTracks` (messages name the entry):
   * synthesised into audio tracks before mixing (speech.ts).
   */
  speechTracks: (SpeechTrack & { index: number })[];
  /** Set once the speech's times on the timeline are known (render.ts); null: nothing is ducked. */
  ducking: Ducking | null;
  audioNorm: { enable: boolean; gaussSize: number; maxGain: number };
  /**
   * `autoSubtitles: true` or a `captionsFile`: the caption style (fontPath rewritten like layers'), the language
   * hint, and the captions file (its cues are drawn, nothing is transcribed).
   */
  subtitles: { style: AutoSubtitlesStyle; language?: string; file?: string } | null;
  /**
   * The hosted catalogue fonts the request carries (`googleFont` values the bundle lacks), with the faces the job's
   * text reaches: references until the inputs download, then local paths (fonts/hosted.ts). Absent: none.
   */
  fonts?: JobFonts;
}

/** What the compiler reads about a downloaded input (probe/media-facts.ts, the probe's renderer view). */
export type { MediaInfo } from "../probe/media-facts.ts";

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
  /** A caption preset's words, each drawn over the frames by the graph (captions/word-motion.ts). */
  words?: WordMotion;
}

/** How a caption preset moves its words: `wipe` fills each left to right while it is said (karaoke), `pop` scales it in. */
export interface WordMotion {
  motion: "wipe" | "pop";
  words: WordOverlay[];
}

/** One word of a caption drawn on its own: its region of the sheet, and when it is said (seconds from the layer's start). */
export interface WordOverlay {
  frame: RasterFrame;
  start: number;
  end: number;
}
