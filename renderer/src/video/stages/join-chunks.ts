/**
 * Parallel rendering's last stage (chunks.ts, docs/parallel-rendering.md): the job's chunks have drawn every frame
 * as video-only segments; the join mixes the whole timeline's audio once and muxes it with the segments, copied.
 */
import type { RenderFormat } from "@media-render/contract/config/outputs";
import type { Timeline } from "@media-render/contract/timeline";
import type { Identity } from "../../lib/run-as.ts";
import { joinSegments } from "../chunks.ts";
import { compileGraph } from "../compile.ts";
import { undrawnGl } from "../graph-context.ts";
import { overallPercent, type Stage } from "../progress.ts";
import type { VideoSpec } from "../types.ts";
import type { Probes } from "./inputs.ts";
import { timelineOf } from "./lay-out.ts";
import type { Stopwatch } from "./stopwatch.ts";

/**
 * Joins `segments` (local files, in order) into `outPath` with the audio of `spec` (after speech and ducking:
 * `mix` gives the spec whose audio is mixed, for the timeline); span `ffmpegMs`. Returns the timeline.
 */
export const joinChunks = async (
  spec: VideoSpec,
  { media, probed }: Probes,
  options: {
    jobId: string;
    workDir: string;
    ffmpegPath: string;
    segments: string[];
    /** The job's output format: the segments are joined into its container. */
    format: RenderFormat;
    outPath: string;
    mix: (timeline: Timeline) => VideoSpec;
    /** The job's planned timeline (the request's), if any. */
    planned?: Timeline;
    signal?: AbortSignal;
    onSpawn?: (pid: number) => void;
    user?: Identity | null;
    report: (percent: number, stage: Stage) => void;
    clock: Stopwatch;
  },
): Promise<Timeline> => {
  await probed;
  const timeline = timelineOf(spec, media, options.planned);
  options.report(overallPercent("encoding", 0), "encoding");
  options.clock.set("startMs", options.clock.total());
  const start = options.clock.now();
  const mixed = options.mix(timeline);
  await joinSegments({
    ffmpegPath: options.ffmpegPath,
    workDir: options.workDir,
    // Compiled without rasters or a WebGL page: only its audio chains are used.
    graph: compileGraph({
      spec: mixed,
      timeline,
      jobId: options.jobId,
      media,
      rasters: new Map(),
      glLayers: undrawnGl,
    }),
    segments: options.segments,
    format: options.format,
    duration: timeline.duration,
    outPath: options.outPath,
    signal: options.signal,
    onSpawn: options.onSpawn,
    user: options.user,
  });
  options.clock.record("ffmpegMs", start);
  return timeline;
};
