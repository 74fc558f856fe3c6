/**
 * Renders one video job end to end, as a sequence of stages (`stages/`): plan the spec → download the inputs
 * (browsers warm meanwhile) → synthesise speech → probe the media (in the background) → captions (a captions
 * file, the speech's words, or the mix transcribed) → lay out the timeline and rasterise text and html → duck the
 * music under the speech → compile the graphs → encode with ffmpeg. Reports progress through `onProgress`
 * (percent + stage); each stage records its span on the job's stopwatch (`timings`). Parallel rendering
 * (chunks.ts): a chunk encodes only its window of the frames; a join draws nothing and joins the chunks' segments
 * with the audio mixed once (`stages/join-chunks.ts`).
 */
import { join } from "node:path";
import { DEFAULT_RENDER_TOOLS, type RenderTools } from "./render-tools.ts";
import type { Identity } from "../lib/run-as.ts";
import { espeakSynthesizer } from "../speech/espeak.ts";
import type { Synthesizer } from "../speech/types.ts";
import { pocketsphinxTranscriber } from "../transcribe/pocketsphinx.ts";
import type { Transcriber } from "../transcribe/types.ts";
import type { VideoConfig } from "@media-render/contract/config/video";
import type { Timeline } from "@media-render/contract/timeline";
import { renderedSeconds, type RenderFormat } from "@media-render/contract/config/outputs";
import { timeReveals, type Captions } from "./captions/captions.ts";
import { ownedParts } from "./captions/parts.ts";
import type { WordsFile } from "./captions/words-file.ts";
import type { FetchInputs } from "./chunk-inputs.ts";
import { composedRange, type ChunkPart } from "@media-render/contract/windows";
import type { HostedFonts } from "@media-render/contract/wire";
import type { RenderWindow } from "./compile.ts";
import { applyFastMode, videoSpec, withJobFonts } from "./spec.ts";
import { withDucking } from "./ducking.ts";
import { outputTarget, renderWindow, shapeSpec } from "./outputs/target.ts";
import type { Stage } from "./progress.ts";
import { prepareSparePage } from "./raster/browser.ts";
import { rasterizeAll } from "./raster/rasterize.ts";
import { compileGraph } from "./compile.ts";
import { undrawnGl } from "./graph-context.ts";
import { compilePasses, encode } from "./stages/encode.ts";
import { withWindowMix } from "./window-mix.ts";
import { downloadInputs, startProbes, synthesize, warmBrowsers } from "./stages/inputs.ts";
import { joinChunks } from "./stages/join-chunks.ts";
import { glDrawerFor, layOut, transcribeCaptions, usedTextPage, type Rasterize } from "./stages/lay-out.ts";
import { stopwatch, type RenderTimings } from "./stages/stopwatch.ts";

export type { Rasterize, RenderTimings };

export interface RenderVideoOptions {
  jobId: string;
  /** The job's config in the grammar's normal form (the request's, as the Worker stored it at creation). */
  config: VideoConfig;
  /**
   * The job's planned timeline (the request's: built once by the Worker at creation). Absent: built here from the
   * probed files. Used when it is at the rate the render draws (not a GIF's or a fast preview's lower one).
   */
  timeline?: Timeline;
  /** Reference in the config -> signed URL to download it from (the request's `inputs`). */
  inputs?: Readonly<Record<string, string>>;
  /** The hosted catalogue fonts the config names (the request's `fonts`), their faces among `inputs`. */
  fonts?: HostedFonts;
  /** The request's output format (wins over the config's `format`; png/jpeg for a still). */
  format?: RenderFormat;
  workDir: string;
  outPath: string;
  /** References starting with `/` that `inputs` lacks are local files (tests and the benchmark only). */
  allowLocalFiles?: boolean;
  /** The binaries to launch and the html capture settings (the server passes its Config). */
  tools?: RenderTools;
  rasterize?: Rasterize;
  /** autoSubtitles' speech recogniser (default: the offline pocketsphinx backend at `tools.pocketsphinxPath`). */
  transcriber?: Transcriber;
  /** The voice of `speech` layers (default: the offline espeak-ng at `tools.espeakPath`). */
  synthesizer?: Synthesizer;
  onProgress?: (percent: number, stage: Stage) => void;
  signal?: AbortSignal;
  /** Told the pid of every ffmpeg run and GL helper of the render (run-job.ts counts their memory). */
  onSpawn?: (pid: number) => void;
  /**
   * The job's tool user (lib/tool-users.ts, its `workDir` given to it): every program of the render but Chromium
   * runs as it. Absent: the renderer's own credentials (tests and the benchmark, with their own folders).
   */
  user?: Identity | null;
  /** Parallel rendering (chunks.ts): render only this chunk's frames, as a video-only segment at `outPath`. */
  chunk?: ChunkPart;
  /**
   * Render only these frames of the timeline, as a video-only segment like a chunk's (tests and benchmarks cut a
   * timeline where they please; a job's chunks are `chunk`).
   */
  segment?: RenderWindow;
  /** Parallel rendering: join these segments (local files, in order) with the whole timeline's audio mix. */
  joinSegments?: string[];
  /** Parallel rendering, autoSubtitles: the chunks' words files, in order, merged into the join's captions. */
  joinWords?: WordsFile[];
  /** Downloads the inputs (default fetchInputs; a split job's chunks share theirs: chunk-inputs.ts). */
  fetchInputs?: FetchInputs;
}

export interface RenderVideoResult {
  outPath: string;
  width: number;
  height: number;
  fps: number;
  duration: number;
  transitions: string[];
  /** autoSubtitles' transcript and cues (a chunk's: those it draws); null when the config did not ask for captions. */
  captions: Captions | null;
  /** A chunk (or segment) of an autoSubtitles job: its words file, the transcription parts it owns (words-file.ts). */
  words?: WordsFile;
  timings: RenderTimings;
}

/** Renders the job; throws (ProcessError or Error) with a human-readable message on failure. */
export const renderVideo = async (options: RenderVideoOptions): Promise<RenderVideoResult> => {
  const report = options.onProgress ?? (() => {});
  const tools = options.tools ?? DEFAULT_RENDER_TOOLS;
  const clock = stopwatch();
  const { jobId, workDir, signal } = options;
  const user = options.user ?? null;
  // The output decides the canvas (alpha or not) and the spec's shape (a GIF's caps, audio only): outputs/.
  const target = outputTarget(options.config, options.format);
  const planned = withJobFonts(
    shapeSpec(applyFastMode(videoSpec(options.config, target.canvas)), target),
    options.fonts,
  );
  report(0, "downloading");
  if (!options.rasterize && !options.joinSegments) warmBrowsers(planned, tools);
  const downloaded = await downloadInputs(planned, { ...options, report, clock });
  const spoken = await synthesize(downloaded, {
    ...{ workDir, signal },
    synthesizer: options.synthesizer ?? espeakSynthesizer(tools.espeakPath, user),
  });
  const probes = startProbes(spoken, { ffprobePath: tools.ffprobePath, signal, user, clock });
  // A chunk transcribes the parts of the mix its frames reach; the join merges the chunks' (captions/parts.ts).
  const windowOf = (timeline: Timeline) =>
    options.segment ??
    renderWindow(target, timeline, options.chunk && { part: options.chunk, config: options.config });
  const split = options.chunk !== undefined || options.segment !== undefined;
  const { spec, captions, captionKeys, parts } = await transcribeCaptions(spoken.spec, probes, {
    ...{ jobId, workDir, ffmpegPath: tools.ffmpegPath, signal, user, report, clock },
    transcriber: options.transcriber ?? pocketsphinxTranscriber(tools.pocketsphinxPath, user),
    utterances: spoken.utterances,
    planned: options.timeline,
    range: split ? (timeline) => composedRange(timeline, windowOf(timeline)) : undefined,
    chunkWords: options.joinWords,
  });
  if (options.joinSegments) {
    const { duration } = await joinChunks(spec, probes, {
      ...{
        jobId,
        workDir,
        ffmpegPath: tools.ffmpegPath,
        segments: options.joinSegments,
        outPath: options.outPath,
      },
      // The output's own container: the spec's format is the canvas, mp4 for every format split into chunks.
      format: target.format,
      ...{ signal, onSpawn: options.onSpawn, user, report, clock },
      mix: (timeline) => withDucking(spec, options.config.ducking, spoken.utterances, timeline),
      planned: options.timeline,
    });
    const { width, height, fps } = spec;
    const timings = clock.timings();
    return { outPath: options.outPath, width, height, fps, duration, transitions: [], captions, timings };
  }
  // Under a tool user the helpers keep their compiled shaders in the job's folder (native-gl.ts).
  const drawer = glDrawerFor(spec, tools, {
    onSpawn: options.onSpawn,
    user,
    cacheDir: user ? join(workDir, "gl-cache") : undefined,
  });
  let laidOut;
  let graph;
  try {
    laidOut = await layOut(spec, probes, {
      ...{ jobId, workDir, drawer, warmGl: !options.rasterize, planned: options.timeline, report, clock },
      rasterize:
        options.rasterize ?? ((s, layers, dir, how) => rasterizeAll(s, layers, dir, tools, signal, how)),
      // A chunk, a still or a preview draws a window of the timeline, at the cost of its own frames.
      window: windowOf,
    });
    const { timeline, rasters, window } = laidOut;
    if (captions) timeReveals(rasters.assets, captionKeys, captions.cues, spec);
    // Music ducks under the speech, whose times the timeline fixes (ducking.ts).
    const ducked = withDucking(spec, options.config.ducking, spoken.utterances, timeline);
    const input = {
      spec: ducked,
      timeline,
      jobId,
      media: probes.media,
      rasters: rasters.assets,
      glLayers: drawer,
      window,
    };
    const passes = compilePasses(input, drawer, clock);
    // A preview's range keeps its sound: the whole mix, cut to the window (window-mix.ts).
    const whole = () =>
      compileGraph({ ...input, window: undefined, rasters: new Map(), glLayers: undrawnGl });
    const render =
      window && !options.chunk && !options.segment && target.stillTime === undefined
        ? withWindowMix(passes.render, whole(), window, spec.fps)
        : passes.render;
    graph = await encode(
      { ...passes, render },
      {
        ...{ spec, timeline, target, stdin: rasters.stdin, ffmpegPath: tools.ffmpegPath, workDir, window },
        ...{
          outPath: options.outPath,
          segment: !!(options.chunk ?? options.segment),
          signal,
          onSpawn: options.onSpawn,
          user,
          report,
          clock,
        },
      },
    );
  } finally {
    // gl layers draw during the render itself: the page closes once ffmpeg is done.
    await drawer.close();
  }
  // A text page for the next job is opened once this one's ffmpeg is done with the cores.
  if (usedTextPage(spec) && !options.rasterize) prepareSparePage(tools);
  const { width, height, fps } = spec;
  // What the file holds: a preview's range of the timeline.
  const duration = renderedSeconds(options.config, laidOut.timeline.duration);
  // A chunk's words file: the parts that start in its window (each part is one chunk's), for the join.
  const words =
    split && options.config.autoSubtitles && laidOut.window
      ? { backend: captions?.backend ?? null, parts: ownedParts(parts, laidOut.window, fps) }
      : undefined;
  return {
    ...{ outPath: options.outPath, width, height, fps, duration, transitions: graph.transitions, captions },
    ...(words && { words }),
    timings: clock.timings(),
  };
};
