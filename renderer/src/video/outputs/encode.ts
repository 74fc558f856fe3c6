/**
 * ffmpeg arguments of a render's main output (pure, like args.ts), by the kind of its format (the contract's
 * output-formats.ts) with the settings of its encoder (encoders.ts): a video's picture and sound, an audio-only
 * file, a still's one frame, and the lossless intermediate an animated image is made from (gif.ts).
 */
import type { RenderFormat } from "@media-render/contract/config/outputs";
import { OUTPUT_FORMATS } from "@media-render/contract/output-formats";
import { ffNumber } from "../values.ts";
import { audioAndContainerArgs, encoderOf, videoCodecArgs } from "./encoders.ts";

/** What the main output needs to know; `outPath` of a GIF is its intermediate (gif.ts `gifIntermediate`). */
export interface OutputJob {
  format: RenderFormat;
  /** Whether the output keeps alpha (outputs/target.ts): mov's ProRes 4444. */
  alpha?: boolean;
  /**
   * A still: the graph's one frame (its window, compile.ts RenderWindow) is written as a picture. A still's or a
   * preview's graph holds only its frames: nothing before them is composed, nothing is seeked past here.
   */
  still?: boolean;
  /** A preview's encoder settings (quicker, coarser). */
  fast?: boolean;
  fps: number;
  /** Seconds the output holds: the timeline's, or its window's (a preview's range). */
  duration: number;
  outPath: string;
}

/** How much of the graph's output the file keeps: `-t` its length. */
export const timingArgs = (job: Pick<OutputJob, "duration">): string[] =>
  // Seconds as ffmpeg's time syntax reads them: no exponent (2e-7 is not a time to it), microseconds at most.
  ["-t", ffNumber(Math.max(0, job.duration))];

/** The picture nobody keeps (an audio-only render's, a GIF's sound) goes to ffmpeg's null muxer. */
const discard = (label: string): string[] => ["-map", `[${label}]`, "-f", "null", "-"];

/** The main output's maps, encoders, muxer and path: the graph's `[vout]` and `[aout]` as the format keeps them. */
export const formatArgs = (job: OutputJob): string[] => {
  const entry = OUTPUT_FORMATS[job.format];
  const settings = encoderOf(job.format, job.alpha);
  if (!settings) throw new Error(`the renderer writes no ${job.format}`);
  const fast = job.fast ?? false;
  const timing = ["-r", String(job.fps), ...timingArgs(job)];
  switch (entry.kind) {
    case "audio":
      return [
        ...["-map", "[aout]", ...audioAndContainerArgs(settings), "-f", entry.muxer],
        ...["-t", ffNumber(job.duration), job.outPath, ...discard("vout")],
      ];
    case "image":
      // The graph of a still draws its one frame (and no sound): it is written as it is.
      return [
        ...["-map", "[vout]", "-frames:v", "1", ...videoCodecArgs(settings, fast)],
        ...["-f", entry.muxer, "-update", "1", job.outPath],
      ];
    case "animated image": {
      // The frames go to the intermediate; its finishing step (gif.ts) writes the file.
      const muxer = settings.intermediate?.muxer ?? entry.muxer;
      return [
        ...["-map", "[vout]", ...videoCodecArgs(settings, fast), ...timing, "-f", muxer, job.outPath],
        ...discard("aout"),
      ];
    }
    case "video":
      return [
        ...["-map", "[vout]", "-map", "[aout]", ...videoCodecArgs(settings, fast)],
        ...[...audioAndContainerArgs(settings), ...timing, "-f", entry.muxer, job.outPath],
      ];
  }
};
