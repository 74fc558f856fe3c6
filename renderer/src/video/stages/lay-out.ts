/**
 * The stages that fix what is drawn: the frame-exact timeline, the captions (which must exist before text is
 * rasterised), and the rasterised text and html layers, drawn while the probes finish when the timeline needs
 * none of them.
 */
import { buildTimeline, playableLength, type Timeline } from "@media-render/contract/timeline";
import type { RenderTools } from "../render-tools.ts";
import type { Identity } from "../../lib/run-as.ts";
import type { Transcriber } from "../../transcribe/types.ts";
import { captionsFromFile } from "../captions/caption-file.ts";
import {
  captionsOfParts,
  noAudioCaptions,
  transcribeMix,
  withCaptionLayers,
  type Captions,
} from "../captions/captions.ts";
import { captionsFromWords } from "../captions/known-words.ts";
import { mergeParts, type PartWords } from "../captions/parts.ts";
import type { WordsFile } from "../captions/words-file.ts";
import { clipRange, composedRange, type FrameRange } from "@media-render/contract/windows";
import { layerWindow, type RenderWindow } from "../compile.ts";
import { GlDrawer } from "../gl/gl-drawer.ts";
import { GlSession } from "../gl/gl-session.ts";
import type { HelperRuns } from "../gl/native-gl.ts";
import { isRaster, isText, keyedLayers, type KeyedLayer } from "../layers/index.ts";
import { overallPercent, type Stage } from "../progress.ts";
import { spokenWords, type Utterance } from "../speech.ts";
import { drawnByGl, resolveTransition } from "../transitions.ts";
import type { MediaInfo, Rasters, VideoSpec } from "../types.ts";
import type { Probes } from "./inputs.ts";
import type { Stopwatch } from "./stopwatch.ts";

/**
 * The job's drawer of transitions by their GLSL and of gl layers: the native helper where it is built, and a
 * WebGL page of the job's own, opened when first needed (or warmed by `layOut`).
 */
export const glDrawerFor = (spec: VideoSpec, tools: RenderTools, runs: HelperRuns = {}): GlDrawer =>
  new GlDrawer(
    () => GlSession.open(tools, spec.width, spec.height),
    spec.width,
    spec.height,
    tools.glTransitionPath,
    tools.glFrameSeconds,
    runs,
  );

/** Draws a job's text and html layers (the rasteriser, or a test's stand-in). */
export type Rasterize = (
  spec: VideoSpec,
  layers: KeyedLayer[],
  workDir: string,
  options?: RasterizeOptions,
) => Promise<Rasters>;

/** How the job's layers may be drawn, decided for the whole job (the same in every window of it). */
export interface RasterizeOptions {
  /**
   * The job's one animated html layer may be captured into ffmpeg's pipe while it encodes: only when it is the
   * only one and no transition is drawn by its GLSL (that takes a second run of the graph, and a capture cannot be
   * run twice: html/rasterize-html.ts).
   */
  streamHtml: boolean;
}

/** Whether a transition of `timeline` is drawn by its GLSL (a second run of the graph writes its frame pairs). */
const drawsGlTransitions = (spec: VideoSpec, timeline: Timeline, jobId: string): boolean =>
  timeline.clips.some((clip, i) => {
    if (!clip.transition) return false;
    const { name } = resolveTransition(clip.transition.name, `${jobId}:${i}`, clip.transition.params);
    return drawnByGl(name, clip.transition.params, clip.transition.easing, spec.format);
  });

/** The job's rasterising options (the whole job's, whatever window of it a render draws). */
const rasterizeOptions = (spec: VideoSpec, timeline: Timeline, jobId: string): RasterizeOptions => {
  const animated = keyedLayers(spec).filter((k) => k.layer.type === "html" && k.layer.animated === true);
  return { streamHtml: animated.length === 1 && !drawsGlTransitions(spec, timeline, jobId) };
};

/** Whether the job's planned timeline (the request's) is the one this render draws: planned at the spec's rate. */
const plannedFits = (spec: VideoSpec, planned: Timeline | undefined): planned is Timeline =>
  planned !== undefined && planned.fps === spec.fps && planned.clips.length === spec.clips.length;

/**
 * The render's timeline: the job's planned one (built once by the Worker at creation, the same for every chunk,
 * still and join of the job) when it is at the spec's fps; else the contract's timeline built here at the spec's fps
 * (a GIF's or a fast preview's rate; or no plan: tests, the benchmark), where a clip without its own duration lasts
 * its first video layer's playable length in the probed file.
 */
export const timelineOf = (
  spec: VideoSpec,
  media: ReadonlyMap<string, MediaInfo>,
  planned?: Timeline,
): Timeline => {
  if (plannedFits(spec, planned)) return planned;
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

/**
 * The spec with its captions as layers, the captions, the layer key of each cue, and the transcription parts heard
 * (none unless the mix was transcribed: a chunk's words file takes those it owns).
 */
export interface Captioned {
  spec: VideoSpec;
  captions: Captions | null;
  captionKeys: string[];
  parts: PartWords[];
}

/** The captions of a split job's chunks (their words files, in order), merged: nothing is transcribed. */
const mergedCaptions = (files: readonly WordsFile[], spec: VideoSpec, timeline: Timeline): Captions => {
  const backend = files.find((f) => f.backend !== null)?.backend;
  if (!backend) return noAudioCaptions();
  const parts = mergeParts(
    files.map((f) => f.parts),
    timeline.duration,
  );
  return captionsOfParts(parts, backend, spec);
};

/**
 * The captions of `autoSubtitles` or a `captionsFile`, once every input is probed (span `transcribeMs`), their cues
 * joined to the spec as layers: a captions file's cues; else the words the job's speech says (`utterances`,
 * nothing transcribed); else the chunks' words files merged (a join: `chunkWords`); else the mix transcribed (it
 * needs every probe), in the parts the frames `range` gives reach (a chunk's) or all of them. A spec without
 * `subtitles` passes through.
 */
export const transcribeCaptions = async (
  spec: VideoSpec,
  { media, probed }: Probes,
  options: {
    jobId: string;
    workDir: string;
    ffmpegPath: string;
    /** The job's tool user (render.ts). */
    user?: Identity | null;
    transcriber: Transcriber;
    /** The synthesised speech (speech.ts); none: the mix is transcribed. */
    utterances: readonly Utterance[];
    /** The job's planned timeline (the request's), if any. */
    planned?: Timeline;
    /** The frames whose captions the render draws (a chunk's composed frames); none: all of them. */
    range?: (timeline: Timeline) => FrameRange | undefined;
    /** A join: the chunks' words files, in order. */
    chunkWords?: readonly WordsFile[];
    signal?: AbortSignal;
    report: (percent: number, stage: Stage) => void;
    clock: Stopwatch;
  },
): Promise<Captioned> => {
  if (!spec.subtitles) return { spec, captions: null, captionKeys: [], parts: [] };
  await probed;
  options.report(overallPercent("transcribing", 0), "transcribing");
  const start = options.clock.now();
  const timeline = timelineOf(spec, media, options.planned);
  const file = spec.subtitles.file;
  let parts: PartWords[] = [];
  let captions: Captions;
  if (file) captions = await captionsFromFile(file, spec, timeline.duration, options.signal);
  else if (options.utterances.length > 0)
    captions = captionsFromWords(spokenWords(options.utterances, timeline), spec, timeline.duration, null);
  else if (options.chunkWords) captions = mergedCaptions(options.chunkWords, spec, timeline);
  else
    ({ captions, parts } = await transcribeMix(spec, timeline, media, {
      ...options,
      range: options.range?.(timeline),
    }));
  options.clock.record("transcribeMs", start);
  if (captions.cues.length === 0) return { spec, captions, captionKeys: [], parts };
  const { spec: withCaptions, keys } = withCaptionLayers(spec, captions.cues);
  return { spec: withCaptions, captions, captionKeys: keys, parts };
};

/**
 * Opens the job's WebGL page (~0.4 s to open: a browser of its own, never one another job used) when a
 * transition is drawn on it or the job has a gl layer, so that it opens while the text and html layers are drawn.
 */
const warmGlPage = (spec: VideoSpec, timeline: Timeline, jobId: string, drawer: GlDrawer): void => {
  const glLayer = [...spec.globalLayers, ...spec.clips.flatMap((c) => c.layers)].some((l) => l.type === "gl");
  const onPage =
    glLayer ||
    timeline.clips.some((clip, i) => {
      if (!clip.transition) return false;
      const { name } = resolveTransition(clip.transition.name, `${jobId}:${i}`);
      return (
        drawnByGl(name, clip.transition.params, clip.transition.easing, spec.format) &&
        drawer.drawsOnPage(name)
      );
    });
  if (onPage) drawer.warm();
};

/** Rasterises the spec's text and html layers for `timeline` (spans `rasterizeMs`, `sheetMs`). */
const rasterizeLayers = async (
  spec: VideoSpec,
  timeline: Timeline,
  options: { rasterize: Rasterize; workDir: string; clock: Stopwatch; window?: RenderWindow; jobId: string },
): Promise<Rasters> => {
  // A window of the timeline draws only the layers it reaches, from their first frame in it (an animated html
  // layer is captured from there: html/rasterize-html.ts).
  const range = composedRange(timeline, options.window);
  const layers = keyedLayers(spec).flatMap((k) => {
    if (!isRaster(k.layer)) return [];
    const timing = k.clip < 0 ? { startFrame: 0, frames: timeline.totalFrames } : timeline.clips[k.clip]!;
    const part = clipRange(timing, range);
    const win = part && layerWindow(k.layer, timing.frames, spec.fps, part);
    return win || !options.window ? [{ ...k, window: win?.duration ?? 0, skip: win?.skip ?? 0 }] : [];
  });
  if (layers.length === 0) return { assets: new Map(), stdin: null };
  const start = options.clock.now();
  const rasters = await options.rasterize(
    spec,
    layers,
    options.workDir,
    rasterizeOptions(spec, timeline, options.jobId),
  );
  options.clock.record("rasterizeMs", start);
  void rasters.stdin?.then(
    () => options.clock.record("sheetMs", start),
    () => {},
  );
  return rasters;
};

/** What is drawn, and when: the timeline, the frames of it the render draws, and the rasterised layers. */
export interface LaidOut {
  timeline: Timeline;
  /** The frames drawn (a chunk, a still, a preview); undefined: all of them. */
  window?: RenderWindow;
  rasters: Rasters;
}

/**
 * The timeline and the rasters. Only clips without a duration need probed video lengths; otherwise the
 * timeline is known now and the browser work (text, html capture) runs while the remaining probes
 * (ffprobe) do. `warmGl`: the job's WebGL page opens meanwhile if it will be needed.
 */
export const layOut = async (
  spec: VideoSpec,
  { media, probed }: Probes,
  options: {
    jobId: string;
    workDir: string;
    rasterize: Rasterize;
    drawer: GlDrawer;
    warmGl: boolean;
    /** The job's planned timeline (the request's), if any. */
    planned?: Timeline;
    /** Which frames the render draws (a chunk, a still, a preview), given the timeline; none: all of them. */
    window?: (timeline: Timeline) => RenderWindow | undefined;
    report: (percent: number, stage: Stage) => void;
    clock: Stopwatch;
  },
): Promise<LaidOut> => {
  const needsMedia =
    !plannedFits(spec, options.planned) &&
    spec.clips.some((c) => c.duration === undefined && c.layers.some((l) => l.type === "video"));
  const warm = (timeline: Timeline) =>
    options.warmGl && warmGlPage(spec, timeline, options.jobId, options.drawer);
  if (needsMedia) {
    await probed;
    options.report(overallPercent("rendering", 0), "rendering");
    const timeline = timelineOf(spec, media);
    warm(timeline);
    const window = options.window?.(timeline);
    return { timeline, window, rasters: await rasterizeLayers(spec, timeline, { ...options, window }) };
  }
  const timeline = timelineOf(spec, media, options.planned);
  warm(timeline);
  options.report(overallPercent("rendering", 0), "rendering");
  const window = options.window?.(timeline);
  const [, rasters] = await Promise.all([probed, rasterizeLayers(spec, timeline, { ...options, window })]);
  return { timeline, window, rasters };
};

/** Whether the job drew text on a text page (the next job's is opened once this one is encoded). */
export const usedTextPage = (spec: VideoSpec): boolean => keyedLayers(spec).some((k) => isText(k.layer));
