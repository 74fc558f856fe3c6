/**
 * Every layer type of a video job, one entry each: its properties (`entries`, video-layers.ts), whether
 * `globalLayers` may hold it, its cap per job, its rules across properties, what a frame of it costs the renderer,
 * and what the builder starts a new one with; the files it references (`files`) are read off its properties. Every
 * list of video layer types is derived from this table: the grammar's layer unions (a clip's, `globalLayers`') and
 * `defaults.layerType`, globalLayers' refusals, the caps and rules, the file references of a config (resources.ts;
 * the renderer's downloads), the warnings' lookups, the chunks' balance (windows.ts) and the builder's new layers
 * (`newVideoLayer`). The renderer's side of each type (compiler, rasteriser, sound) is a second table keyed by the
 * same names (renderer/src/video/layers/index.ts), which the renderer's typecheck holds complete. CONTRIBUTING.md,
 * "Adding a layer type", says what else a new type needs.
 */
import { fitIssues } from "../fit-text.ts";
import { HTML_JSON_RULE, htmlLayerIssues } from "./html-layer.ts";
import { HTML_MAX_LAYERS_PER_JOB } from "./limits.ts";
import { entryOf, layerTable, starterFiles, type LayerTypeFacts, type LayerTypeOf } from "./layer-set.ts";
import type { FileKind } from "./file-ref.ts";
import { speechLayerEntries } from "./speech.ts";
import {
  audioLayerEntries,
  detachedAudioLayerEntries,
  editlyBannerLayerEntries,
  fillColorLayerEntries,
  glLayerEntries,
  glLayerIssues,
  imageOverlayLayerEntries,
  linearGradientLayerEntries,
  newsTitleLayerEntries,
  pauseLayerEntries,
  radialGradientLayerEntries,
  rainbowColorsLayerEntries,
  slideInTextLayerEntries,
  subtitleLayerEntries,
  titleBackgroundLayerEntries,
  titleLayerEntries,
  videoHtmlLayerEntries,
  videoImageLayerEntries,
  videoLayerEntries,
} from "./video-layers.ts";

export interface VideoLayerTypeFacts extends LayerTypeFacts {
  /** `true` when `globalLayers` may hold the type; else the refusal's message (where to put it instead). */
  global: true | string;
  /**
   * The properties a layer added in the builder starts with, besides `type` and a file of its kind for each
   * required file property (`path`).
   */
  starter?: Readonly<Record<string, unknown>>;
  /**
   * The CPU a frame showing the layer adds, as a share of the frame's own composing and encoding (1), as the chunks'
   * balance estimates it (windows.ts; docs/parallel-rendering.md): measured on the 2-core machine at 1280x720 and
   * 1920x1080 (a frame of a colour: 5.4 and 11.3 ms) for a Ken Burns photo (2.3), a video cut (2.0) and a title
   * (0.25), estimated from their benchmarks for a `gl` layer's drawing and an animated html layer's capture. Unset:
   * a title's (DEFAULT_FRAME_COST).
   */
  frameCost?: number;
  /** With `animated: true` (an html layer recorded over time): the frame cost instead of `frameCost`. */
  animatedFrameCost?: number;
}

/** What a frame of a layer whose type states no cost adds (a title's: the text sheet's overlay). */
export const DEFAULT_FRAME_COST = 0.25;

/** What a new text layer says in the builder. */
const TEXT = { text: "Your text" };
/** The rules of the text types with minFontSize/maxFontSize, over the layer as rendered (their box is their own). */
const fitted = (layer: Record<string, unknown>) => fitIssues(layer);

/** A colour ramp turning over time: what a new `gl` layer draws until its shader is written. */
const STARTER_SHADER =
  "uniform float time;\nuniform vec2 resolution;\nvoid main() {\n  vec2 p = gl_FragCoord.xy / resolution;\n  gl_FragColor = vec4(p, 0.5 + 0.5 * sin(time), 1.0);\n}";

const GRADIENT = { colors: ["#0f172a", "#1d4ed8"] };

/** The layer types, in the order the grammar lists them. */
export const VIDEO_LAYER_TYPES = layerTable<VideoLayerTypeFacts>()({
  video: {
    entries: videoLayerEntries,
    global: '"video" layers are not allowed in globalLayers: put them in a clip',
    frameCost: 2,
  },
  audio: {
    entries: audioLayerEntries,
    global: '"audio" layers are not allowed in globalLayers: use audioTracks',
  },
  "detached-audio": {
    entries: detachedAudioLayerEntries,
    global: '"detached-audio" layers are not allowed in globalLayers: use audioTracks',
  },
  speech: {
    entries: speechLayerEntries,
    global:
      '"speech" layers are not allowed in globalLayers: use audioTracks (an entry with "type": "speech")',
    starter: TEXT,
  },
  image: { entries: videoImageLayerEntries, global: true, frameCost: 2.3 },
  "image-overlay": { entries: imageOverlayLayerEntries, global: true },
  title: { entries: titleLayerEntries, global: true, starter: TEXT, renderedRules: fitted },
  subtitle: { entries: subtitleLayerEntries, global: true, starter: TEXT, renderedRules: fitted },
  "news-title": { entries: newsTitleLayerEntries, global: true, starter: TEXT, renderedRules: fitted },
  "title-background": {
    entries: titleBackgroundLayerEntries,
    global: true,
    starter: TEXT,
    renderedRules: fitted,
  },
  "slide-in-text": { entries: slideInTextLayerEntries, global: true, starter: TEXT },
  "fill-color": { entries: fillColorLayerEntries, global: true, starter: { color: "#1d4ed8" } },
  "linear-gradient": { entries: linearGradientLayerEntries, global: true, starter: GRADIENT },
  "radial-gradient": { entries: radialGradientLayerEntries, global: true, starter: GRADIENT },
  "rainbow-colors": { entries: rainbowColorsLayerEntries, global: true },
  pause: { entries: pauseLayerEntries, global: true },
  "editly-banner": { entries: editlyBannerLayerEntries, global: true },
  html: {
    entries: videoHtmlLayerEntries,
    global: true,
    perJob: HTML_MAX_LAYERS_PER_JOB,
    rules: htmlLayerIssues,
    jsonRule: HTML_JSON_RULE,
    animatedFrameCost: 5,
    starter: { html: '<h1 style="color: white; font: 700 64px sans-serif">Hello</h1>' },
  },
  gl: {
    entries: glLayerEntries,
    global: true,
    rules: glLayerIssues,
    frameCost: 3,
    starter: { fragmentShader: STARTER_SHADER },
  },
});

export type VideoLayerType = keyof typeof VIDEO_LAYER_TYPES;

/** The entry of the type named `type`, if the grammar has one. */
export const videoLayerType = (type: string): LayerTypeOf<VideoLayerTypeFacts> | undefined =>
  entryOf<LayerTypeOf<VideoLayerTypeFacts>>(VIDEO_LAYER_TYPES, type);

/**
 * A layer of `type` as the builder adds it: its type's `starter`, and for each required file property the file
 * `fileFor` picks of its kind (none: left for the user to pick). A name the grammar lacks gets only its `type`.
 */
export const newVideoLayer = (
  type: string,
  fileFor: (kind: FileKind) => string | undefined,
): Record<string, unknown> => {
  const entry = videoLayerType(type);
  return entry ? { type, ...starterFiles(entry, fileFor), ...entry.starter } : { type };
};

/** The CPU a frame showing `layer` adds (its type's `frameCost`, `animatedFrameCost`), for the chunks' balance. */
export const layerFrameCost = (layer: { type: string; animated?: boolean }): number => {
  const entry = videoLayerType(layer.type);
  return (
    (layer.animated === true ? entry?.animatedFrameCost : undefined) ?? entry?.frameCost ?? DEFAULT_FRAME_COST
  );
};

/**
 * Every property a video layer type references a file with (`path`, `fontPath`, `fragmentPath`), with the kinds of
 * file it holds across the types (`path`: a video, a sound or a picture): what the renderer downloads, and probes
 * when the file is media.
 */
export const VIDEO_LAYER_FILE_PROPERTIES: ReadonlyMap<string, ReadonlySet<FileKind>> = (() => {
  const out = new Map<string, Set<FileKind>>();
  for (const { files } of Object.values<{ files: Readonly<Record<string, FileKind>> }>(VIDEO_LAYER_TYPES))
    for (const [key, kind] of Object.entries(files)) out.set(key, (out.get(key) ?? new Set()).add(kind));
  return out;
})();
