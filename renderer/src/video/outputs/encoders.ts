/**
 * The encoder settings of every output, keyed by the `encoder` the contract's output-formats.ts names for each format
 * (mp4 and mov: `h264`). Pure data: encode.ts assembles the main output's arguments from it by the format's kind,
 * chunks.ts a chunk's and a join's, frames.ts the decoder that reads a render back. Encoder settings live here once,
 * so the benchmark's baseline encode (args.ts `encoderArgs`) uses exactly the settings of a real render.
 */
import { outputFormat, type EncoderKey } from "@media-render/contract/output-formats";

/** The settings keys: the contract's, and the variants only the renderer picks (mov's alpha). */
export type EncoderName = EncoderKey | "prores-4444";

export interface EncoderSettings {
  /** The video encoder and its quality and speed, before the pixel format (`fast`: a preview's, quicker). */
  codec?: (fast: boolean) => string[];
  /** The pixel format the video encoder takes (`-pix_fmt`). */
  pixelFormat?: string;
  /** The video encoder's options after the pixel format. */
  tuning?: (fast: boolean) => string[];
  /** The audio encoder and its rate. */
  audio?: string[];
  /** The muxer's flags. */
  container?: string[];
  /** The settings of the output when it keeps alpha on request (the contract's `alpha: "on request"`). */
  alpha?: EncoderName;
  /** The muxer of a chunk's video-only segment (chunks.ts), for the formats joined by stream copy. */
  segmentMuxer?: string;
  /** Input options that read the output back with its alpha plane (posters and thumbnails, frames.ts). */
  decoder?: string[];
  /** A picture's quality options: a poster's (full size, as a still's) and a thumbnail's (smaller, coarser). */
  quality?: { full: string[]; thumbnail: string[] };
  /** Samples in each audio frame the encoder takes: the mix is cut into frames of it (audio-graph.ts). */
  audioFrameSamples?: number;
  /**
   * The render writes a lossless intermediate in `muxer` and `finish` makes the file of it: `palette`, a GIF's two
   * palette passes (gif.ts).
   */
  intermediate?: { muxer: string; finish: "palette" };
}

/** JPEG's quantiser at full size (2: near the best ffmpeg's mjpeg encoder makes). */
const MJPEG_FULL = ["-q:v", "2"];

export const ENCODERS: Record<EncoderName, EncoderSettings> = {
  h264: {
    codec: (fast) => [
      "-c:v",
      "libx264",
      "-preset",
      fast ? "ultrafast" : "veryfast",
      "-crf",
      fast ? "28" : "20",
    ],
    pixelFormat: "yuv420p",
    audio: ["-c:a", "aac", "-b:a", "160k"],
    // The index up front, so a player starts before the whole file is there.
    container: ["-movflags", "+faststart"],
    alpha: "prores-4444",
    // Each segment is its own closed GOP sequence (x264 starts it with an IDR frame, `open_gop` off): a concat by
    // stream copy joins them.
    segmentMuxer: "mp4",
  },
  // ProRes 4444 (profile 4) keeps the canvas' alpha plane; PCM sound, as ProRes editors expect.
  "prores-4444": {
    codec: () => ["-c:v", "prores_ks", "-profile:v", "4", "-vendor", "apl0"],
    pixelFormat: "yuva444p10le",
    tuning: () => ["-alpha_bits", "16"],
    audio: ["-c:a", "pcm_s16le"],
  },
  // VP9 keeps the alpha channel (yuva420p) so transparent backgrounds survive.
  vp9: {
    codec: () => ["-c:v", "libvpx-vp9"],
    pixelFormat: "yuva420p",
    tuning: (fast) => [
      ...["-b:v", "0", "-crf", fast ? "40" : "32"],
      ...["-deadline", "realtime", "-cpu-used", fast ? "8" : "6", "-row-mt", "1", "-auto-alt-ref", "0"],
    ],
    audio: ["-c:a", "libopus", "-b:a", "128k"],
    segmentMuxer: "webm",
    // VP9's alpha plane is read only by libvpx's decoder (ffmpeg's own drops it).
    decoder: ["-c:v", "libvpx-vp9"],
    // Opus takes frames of 960 samples (20 ms at 48 kHz).
    audioFrameSamples: 960,
  },
  // Lossless, so the palette and the dithering see the composed frames as they are.
  gif: {
    codec: () => ["-c:v", "ffv1"],
    pixelFormat: "yuv420p",
    intermediate: { muxer: "matroska", finish: "palette" },
  },
  // libmp3lame writes a LAME/Xing header with its delay and padding, so players and ffprobe get the exact length.
  mp3: { audio: ["-c:a", "libmp3lame", "-b:a", "192k"] },
  pcm: { audio: ["-c:a", "pcm_s16le"] },
  aac: { audio: ["-c:a", "aac", "-b:a", "160k"], container: ["-movflags", "+faststart"] },
  png: { codec: () => ["-c:v", "png"] },
  mjpeg: {
    codec: () => ["-c:v", "mjpeg", ...MJPEG_FULL],
    pixelFormat: "yuvj420p",
    quality: { full: MJPEG_FULL, thumbnail: ["-q:v", "3"] },
  },
};

/**
 * The settings a render in `format` is encoded with: its encoder's, or their alpha variant when the output keeps
 * alpha on request (mov with `alpha: true`); undefined for a format the renderer does not write.
 */
export const encoderOf = (format: string, alpha = false): EncoderSettings | undefined => {
  const entry = outputFormat(format);
  const settings = entry?.encoder === undefined ? undefined : ENCODERS[entry.encoder as EncoderKey];
  return alpha && entry?.alpha === "on request" && settings?.alpha ? ENCODERS[settings.alpha] : settings;
};

/** The video encoder's arguments: codec, pixel format, tuning. */
export const videoCodecArgs = (settings: EncoderSettings, fast: boolean): string[] => [
  ...(settings.codec?.(fast) ?? []),
  ...(settings.pixelFormat ? ["-pix_fmt", settings.pixelFormat] : []),
  ...(settings.tuning?.(fast) ?? []),
];

/** The audio encoder's arguments and the muxer's flags. */
export const audioAndContainerArgs = (settings: EncoderSettings): string[] => [
  ...(settings.audio ?? []),
  ...(settings.container ?? []),
];

/**
 * Whether a graph composed for `canvas` (the spec's `format`: outputs/target.ts composes on `webm` with alpha, on
 * `mp4` opaque) keeps alpha: a video format that always keeps it.
 */
export const canvasHasAlpha = (canvas: string | undefined): boolean => {
  const entry = outputFormat(canvas);
  return entry?.kind === "video" && entry.alpha === "always";
};
