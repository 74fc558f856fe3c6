/**
 * Every layer type of a video job, one entry each: its properties (`entries`, video-layers.ts), whether
 * `globalLayers` may hold it, its cap per job, and what the builder starts a new one with; the files it references
 * (`files`) are read off its properties. Every list of video layer types is derived from this table: the grammar's
 * layer unions (a clip's, `globalLayers`') and `defaults.layerType`, globalLayers' refusals, the caps, the file
 * references of a config (resources.ts), the warnings' lookups and the builder's new layers. The renderer's side
 * of each type (compiler, rasteriser, sound) is a second table keyed by the same names
 * (renderer/src/video/layers/index.ts), which the renderer's typecheck holds complete. CONTRIBUTING.md, "Adding a
 * layer type", says what else a new type needs.
 */
import { HTML_MAX_LAYERS_PER_JOB } from "./limits.ts";
import { layerTable, type LayerTypeFacts } from "./layer-set.ts";
import { speechLayerEntries } from "./speech.ts";
import {
  audioLayerEntries,
  detachedAudioLayerEntries,
  editlyBannerLayerEntries,
  fillColorLayerEntries,
  glLayerEntries,
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
}

/** What a new text layer says in the builder. */
const TEXT = { text: "Your text" };

/** A colour ramp turning over time: what a new `gl` layer draws until its shader is written. */
const STARTER_SHADER =
  "uniform float time;\nuniform vec2 resolution;\nvoid main() {\n  vec2 p = gl_FragCoord.xy / resolution;\n  gl_FragColor = vec4(p, 0.5 + 0.5 * sin(time), 1.0);\n}";

const GRADIENT = { colors: ["#0f172a", "#1d4ed8"] };

/** The layer types, in the order the grammar lists them. */
export const VIDEO_LAYER_TYPES = layerTable<VideoLayerTypeFacts>()({
  video: {
    entries: videoLayerEntries,
    global: '"video" layers are not allowed in globalLayers: put them in a clip',
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
  image: { entries: videoImageLayerEntries, global: true },
  "image-overlay": { entries: imageOverlayLayerEntries, global: true },
  title: { entries: titleLayerEntries, global: true, starter: TEXT },
  subtitle: { entries: subtitleLayerEntries, global: true, starter: TEXT },
  "news-title": { entries: newsTitleLayerEntries, global: true, starter: TEXT },
  "title-background": { entries: titleBackgroundLayerEntries, global: true, starter: TEXT },
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
    starter: { html: '<h1 style="color: white; font: 700 64px sans-serif">Hello</h1>' },
  },
  gl: { entries: glLayerEntries, global: true, starter: { fragmentShader: STARTER_SHADER } },
});

export type VideoLayerType = keyof typeof VIDEO_LAYER_TYPES;
