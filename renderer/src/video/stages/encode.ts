/**
 * The last stages: the graphs of the render's ffmpeg runs are compiled, then run. Transitions other than the
 * exact ffmpeg twins are drawn by their GLSL (gl/): a second ffmpeg run, alongside the render, writes their
 * frame pairs (one taps graph per transition, run one after the other); the drawer draws them and the render
 * reads the drawn frames through a pipe (drawn-transitions.ts). Jobs whose html layers stream frames keep the xfade
 * drawings (a stream cannot be captured twice).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Timeline } from "@media-render/contract/timeline";
import { cpuTimes } from "../../lib/cpu-time.ts";
import { run } from "../../lib/process.ts";
import type { Identity } from "../../lib/run-as.ts";
import { extraOutputsArgs, ffmpegArgs, filterThreadsFor } from "../args.ts";
import { chunkArgs } from "../chunks.ts";
import {
  compileGraph,
  pipesLast,
  type CompiledGraph,
  type GraphInput,
  type RenderWindow,
} from "../compile.ts";
import type { GlDrawer } from "../gl/gl-drawer.ts";
import { encoderOf } from "../outputs/encoders.ts";
import { finishGif, gifIntermediate } from "../outputs/gif.ts";
import type { OutputTarget } from "../outputs/target.ts";
import { overallPercent, ProgressReader, type Stage } from "../progress.ts";
import type { VideoSpec } from "../types.ts";
import type { Stopwatch } from "./stopwatch.ts";

/** The graphs of a render: the taps runs' (none when no transition is drawn) and the render's own. */
export interface Passes {
  taps: CompiledGraph[];
  render: CompiledGraph;
}

/** Compiles the render's graphs (span `graphMs`: the plain graph and the taps, before the splice graph). */
export const compilePasses = (input: GraphInput, drawer: GlDrawer, clock: Stopwatch): Passes => {
  const start = clock.now();
  const plain = compileGraph(input);
  const taps =
    plain.oneShotPipes === 0
      ? input.timeline.clips
          .map((_, c) => compileGraph(input, { kind: "taps", drawer, tapping: c }))
          .filter((g) => (g.outputs ?? []).length > 0)
      : [];
  clock.record("graphMs", start);
  return { taps, render: taps.length > 0 ? compileGraph(input, { kind: "splice", drawer }) : plain };
};

/**
 * Waits for the render and its taps; rejects with the first failure in time (a run stopped by the other's failure
 * only reports "aborted"). `tapsMayFail`: a window's render may end before its taps are done (their pairs of a
 * transition's pre- or post-roll nobody reads any more): then only the render's own outcome counts.
 */
const settle = async (
  render: Promise<unknown>,
  taps: Promise<unknown>,
  tapsMayFail: boolean,
): Promise<void> => {
  let order = 0;
  const stamp = (running: Promise<unknown>) =>
    running.then(
      () => null,
      (reason: unknown) => ({ reason, order: order++ }),
    );
  const [renderFailed, tapsFailed] = await Promise.all([stamp(render), stamp(taps)]);
  if (!renderFailed && (tapsMayFail || !tapsFailed)) return;
  const first = [renderFailed, tapsFailed]
    .filter((f): f is { reason: unknown; order: number } => f !== null)
    .sort((a, b) => a.order - b.order)[0]!;
  throw first.reason;
};

/** What the ffmpeg runs need besides their graphs. */
export interface EncodeOptions {
  spec: VideoSpec;
  timeline: Timeline;
  /** What the render writes (outputs/target.ts): its format, alpha, a still's time, a preview's range. */
  target: OutputTarget;
  /** The text sheet's first page (ffmpeg's stdin), or null. */
  stdin: Promise<Uint8Array> | null;
  ffmpegPath: string;
  workDir: string;
  /** The file the job delivers (a GIF is encoded to an intermediate first, then finished into it). */
  outPath: string;
  /** The frames the graphs draw (a chunk's, a still's, a preview's: compile.ts RenderWindow); none: all. */
  window?: RenderWindow;
  /** Parallel rendering (chunks.ts): the window is a chunk, encoded as a video-only segment at `outPath`. */
  segment?: boolean;
  signal?: AbortSignal;
  onSpawn?: (pid: number) => void;
  /** The job's tool user (render.ts). */
  user?: Identity | null;
  report: (percent: number, stage: Stage) => void;
  clock: Stopwatch;
}

/**
 * Runs the taps (one after the other) beside the render, which writes `outPath` (spans `tapsMs`, `startMs`,
 * `ffmpegMs` and the CPU times); either run failing stops the other (the render would wait for frames the
 * taps never write), and the first failure is the job's. A chunk's render keeps only its window of the frames
 * (chunks.ts) and ends at its last frame, which stops the taps. A GIF is finished from the render's frames (one
 * palette, outputs/gif.ts) inside `ffmpegMs`. Returns the render's graph as run.
 */
export const encode = async ({ taps, render }: Passes, options: EncodeOptions): Promise<CompiledGraph> => {
  const { clock, target } = options;
  const both = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, both.signal]) : both.signal;
  let tapsRun: Promise<unknown> = Promise.resolve();
  if (taps.length > 0) {
    const tapsStart = clock.now();
    tapsRun = (async () => {
      for (const [i, g] of taps.entries()) {
        const ordered = pipesLast(g);
        const script = join(options.workDir, `taps${i}.txt`);
        await writeFile(script, ordered.filterGraph);
        await run(options.ffmpegPath, extraOutputsArgs({ ...ordered, graphScript: script }), {
          stdin: options.stdin ?? undefined,
          pipes: ordered.pipes,
          signal,
          onSpawn: options.onSpawn,
          user: options.user,
          timeoutMs: 10 * 60_000,
          // A taps run ends once its transition's pairs are out, while a gl layer of a clip beside it may still be
          // writing frames past them: its exit status says whether it had every frame it needed.
          pipesMayClose: true,
        });
      }
      // Beside the render: how long the frame pairs took, not time before ffmpeg starts.
      clock.record("tapsMs", tapsStart);
    })();
    tapsRun.catch(() => both.abort());
  }
  // Inputs fed through pipes go last: ffmpeg opens inputs in order, so it loads and probes every file
  // while the text sheet's screenshot is still being taken and the first html frame drawn.
  const graph = pipesLast(render);
  const graphScript = join(options.workDir, "graph.txt");
  // A window's graph holds only its frames (a chunk's, a still's, a preview's): it is encoded as it is.
  const window = options.window;
  // An animated image is written as a lossless intermediate first, then finished (a GIF's palette: gif.ts).
  const intermediate = encoderOf(target.format)?.intermediate;
  await writeFile(graphScript, graph.filterGraph);
  const job = {
    inputs: graph.inputs,
    graphScript,
    filterThreads: filterThreadsFor(graph.filterGraph),
    format: target.format,
    alpha: target.alpha,
    still: target.stillTime !== undefined,
    fast: options.spec.fast,
    fps: options.spec.fps,
    duration: window ? (window.end - window.start) / options.spec.fps : options.timeline.duration,
    outPath: intermediate ? gifIntermediate(options.workDir) : options.outPath,
  };
  const args = options.segment && window ? chunkArgs(job, window) : ffmpegArgs(job);
  const encodeSeconds = job.duration;
  const reader = new ProgressReader();
  options.report(overallPercent("encoding", 0), "encoding");
  clock.set("startMs", clock.total());
  const start = clock.now();
  const cpu0 = cpuTimes();
  const rendering = run(options.ffmpegPath, args, {
    stdin: options.stdin ?? undefined,
    pipes: graph.pipes,
    signal,
    onSpawn: options.onSpawn,
    user: options.user,
    timeoutMs: 30 * 60_000,
    // ffmpeg may stop reading a pipe before its writer is done: a still's or a chunk's render stops at its last
    // frame, a `trim` stops reading a layer whose frames past it are not shown (a clip's tail under a drawn
    // transition). Its exit status says whether it had every frame it needed.
    pipesMayClose: true,
    onStderr: (chunk) => {
      const at = reader.push(chunk);
      if (at !== null) options.report(overallPercent("encoding", at / encodeSeconds), "encoding");
    },
  });
  rendering.catch(() => both.abort());
  // A window's ffmpeg ends at its last frame, which may come before the taps run has written every pair of a
  // transition it composes but no longer shows (its pre- or post-roll): the taps are stopped then.
  if (window)
    void rendering.then(
      () => both.abort(),
      () => {},
    );
  await settle(rendering, tapsRun, window !== undefined);
  if (intermediate?.finish === "palette")
    await finishGif(target, options.outPath, {
      ffmpegPath: options.ffmpegPath,
      workDir: options.workDir,
      signal,
      onSpawn: options.onSpawn,
      user: options.user,
    });
  clock.record("ffmpegMs", start);
  const cpu1 = cpuTimes();
  if (cpu0 && cpu1) {
    clock.set("ffmpegCpuMs", cpu1.childrenMs - cpu0.childrenMs);
    clock.set("nodeCpuMs", cpu1.selfMs - cpu0.selfMs);
  }
  return graph;
};
