/**
 * Renders one video job end to end: fetch inputs → probe → rasterise text/html → compile the
 * filter graph → one ffmpeg run. Reports progress through `onProgress` (percent + stage).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { run } from "../lib/process.ts";
import { ffmpegArgs, filterThreadsFor } from "./args.ts";
import { compileGraph, layerWindow, pipesLast } from "./compile.ts";
import { applyFastMode, parseVideoConfig } from "./config.ts";
import { fetchInputs, fileRefs, rewriteRefs } from "./fetch-inputs.ts";
import { keyedLayers, RASTER_TYPES, type KeyedLayer } from "./layers/index.ts";
import { videoLayerLength } from "./layers/video.ts";
import { probeMedia } from "./probe.ts";
import { captureWorkers, preferredMethod } from "./html/capture-page.ts";
import { getCaptureBrowser, prepareSparePage } from "./raster/browser.ts";
import { rasterizeAll } from "./raster/rasterize.ts";
import { overallPercent, ProgressReader, type Stage } from "./progress.ts";
import { buildTimeline, clipDuration, type Timeline } from "./timeline.ts";
import type { MediaInfo, Rasters, VideoSpec } from "./types.ts";

export type Rasterize = (spec: VideoSpec, layers: KeyedLayer[], workDir: string) => Promise<Rasters>;

export interface RenderVideoOptions {
  jobId: string;
  config: unknown;
  format?: string;
  workDir: string;
  outPath: string;
  allowLocalFiles?: boolean;
  rasterize?: Rasterize;
  onProgress?: (percent: number, stage: Stage) => void;
  signal?: AbortSignal;
}

export interface RenderVideoResult {
  outPath: string;
  width: number;
  height: number;
  fps: number;
  duration: number;
  transitions: string[];
}

const FONT_EXT = /\.(ttf|otf|woff2?)$/i;

/** Starts the browsers a job will need while its inputs download (launching costs ~0.5 s each). */
function warmBrowsers(layers: KeyedLayer[]): void {
  const raster = layers.filter((k) => RASTER_TYPES.has(k.layer.type));
  const html = raster.some((k) => k.layer.type === "html");
  if (raster.some((k) => k.layer.type !== "html") || (html && preferredMethod() === "screenshot"))
    prepareSparePage();
  if (html && preferredMethod() === "beginframe")
    for (let slot = 0; slot < captureWorkers(); slot++) void getCaptureBrowser(slot).catch(() => {});
}

/** Renders the job; throws (ProcessError or Error) with a human-readable message on failure. */
export async function renderVideo(o: RenderVideoOptions): Promise<RenderVideoResult> {
  const report = o.onProgress ?? (() => {});
  const parsed = applyFastMode(parseVideoConfig(o.config, o.format));
  report(0, "downloading");
  if (!o.rasterize) warmBrowsers(keyedLayers(parsed));
  const refs = fileRefs(parsed);
  const local = await fetchInputs(refs, o.workDir, {
    allowLocalFiles: o.allowLocalFiles,
    signal: o.signal,
    onFile: (n) => report(overallPercent("downloading", n / Math.max(1, refs.length)), "downloading"),
  });
  const spec = rewriteRefs(parsed, local);
  const media = new Map<string, MediaInfo>();
  const fontPaths = new Set(keyedLayers(spec).map((k) => k.layer.fontPath));
  const toProbe = [...new Set(local.values())].filter((p) => !fontPaths.has(p) && !FONT_EXT.test(p));
  const probing = Promise.all(toProbe.map(async (p) => media.set(p, await probeMedia(p))));
  void probing.catch(() => {}); // awaited below; this only stops an early throw leaving it unhandled
  const rasterKeys = keyedLayers(spec).filter((k) => RASTER_TYPES.has(k.layer.type));
  const timelineFor = () => {
    const durations = spec.clips.map((clip) =>
      clipDuration(clip, spec.defaultDuration, (i) => {
        const layer = clip.layers[i]!;
        const info = media.get(String(layer.path));
        return info ? videoLayerLength(layer, info.duration) : null;
      }),
    );
    const timeline = buildTimeline(
      durations,
      spec.clips.map((c) => c.transition),
      spec.fps,
    );
    if (timeline.totalFrames === 0) throw new Error("the video has no clips");
    return timeline;
  };
  const rasterize = o.rasterize ?? rasterizeAll;
  const rasterizeFor = async (timeline: Timeline): Promise<Rasters> => {
    if (rasterKeys.length === 0) return { assets: new Map(), stdin: null };
    const layers = rasterKeys.map((k) => {
      const frames = k.clip < 0 ? timeline.totalFrames : timeline.clips[k.clip]!.frames;
      return { ...k, window: layerWindow(k.layer, frames, spec.fps)?.duration ?? 0 };
    });
    return rasterize(spec, layers, o.workDir);
  };
  // Only clips without a duration need probed video lengths; otherwise the timeline is known now and
  // the browser work (text, html capture) runs while the remaining probes (ffprobe) do.
  const needsMedia = spec.clips.some((c) => c.duration === null && c.layers.some((l) => l.type === "video"));
  let timeline: Timeline;
  let rasters: Rasters;
  if (needsMedia) {
    await probing;
    report(overallPercent("rendering", 0), "rendering");
    timeline = timelineFor();
    rasters = await rasterizeFor(timeline);
  } else {
    timeline = timelineFor();
    report(overallPercent("rendering", 0), "rendering");
    [, rasters] = await Promise.all([probing, rasterizeFor(timeline)]);
  }
  // Inputs fed through pipes go last: ffmpeg opens inputs in order, so it loads and probes every file
  // while the text sheet's screenshot is still being taken and the first html frame drawn.
  const graph = pipesLast(compileGraph(spec, timeline, o.jobId, media, rasters.assets));
  const graphScript = join(o.workDir, "graph.txt");
  await writeFile(graphScript, graph.filterGraph);
  const format = spec.format;
  const args = ffmpegArgs({
    inputs: graph.inputs,
    graphScript,
    filterThreads: filterThreadsFor(graph.filterGraph),
    format,
    fast: spec.fast,
    fps: spec.fps,
    duration: timeline.duration,
    outPath: o.outPath,
  });
  const reader = new ProgressReader();
  report(overallPercent("encoding", 0), "encoding");
  // A text page for the next job is opened once this one's ffmpeg is done with the cores.
  const usedTextPage = rasterKeys.some((k) => k.layer.type !== "html") && !o.rasterize;
  await run("ffmpeg", args, {
    stdin: rasters.stdin ?? undefined,
    pipes: graph.pipes,
    signal: o.signal,
    timeoutMs: 30 * 60_000,
    onStderr: (chunk) => {
      const t = reader.push(chunk);
      if (t !== null) report(overallPercent("encoding", t / timeline.duration), "encoding");
    },
  });
  if (usedTextPage) prepareSparePage();
  return {
    outPath: o.outPath,
    width: spec.width,
    height: spec.height,
    fps: spec.fps,
    duration: timeline.duration,
    transitions: graph.transitions,
  };
}
