/**
 * Renders one video job end to end: fetch inputs → probe → rasterise text/html → compile the
 * filter graph → one ffmpeg run. Reports progress through `onProgress` (percent + stage).
 */
import { readFile, writeFile } from "node:fs/promises";
import { GL_SHADER_MAX_BYTES } from "@media-render/contract/config/video-layers";
import { join } from "node:path";
import { DEFAULT_RENDER_TOOLS, type RenderTools } from "../config.ts";
import { cpuTimes } from "../lib/cpu-time.ts";
import { run } from "../lib/process.ts";
import { extraOutputsArgs, ffmpegArgs, filterThreadsFor } from "./args.ts";
import { compileGraph, layerWindow, pipesLast } from "./compile.ts";
import { applyFastMode, videoSpec } from "./config.ts";
import { fetchInputs, fileRefs, rewriteRefs } from "./fetch-inputs.ts";
import { isRaster, keyedLayers, type KeyedLayer } from "./layers/index.ts";
import type { VideoConfig } from "@media-render/contract/config/video";
import { buildTimeline, playableLength, type Timeline } from "@media-render/contract/timeline";
import { toMediaInfo } from "../probe/media-facts.ts";
import { probeMedia } from "../probe/probe-media.ts";
import { GlDrawer } from "./gl/gl-drawer.ts";
import { drawnByGl, resolveTransition } from "./transitions.ts";
import { GlSession } from "./gl/gl-session.ts";
import { getCaptureBrowser, prepareSparePage } from "./raster/browser.ts";
import { rasterizeAll } from "./raster/rasterize.ts";
import { overallPercent, ProgressReader, type Stage } from "./progress.ts";
import { pocketsphinxTranscriber } from "../transcribe/pocketsphinx.ts";
import type { Transcriber } from "../transcribe/types.ts";
import { timeReveals, transcribeMix, withCaptionLayers, type Captions } from "./captions/captions.ts";
import { renderedSeconds, type RenderFormat } from "@media-render/contract/config/outputs";
import type { MediaInfo, Rasters, VideoSpec } from "./types.ts";
import { finishGif, gifIntermediate } from "./outputs/gif.ts";
import { outputTarget, shapeSpec } from "./outputs/target.ts";

export type Rasterize = (spec: VideoSpec, layers: KeyedLayer[], workDir: string) => Promise<Rasters>;

export interface RenderVideoOptions {
  jobId: string;
  /** The job's config as the contract's grammar parsed it (`VideoConfigSchema`). */
  config: VideoConfig;
  /** Reference in the config -> signed URL to download it from (the request's `inputs`). */
  inputs?: Readonly<Record<string, string>>;
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
  onProgress?: (percent: number, stage: Stage) => void;
  signal?: AbortSignal;
  /** Told the pid of every ffmpeg run and GL helper of the render (run-job.ts counts their memory). */
  onSpawn?: (pid: number) => void;
}

export interface RenderVideoResult {
  outPath: string;
  width: number;
  height: number;
  fps: number;
  duration: number;
  transitions: string[];
  /** autoSubtitles' transcript and cues; null when the config did not ask for captions. */
  captions: Captions | null;
  timings: RenderTimings;
}

/**
 * Where a render's time went, in ms. Stages overlap (probes run while text is drawn; an animated html layer
 * is captured while ffmpeg encodes), so each is its own span; `startMs` is the serial part before the
 * encoding ffmpeg starts. Decode, filter and encode run inside that one ffmpeg: its wall and CPU time are
 * reported here, bench/video.ts splits them by running the same graph without the encoder.
 */
export interface RenderTimings {
  totalMs: number;
  downloadMs: number;
  probeMs: number;
  transcribeMs?: number;
  /** Text sheet laid out and every html layer captured (or, when streamed, its capture set up). */
  rasterizeMs: number;
  /** From the start of rasterising until the text sheet's screenshot (ffmpeg's stdin) was taken. */
  sheetMs?: number;
  graphMs: number;
  /** The runs beside the render that write the frame pairs of transitions drawn by their GLSL (wall time). */
  tapsMs?: number;
  /** From the job's start until the encoding ffmpeg was launched. */
  startMs: number;
  /** The encoding ffmpeg run: wall time, its CPU time (user + system), the renderer's own CPU meanwhile. */
  ffmpegMs: number;
  ffmpegCpuMs?: number;
  nodeCpuMs?: number;
}

/** A stopwatch that records named spans of the job (ms since its start). */
function stopwatch() {
  const t0 = performance.now();
  const since = (t: number) => Math.round(performance.now() - t);
  return { now: () => performance.now(), since, total: () => since(t0) };
}

const FONT_EXT = /\.(ttf|otf|woff2?)$/i;

/** Starts the browsers a job will need while its inputs download (launching costs ~0.5 s each). */
function warmBrowsers(layers: KeyedLayer[], tools: RenderTools): void {
  const raster = layers.filter((k) => isRaster(k.layer));
  const html = raster.some((k) => k.layer.type === "html");
  if (raster.some((k) => k.layer.type !== "html") || (html && tools.htmlCapture === "screenshot"))
    prepareSparePage(tools);
  if (html && tools.htmlCapture === "beginframe")
    for (let slot = 0; slot < tools.htmlCaptureWorkers; slot++)
      void getCaptureBrowser(tools, slot).catch(() => {});
}

/**
 * The spec with each gl layer's downloaded `fragmentPath` read into `fragmentShader` (UTF-8 text within
 * the inline limit; anything else fails the job naming the field).
 */
async function withShaderText(spec: VideoSpec): Promise<VideoSpec> {
  const texts = new Map<string, string>();
  const read = async (path: string): Promise<string> => {
    const known = texts.get(path);
    if (known !== undefined) return known;
    const bytes = await readFile(path);
    if (bytes.length > GL_SHADER_MAX_BYTES)
      throw new Error(
        `gl layer fragmentPath: the shader file is larger than ${GL_SHADER_MAX_BYTES / 1024} KB`,
      );
    const text = new TextDecoder().decode(bytes);
    const control = bytes.some((b) => b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d);
    if (control || text.includes("\uFFFD"))
      throw new Error("gl layer fragmentPath: the file is not GLSL text");
    texts.set(path, text);
    return text;
  };
  const fix = async <L extends VideoSpec["globalLayers"][number]>(l: L): Promise<L> =>
    l.type === "gl" && l.fragmentPath !== undefined
      ? { ...l, fragmentShader: await read(l.fragmentPath) }
      : l;
  return {
    ...spec,
    clips: await Promise.all(
      spec.clips.map(async (c) => ({ ...c, layers: await Promise.all(c.layers.map(fix)) })),
    ),
    globalLayers: await Promise.all(spec.globalLayers.map(fix)),
  };
}

/** Waits for every promise; rejects with the first rejection in time, once all have settled. */
async function firstFailure(runs: Promise<unknown>[]): Promise<void> {
  let first: { reason: unknown } | null = null;
  await Promise.all(runs.map((p) => p.catch((reason: unknown) => void (first ??= { reason }))));
  if (first) throw (first as { reason: unknown }).reason;
}

/** Renders the job; throws (ProcessError or Error) with a human-readable message on failure. */
export async function renderVideo(o: RenderVideoOptions): Promise<RenderVideoResult> {
  const report = o.onProgress ?? (() => {});
  const tools = o.tools ?? DEFAULT_RENDER_TOOLS;
  const clock = stopwatch();
  const timings: Partial<RenderTimings> = {};
  // The output decides the canvas (alpha or not) and the spec's shape (a GIF's caps, audio only): outputs/.
  const target = outputTarget(o.config, o.format);
  const parsed = shapeSpec(applyFastMode(videoSpec(o.config, target.canvas)), target);
  report(0, "downloading");
  if (!o.rasterize) warmBrowsers(keyedLayers(parsed), tools);
  // Captions are text: the text page opens while the inputs download and the mix is transcribed.
  if (!o.rasterize && parsed.subtitles) prepareSparePage(tools);
  const refs = fileRefs(parsed);
  let t = clock.now();
  const local = await fetchInputs(refs, o.workDir, {
    inputs: o.inputs,
    allowLocalFiles: o.allowLocalFiles,
    signal: o.signal,
    onFile: (n) => report(overallPercent("downloading", n / Math.max(1, refs.length)), "downloading"),
  });
  timings.downloadMs = clock.since(t);
  let spec = await withShaderText(rewriteRefs(parsed, local));
  const media = new Map<string, MediaInfo>();
  const fontPaths = new Set(keyedLayers(spec).map((k) => ("fontPath" in k.layer ? k.layer.fontPath : null)));
  fontPaths.add(spec.subtitles?.style.fontPath ?? null);
  const shaderPaths = new Set(
    keyedLayers(spec).map((k) => ("fragmentPath" in k.layer ? k.layer.fragmentPath : null)),
  );
  const toProbe = [...new Set(local.values())].filter(
    (p) => !fontPaths.has(p) && !shaderPaths.has(p) && !FONT_EXT.test(p),
  );
  const probeStart = clock.now();
  const probing = Promise.all(
    toProbe.map(async (p) =>
      media.set(p, toMediaInfo(await probeMedia(p, { ffprobePath: tools.ffprobePath, signal: o.signal }))),
    ),
  ).then(() => void (timings.probeMs = clock.since(probeStart)));
  void probing.catch(() => {}); // awaited below; this only stops an early throw leaving it unhandled
  const timelineFor = () => {
    // The contract's timeline, at the spec's fps (a preview's, after fast mode); a clip without its own
    // duration lasts its first video layer's playable length in the probed file.
    const timeline = buildTimeline(spec, {
      fps: spec.fps,
      videoLength: (layer) => {
        const info = layer.path === undefined ? undefined : media.get(layer.path);
        return info ? playableLength(layer, info.duration) : null;
      },
    });
    if (timeline.totalFrames === 0) throw new Error("the video has no clips");
    return timeline;
  };
  // autoSubtitles: the mix needs every probed input, and the captions must exist before text is rasterised.
  let captions: Captions | null = null;
  let captionKeys: string[] = [];
  if (spec.subtitles) {
    await probing;
    report(overallPercent("transcribing", 0), "transcribing");
    t = clock.now();
    captions = await transcribeMix(spec, timelineFor(), media, {
      jobId: o.jobId,
      workDir: o.workDir,
      ffmpegPath: tools.ffmpegPath,
      transcriber: o.transcriber ?? pocketsphinxTranscriber(tools.pocketsphinxPath),
      signal: o.signal,
    });
    timings.transcribeMs = clock.since(t);
    if (captions.cues.length > 0) {
      ({ spec, keys: captionKeys } = withCaptionLayers(spec, captions.cues));
    }
  }
  const rasterKeys = keyedLayers(spec).filter((k) => isRaster(k.layer));
  const rasterize: Rasterize =
    o.rasterize ?? ((s, layers, dir) => rasterizeAll(s, layers, dir, tools, o.signal));
  const rasterizeFor = async (timeline: Timeline): Promise<Rasters> => {
    if (rasterKeys.length === 0) return { assets: new Map(), stdin: null };
    const layers = rasterKeys.map((k) => {
      const frames = k.clip < 0 ? timeline.totalFrames : timeline.clips[k.clip]!.frames;
      return { ...k, window: layerWindow(k.layer, frames, spec.fps)?.duration ?? 0 };
    });
    const start = clock.now();
    const rasters = await rasterize(spec, layers, o.workDir);
    timings.rasterizeMs = clock.since(start);
    void rasters.stdin?.then(
      () => void (timings.sheetMs = clock.since(start)),
      () => {},
    );
    return rasters;
  };
  // Only clips without a duration need probed video lengths; otherwise the timeline is known now and
  // the browser work (text, html capture) runs while the remaining probes (ffprobe) do.
  const needsMedia = spec.clips.some(
    (c) => c.duration === undefined && c.layers.some((l) => l.type === "video"),
  );
  let timeline: Timeline;
  let rasters: Rasters;
  const drawer = new GlDrawer(
    () => GlSession.open(tools, spec.width, spec.height),
    spec.width,
    spec.height,
    tools.glTransitionPath,
    o.onSpawn,
  );
  // The job's WebGL page (~0.4 s to open: a browser of its own, never one another job used), when a transition
  // is drawn on it or the job has a gl layer, opens while the text and html layers are drawn.
  const glLayer = [...spec.globalLayers, ...spec.clips.flatMap((c) => c.layers)].some((l) => l.type === "gl");
  const warmDrawer = (t: Timeline) => {
    const onPage =
      glLayer ||
      t.clips.some((c, i) => {
        if (!c.transition) return false;
        const { name } = resolveTransition(c.transition.name, `${o.jobId}:${i}`);
        return (
          drawnByGl(name, c.transition.params, c.transition.easing, spec.format) && drawer.drawsOnPage(name)
        );
      });
    if (onPage && !o.rasterize) drawer.warm();
  };
  try {
    if (needsMedia) {
      await probing;
      report(overallPercent("rendering", 0), "rendering");
      timeline = timelineFor();
      warmDrawer(timeline);
      rasters = await rasterizeFor(timeline);
    } else {
      timeline = timelineFor();
      warmDrawer(timeline);
      report(overallPercent("rendering", 0), "rendering");
      [, rasters] = await Promise.all([probing, rasterizeFor(timeline)]);
    }
  } catch (e) {
    await drawer.close();
    throw e;
  }
  if (captions) timeReveals(rasters.assets, captionKeys, captions.cues, spec);
  t = clock.now();
  // Inputs fed through pipes go last: ffmpeg opens inputs in order, so it loads and probes every file
  // while the text sheet's screenshot is still being taken and the first html frame drawn.
  // Transitions other than the exact ffmpeg twins are drawn by their GLSL on a WebGL page (gl/): a
  // second ffmpeg run, alongside the render, writes their frame pairs; the page draws them and the
  // render reads the drawn frames through a pipe (gl-join.ts). Jobs whose html layers stream frames keep
  // the xfade drawings (a stream cannot be captured twice).
  const plain = compileGraph(spec, timeline, o.jobId, media, rasters.assets, undefined, drawer);
  drawer.mode = "taps";
  const taps =
    plain.oneShotPipes === 0
      ? timeline.clips
          .map((_, c) => {
            drawer.tapping = c;
            return compileGraph(spec, timeline, o.jobId, media, rasters.assets, drawer, drawer);
          })
          .filter((g) => (g.outputs ?? []).length > 0)
      : [];
  const graphScript = join(o.workDir, "graph.txt");
  let graph = plain;
  timings.graphMs = clock.since(t);
  // Either run failing stops the other (the render would wait for frames the taps never write).
  const both = new AbortController();
  const signal = o.signal ? AbortSignal.any([o.signal, both.signal]) : both.signal;
  let tapsRun: Promise<unknown> = Promise.resolve();
  try {
    if (taps.length > 0) {
      const tapsStart = clock.now();
      tapsRun = (async () => {
        for (const [i, g] of taps.entries()) {
          const ordered = pipesLast(g);
          const script = join(o.workDir, `taps${i}.txt`);
          await writeFile(script, ordered.filterGraph);
          await run(tools.ffmpegPath, extraOutputsArgs({ ...ordered, graphScript: script }), {
            stdin: rasters.stdin ?? undefined,
            pipes: ordered.pipes,
            signal,
            onSpawn: o.onSpawn,
            timeoutMs: 10 * 60_000,
          });
        }
        // Beside the render: how long the frame pairs took, not time before ffmpeg starts.
        timings.tapsMs = clock.since(tapsStart);
      })();
      tapsRun.catch(() => both.abort());
      drawer.mode = "splice";
      graph = compileGraph(spec, timeline, o.jobId, media, rasters.assets, drawer, drawer);
    }
    graph = pipesLast(graph);
    await writeFile(graphScript, graph.filterGraph);
    const args = ffmpegArgs({
      inputs: graph.inputs,
      graphScript,
      filterThreads: filterThreadsFor(graph.filterGraph),
      format: target.format,
      alpha: target.alpha,
      stillTime: target.stillTime,
      preview: target.preview,
      fast: spec.fast,
      fps: spec.fps,
      duration: timeline.duration,
      outPath: target.format === "gif" ? gifIntermediate(o.workDir) : o.outPath,
    });
    const reader = new ProgressReader();
    report(overallPercent("encoding", 0), "encoding");
    timings.startMs = clock.total();
    t = clock.now();
    const cpu0 = cpuTimes();
    const rendering = run(tools.ffmpegPath, args, {
      stdin: rasters.stdin ?? undefined,
      pipes: graph.pipes,
      signal,
      onSpawn: o.onSpawn,
      timeoutMs: 30 * 60_000,
      pipesMayClose: target.stillTime !== undefined,
      onStderr: (chunk) => {
        const at = reader.push(chunk);
        if (at !== null) report(overallPercent("encoding", at / timeline.duration), "encoding");
      },
    });
    rendering.catch(() => both.abort());
    // The first failure is the job's (a run stopped by the other's failure only reports "aborted"). A still's
    // render ends at its frame: the transitions still being drawn for later frames have nobody to read them.
    await firstFailure([target.stillTime === undefined ? tapsRun : rendering.then(() => {}), rendering]);
    if (target.format === "gif")
      await finishGif(target, o.outPath, {
        ffmpegPath: tools.ffmpegPath,
        workDir: o.workDir,
        signal,
        onSpawn: o.onSpawn,
      });
    timings.ffmpegMs = clock.since(t);
    const cpu1 = cpuTimes();
    if (cpu0 && cpu1) {
      timings.ffmpegCpuMs = cpu1.childrenMs - cpu0.childrenMs;
      timings.nodeCpuMs = cpu1.selfMs - cpu0.selfMs;
    }
  } finally {
    // gl layers draw during the render itself: the page closes once ffmpeg is done.
    await drawer.close();
  }
  // A text page for the next job is opened once this one's ffmpeg is done with the cores.
  const usedTextPage = rasterKeys.some((k) => k.layer.type !== "html") && !o.rasterize;
  if (usedTextPage) prepareSparePage(tools);
  return {
    outPath: o.outPath,
    width: spec.width,
    height: spec.height,
    fps: spec.fps,
    // What the file holds: a preview's range of the timeline.
    duration: renderedSeconds(o.config, timeline.duration),
    transitions: graph.transitions,
    captions,
    timings: {
      downloadMs: 0,
      probeMs: 0,
      rasterizeMs: 0,
      graphMs: 0,
      startMs: 0,
      ffmpegMs: 0,
      ...timings,
      totalMs: clock.total(),
    },
  };
}
