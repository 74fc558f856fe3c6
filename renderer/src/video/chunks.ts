/**
 * Parallel rendering (docs/parallel-rendering.md): a long video is split into chunks at frame boundaries, each
 * rendered on its own renderer as a video-only segment, then joined by one renderer without re-encoding while
 * the audio mix is made once for the whole timeline.
 *
 * A chunk renders the window of the job's timeline that is its frames (compile.ts RenderWindow: the same
 * timeline, the clips and layers it reaches, each drawn from its frame at the window's start, inputs seeked, html
 * captured from there), so a chunk costs its own frames and every frame of it is the frame of the single render,
 * whatever spans its boundaries. Each segment is its own closed GOP sequence (x264 starts it with an IDR frame and
 * never references across it, `open_gop` off), encoded with the job's encoder settings, so the join is a concat by
 * stream copy. Which formats split is the contract's output-formats.ts (`splittable`); a segment's container is its
 * encoder's (outputs/encoders.ts `segmentMuxer`).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { run } from "../lib/process.ts";
import type { Identity } from "../lib/run-as.ts";
import { OUTPUT_FORMATS } from "@media-render/contract/output-formats";
import { demuxerOfMuxer } from "../probe/demuxers.ts";
import type { FfmpegJob } from "./args.ts";
import { mixOnlyGraph } from "./captions/audio-pass.ts";
import type { CompiledGraph, RenderWindow } from "./compile.ts";
import { fetchInputs } from "./fetch-inputs.ts";
import {
  audioAndContainerArgs,
  encoderOf,
  videoCodecArgs,
  type EncoderSettings,
} from "./outputs/encoders.ts";
import { ffNumber } from "./values.ts";

import type { ChunkPart } from "@media-render/contract/windows";

/** The encoder settings of a format's segments; a format whose video is not joined from segments throws. */
const segmentEncoder = (format: FfmpegJob["format"]): EncoderSettings & { segmentMuxer: string } => {
  const settings = encoderOf(format);
  if (!settings?.segmentMuxer) throw new Error(`a ${format} output is not rendered as chunks`);
  return settings as EncoderSettings & { segmentMuxer: string };
};

/** The video half of the job's encoder arguments (audio options and mp4 flags belong to the join). */
export const videoEncoderArgs = (format: FfmpegJob["format"], fast: boolean): string[] =>
  videoCodecArgs(segmentEncoder(format), fast);

/** The command line that renders a chunk's segment: `[vout]` of the window's graph, no sound. */
export const chunkArgs = (job: FfmpegJob, w: RenderWindow): string[] => [
  ...["-hide_banner", "-nostdin", "-y", "-loglevel", "error", "-nostats", "-progress", "pipe:2"],
  ...job.inputs.flat(),
  ...(job.filterThreads ? ["-filter_complex_threads", String(job.filterThreads)] : []),
  ...["-filter_complex_script", job.graphScript, "-map", "[vout]", "-an"],
  ...videoEncoderArgs(job.format, job.fast),
  ...["-r", String(job.fps), "-frames:v", String(w.end - w.start)],
  ...["-f", segmentEncoder(job.format).segmentMuxer, job.outPath],
];

export interface JoinJob {
  ffmpegPath: string;
  workDir: string;
  /** The job's graph compiled without rasters: only its audio chains are used. */
  graph: CompiledGraph;
  /** The chunks' segments, in order (local files). */
  segments: string[];
  /** The job's output format (the request's, not the canvas the spec composes on). */
  format: FfmpegJob["format"];
  /** The timeline's length in seconds. */
  duration: number;
  outPath: string;
  signal?: AbortSignal;
  onSpawn?: (pid: number) => void;
  user?: Identity | null;
}

/**
 * The join's command line (pure): the mix's inputs, then the segments' list (`list`) read by the concat demuxer, the
 * mix's graph (`script`, its `[aout]`) and the segments' video copied, muxed as the job's format.
 */
export const joinArgs = (
  j: Pick<JoinJob, "format" | "duration" | "outPath">,
  list: string,
  script: string,
  audioInputs: string[][] = [],
): string[] => {
  const settings = segmentEncoder(j.format);
  return [
    ...["-hide_banner", "-nostdin", "-y", "-loglevel", "error", "-nostats"],
    ...audioInputs.flat(),
    // The segments are other renderers' files: the list opens them from files only, as what a segment is.
    ...["-f", "concat", "-safe", "0", "-protocol_whitelist", "file"],
    ...["-format_whitelist", `concat,${demuxerOfMuxer(settings.segmentMuxer)}`, "-i", list],
    ...["-filter_complex_script", script, "-map", `${audioInputs.length}:v`],
    ...["-map", "[aout]", "-c:v", "copy", ...audioAndContainerArgs(settings)],
    ...["-t", ffNumber(j.duration), "-f", OUTPUT_FORMATS[j.format].muxer, j.outPath],
  ];
};

/** Renders the audio mix of the whole timeline in one pass and muxes it with the concatenated segments. */
export const joinSegments = async (j: JoinJob): Promise<void> => {
  const list = join(j.workDir, "segments.txt");
  // The concat demuxer reads the list; paths are the renderer's own temp files, quoted for its syntax.
  await writeFile(list, j.segments.map((s) => `file '${s.replaceAll("'", "'\\''")}'\n`).join(""));
  const audio = mixOnlyGraph(j.graph);
  const script = join(j.workDir, "join-audio.txt");
  await writeFile(script, audio?.filterGraph ?? `anullsrc=r=48000:cl=stereo,atrim=0:${j.duration}[aout]`);
  await run(j.ffmpegPath, joinArgs(j, list, script, audio?.inputs), {
    signal: j.signal,
    onSpawn: j.onSpawn,
    user: j.user,
    timeoutMs: 30 * 60_000,
  });
};

/** Downloads the join's segments (signed URLs, in order) into `workDir/segments`; their local paths, in order. */
export const fetchSegments = async (
  urls: readonly string[],
  workDir: string,
  signal?: AbortSignal,
): Promise<string[]> => {
  const dir = join(workDir, "segments");
  await mkdir(dir);
  const names = urls.map((_, i) => `segment${i}.mp4`);
  const local = await fetchInputs(names, dir, {
    inputs: Object.fromEntries(names.map((n, i) => [n, urls[i]!])),
    signal,
  });
  return names.map((n) => local.get(n)!);
};

/** The render queue's id of a request: the job's, or one per chunk, so chunks of one job on one renderer coexist. */
export const queueId = (jobId: string, chunk?: number): string =>
  chunk === undefined ? jobId : `${jobId}#chunk${chunk}`;

/**
 * Cancels a job's renders held by `queue`: one chunk (`chunk`), or the job itself and, without `attempt`, every
 * chunk of it too (the Worker's cancel reaches them all). Whether any was found.
 */
export const cancelRenders = (
  queue: { held(): { id: string }[]; cancel(id: string, attempt?: number): boolean },
  jobId: string,
  attempt?: number,
  chunk?: number,
): boolean => {
  if (chunk !== undefined) return queue.cancel(queueId(jobId, chunk), attempt);
  let found = queue.cancel(jobId, attempt);
  if (attempt === undefined)
    for (const { id } of queue.held()) if (id.startsWith(`${jobId}#chunk`)) found = queue.cancel(id) || found;
  return found;
};

/** A join's progress as the job's: the chunks took the job to JOIN_FROM_PERCENT, the join does the rest. */
export const JOIN_FROM_PERCENT = 90;
export const joinPercent = (job: { join?: unknown }, percent: number): number =>
  job.join ? JOIN_FROM_PERCENT + (percent * (100 - JOIN_FROM_PERCENT)) / 100 : percent;

/** What the "video rendered" log line says about a chunk or a join. */
export const chunkLogFields = (job: {
  chunk?: ChunkPart;
  join?: { segments: string[] };
}): Record<string, unknown> => ({
  ...(job.chunk && { chunk: job.chunk.index, chunks: job.chunk.count }),
  ...(job.join && { join: job.join.segments.length }),
});
