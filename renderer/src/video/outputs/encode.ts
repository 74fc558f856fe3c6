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
  /** A still's time: the one frame written is the one shown then. */
  stillTime?: number;
  /** A preview's range of the video, in seconds (to defaults to the end). */
  preview?: { from?: number; to?: number };
  fps: number;
  duration: number;
  outPath: string;
}

/**
 * How much of the video the output keeps: `-t` its length, or a preview's range by output seeking (the frames
 * before `from` are composed and dropped, not encoded).
 */
export const timingArgs = (job: Pick<OutputJob, "duration" | "preview">): string[] => {
  // Seconds as ffmpeg's time syntax reads them: no exponent (2e-7 is not a time to it), microseconds at most.
  const from = Number(f(job.preview?.from ?? 0));
  const to = Math.min(job.preview?.to ?? job.duration, job.duration);
  return [...(from > 0 ? ["-ss", f(from)] : []), "-t", f(Math.max(0, to - from))];
};

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
      // Output seeking drops every frame before the still's (frame k is shown from k/fps; half a frame earlier
      // keeps rounding out of it), and ffmpeg stops once it has one: nothing after it is composed.
      const k = Math.floor((job.stillTime ?? 0) * job.fps + 1e-6);
      const codec =
        job.format === "png" ? ["-c:v", "png"] : ["-c:v", "mjpeg", "-q:v", "2", "-pix_fmt", "yuvj420p"];
      return [
        ...["-map", "[vout]", "-ss", f(Math.max(0, (k - 0.5) / job.fps)), "-frames:v", "1", ...codec],
        ...[
          "-f",
          "image2",
          "-update",
          "1",
          job.outPath,
          "-map",
          "[aout]",
          "-frames:a",
          "1",
          "-f",
          "null",
          "-",
        ],
      ];
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
