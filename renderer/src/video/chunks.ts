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
 * stream copy.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { run } from "../lib/process.ts";
import type { Identity } from "../lib/run-as.ts";
import { demuxerOfOutput } from "../probe/demuxers.ts";
import { encoderArgs, type FfmpegJob } from "./args.ts";
import { mixOnlyGraph } from "./captions/audio-pass.ts";
import type { CompiledGraph, RenderWindow } from "./compile.ts";
import { fetchInputs } from "./fetch-inputs.ts";
import { f } from "./values.ts";

import type { ChunkPart } from "@media-render/contract/windows";

/** The video half of the job's encoder arguments (audio options and mp4 flags belong to the join). */
export const videoEncoderArgs = (format: FfmpegJob["format"], fast: boolean): string[] => {
  const all = encoderArgs(format, fast);
  const kept: string[] = [];
  for (let i = 0; i < all.length; i += 2)
    if (!/^-(c:a|b:a|movflags)$/.test(all[i]!)) kept.push(all[i]!, all[i + 1]!);
  return kept;
};

/** The segment's container: mp4 for the H.264 formats, webm for VP9. */
const segmentMuxer = (format: FfmpegJob["format"]) => (format === "webm" ? "webm" : "mp4");

/** The command line that renders a chunk's segment: `[vout]` of the window's graph, no sound. */
export const chunkArgs = (job: FfmpegJob, w: RenderWindow): string[] => [
  ...["-hide_banner", "-nostdin", "-y", "-loglevel", "error", "-nostats", "-progress", "pipe:2"],
  ...job.inputs.flat(),
  ...(job.filterThreads ? ["-filter_complex_threads", String(job.filterThreads)] : []),
  ...["-filter_complex_script", job.graphScript, "-map", "[vout]", "-an"],
  ...videoEncoderArgs(job.format, job.fast),
  ...["-r", String(job.fps), "-frames:v", String(w.end - w.start), "-f", segmentMuxer(job.format)],
  job.outPath,
];

export interface JoinJob {
  ffmpegPath: string;
  workDir: string;
  /** The job's graph compiled without rasters: only its audio chains are used. */
  graph: CompiledGraph;
  /** The chunks' segments, in order (local files). */
  segments: string[];
  format: FfmpegJob["format"];
  fast: boolean;
  /** The timeline's length in seconds. */
  duration: number;
  outPath: string;
  signal?: AbortSignal;
  onSpawn?: (pid: number) => void;
  user?: Identity | null;
}

/** Renders the audio mix of the whole timeline in one pass and muxes it with the concatenated segments. */
export const joinSegments = async (j: JoinJob): Promise<void> => {
  const list = join(j.workDir, "segments.txt");
  // The concat demuxer reads the list; paths are the renderer's own temp files, quoted for its syntax.
  await writeFile(list, j.segments.map((s) => `file '${s.replaceAll("'", "'\\''")}'\n`).join(""));
  const audio = mixOnlyGraph(j.graph);
  const script = join(j.workDir, "join-audio.txt");
  await writeFile(script, audio?.filterGraph ?? `anullsrc=r=48000:cl=stereo,atrim=0:${j.duration}[aout]`);
  const all = encoderArgs(j.format, j.fast);
  const audioArgs: string[] = [];
  for (let i = 0; i < all.length; i += 2)
    if (/^-(c:a|b:a|movflags)$/.test(all[i]!)) audioArgs.push(all[i]!, all[i + 1]!);
  const n = audio?.inputs.length ?? 0;
  await run(
    j.ffmpegPath,
    [
      ...["-hide_banner", "-nostdin", "-y", "-loglevel", "error", "-nostats"],
      ...(audio?.inputs.flat() ?? []),
      // The segments are other renderers' files: the list opens them from files only, as what a segment is.
      ...["-f", "concat", "-safe", "0", "-protocol_whitelist", "file"],
      ...["-format_whitelist", `concat,${demuxerOfOutput(segmentMuxer(j.format))}`, "-i", list],
      ...["-filter_complex_script", script, "-map", `${n}:v`, "-map", "[aout]", "-c:v", "copy"],
      ...audioArgs,
      ...["-t", f(j.duration), "-f", j.format === "mov" ? "mov" : j.format],
      j.outPath,
    ],
    { signal: j.signal, onSpawn: j.onSpawn, user: j.user, timeoutMs: 30 * 60_000 },
  );
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
