/**
 * ffmpeg argument builders (pure). The encoder settings are outputs/encoders.ts's, so the benchmark's baseline
 * encode uses exactly the settings of a real render.
 */

import { formatArgs } from "./outputs/encode.ts";
import { audioAndContainerArgs, encoderOf, videoCodecArgs } from "./outputs/encoders.ts";
import type { RenderFormat } from "@media-render/contract/config/outputs";

/** The grammar's output formats (a still's png/jpeg included). */
export type OutputFormat = RenderFormat;

/** The encoder arguments of a format (its picture's, then its sound's and the muxer's flags); `fast` = preview quality. */
export const encoderArgs = (format: OutputFormat, fast: boolean): string[] => {
  const settings = encoderOf(format);
  if (!settings) throw new Error(`the renderer writes no ${format}`);
  return [...videoCodecArgs(settings, fast), ...audioAndContainerArgs(settings)];
};

/**
 * ffmpeg's `-filter_complex_threads` for a graph: per-pixel expression filters (custom xfade
 * transitions, rainbow gradients) need slice threads; every other graph runs faster on one filter
 * thread, which leaves the cores to the encoder (bench/video.ts: ~6 % less wall time at 720p).
 * 0 keeps ffmpeg's default (one thread per core).
 */
export const filterThreadsFor = (graph: string): number => {
  return /xfade=transition=custom|gradients=/.test(graph) ? 0 : 1;
};

export interface FfmpegJob {
  inputs: string[][];
  /** Path of a file holding the filter graph (`-filter_complex_script`; graphs can exceed argv limits). */
  graphScript: string;
  /** `-filter_complex_threads` (see filterThreadsFor); 0 or absent = ffmpeg's default. */
  filterThreads?: number;
  format: OutputFormat;
  /** Whether the output keeps alpha (outputs/target.ts): mov's `alpha: true` is ProRes 4444 (outputs/encoders.ts). */
  alpha?: boolean;
  /** A still: the graph's one frame written as a picture (outputs/encode.ts). */
  still?: boolean;
  fast: boolean;
  fps: number;
  /** Seconds. */
  duration: number;
  outPath: string;
  /** Extra outputs after the main one: a graph label, its output options, its path (a pipe). */
  outputs?: { label: string; args: string[]; pipe: string }[];
}

/** The complete ffmpeg command line for a compiled job; progress goes to stderr as key=value lines. */
export const ffmpegArgs = (job: FfmpegJob): string[] => {
  return [
    ...["-hide_banner", "-nostdin", "-y", "-loglevel", "error", "-nostats", "-progress", "pipe:2"],
    ...job.inputs.flat(),
    ...(job.filterThreads ? ["-filter_complex_threads", String(job.filterThreads)] : []),
    ...["-filter_complex_script", job.graphScript],
    // The main output, as its format keeps the graph's picture and sound: outputs/encode.ts.
    ...formatArgs(job),
    ...(job.outputs ?? []).flatMap((o) => ["-map", `[${o.label}]`, ...o.args, o.pipe]),
  ];
};

/**
 * The command line of a pass that writes only extra outputs (the transition taps, gl/drawn-transitions.ts): the
 * same inputs and graph, no main output; ffmpeg stops once every extra output has ended.
 */
export const extraOutputsArgs = (job: Pick<FfmpegJob, "inputs" | "graphScript" | "outputs">): string[] => {
  return [
    ...["-hide_banner", "-nostdin", "-y", "-loglevel", "error", "-nostats"],
    ...job.inputs.flat(),
    ...["-filter_complex_threads", "1", "-filter_complex_script", job.graphScript],
    ...(job.outputs ?? []).flatMap((o) => ["-map", `[${o.label}]`, ...o.args, o.pipe]),
  ];
};
