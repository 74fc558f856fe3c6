/**
 * ffmpeg arguments of the outputs beyond H.264 mp4/mov and VP9 webm (args.ts): ProRes 4444 with alpha, audio-only
 * files, and the lossless intermediate a GIF is made from (gif.ts). Pure, like args.ts.
 */
import type { RenderFormat } from "@media-render/contract/config/outputs";
import { f } from "../values.ts";

/** What the main output needs to know; `outPath` of a GIF is its intermediate (gif.ts `gifIntermediate`). */
export interface OutputJob {
  format: RenderFormat;
  alpha?: boolean;
  /**
   * A still: the graph's one frame (its window, compile.ts RenderWindow) is written as a picture. A still's or a
   * preview's graph holds only its frames: nothing before them is composed, nothing is seeked past here.
   */
  still?: boolean;
  fps: number;
  /** Seconds the output holds: the timeline's, or its window's (a preview's range). */
  duration: number;
  outPath: string;
}

/** How much of the graph's output the file keeps: `-t` its length. */
export const timingArgs = (job: Pick<OutputJob, "duration">): string[] =>
  // Seconds as ffmpeg's time syntax reads them: no exponent (2e-7 is not a time to it), microseconds at most.
  ["-t", f(Math.max(0, job.duration))];

/** Audio encoders and muxers of the audio-only formats. */
const AUDIO: Record<"mp3" | "wav" | "m4a", string[]> = {
  // libmp3lame writes a LAME/Xing header with its delay and padding, so players and ffprobe get the exact length.
  mp3: ["-c:a", "libmp3lame", "-b:a", "192k", "-f", "mp3"],
  wav: ["-c:a", "pcm_s16le", "-f", "wav"],
  m4a: ["-c:a", "aac", "-b:a", "160k", "-movflags", "+faststart", "-f", "ipod"],
};

/** The picture nobody keeps (an audio-only render's, a GIF's sound) goes to ffmpeg's null muxer. */
const discard = (label: string): string[] => ["-map", `[${label}]`, "-f", "null", "-"];

/**
 * The main output's maps, encoder and muxer for the formats args.ts does not encode itself; null for mp4, webm
 * and plain mov.
 */
export const formatArgs = (job: OutputJob): string[] | null => {
  const timing = ["-r", String(job.fps), ...timingArgs(job)];
  switch (job.format) {
    case "mp3":
    case "wav":
    case "m4a":
      return ["-map", "[aout]", ...AUDIO[job.format], "-t", f(job.duration), job.outPath, ...discard("vout")];
    case "png":
    case "jpeg": {
      // The graph of a still draws its one frame (and no sound): it is written as it is.
      const codec =
        job.format === "png" ? ["-c:v", "png"] : ["-c:v", "mjpeg", "-q:v", "2", "-pix_fmt", "yuvj420p"];
      return ["-map", "[vout]", "-frames:v", "1", ...codec, "-f", "image2", "-update", "1", job.outPath];
    }
    case "gif":
      // Lossless, so the palette and the dithering see the composed frames as they are.
      return [
        ...[
          "-map",
          "[vout]",
          "-c:v",
          "ffv1",
          "-pix_fmt",
          "yuv420p",
          ...timing,
          "-f",
          "matroska",
          job.outPath,
        ],
        ...discard("aout"),
      ];
    case "mov":
      if (!job.alpha) return null;
      // ProRes 4444 (profile 4) keeps the canvas' alpha plane; PCM sound, as ProRes editors expect.
      return [
        ...["-map", "[vout]", "-map", "[aout]", "-c:v", "prores_ks", "-profile:v", "4", "-vendor", "apl0"],
        ...["-pix_fmt", "yuva444p10le", "-alpha_bits", "16", "-c:a", "pcm_s16le", ...timing, "-f", "mov"],
        job.outPath,
      ];
    default:
      return null;
  }
};
