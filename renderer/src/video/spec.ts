/**
 * The renderer's view of a video job config that the contract's grammar already parsed (the route validates
 * the request with `RenderVideoRequest`): documented defaults filled in from `VIDEO_DEFAULTS`, layer defaults
 * merged by the contract's `applyLayerDefaults` (exactly as validation saw them), volumes made mix-ready
 * (mix-weights.ts), and fast previews.
 * Clip lengths and transitions are not decided here: packages/contract/src/timeline.ts does that from `defaults`.
 */
import type { VideoConfig } from "@media-render/contract/config/video";
import { VIDEO_DEFAULTS } from "@media-render/contract/config/limits";
import { applyLayerDefaults } from "@media-render/contract/config/rules";
import { evenDimension } from "@media-render/contract/geometry";
import type { HostedFonts } from "@media-render/contract/wire";
import { jobFonts } from "../fonts/hosted.ts";
import { overlayFractions } from "./layers/image.ts";
import { isText, textTypeOf } from "./layers/index.ts";
import { fitRangeOf } from "./layers/text-type.ts";
import { mixWeights } from "./mix-weights.ts";
import type { AudioTrackSpec, Layer, VideoFormat, VideoSpec } from "./types.ts";

/**
 * `spec` with the request's hosted fonts (fonts/hosted.ts): the faces its text layers' text reaches, or every face
 * when it has captions (their words come later). Unchanged without fonts.
 */
export const withJobFonts = (spec: VideoSpec, fonts: HostedFonts | undefined): VideoSpec => {
  if (!fonts || Object.keys(fonts).length === 0) return spec;
  const layers = [...spec.clips.flatMap((c) => c.layers), ...spec.globalLayers];
  const text = layers.map((l) => ("text" in l && typeof l.text === "string" ? l.text : "")).join("");
  return { ...spec, fonts: jobFonts(fonts, spec.subtitles ? null : text) };
};

/** The spec of a parsed config; `format` (the request's output format) wins over the config's. */
export const videoSpec = (config: VideoConfig, format?: VideoFormat): VideoSpec => {
  const defaults = config.defaults;
  const width = config.width ?? VIDEO_DEFAULTS.width;
  const height = config.height ?? VIDEO_DEFAULTS.height;
  const withDefaults = (layer: Layer): Layer =>
    overlayFractions(applyLayerDefaults(defaults, layer), width, height);
  const entries = config.audioTracks ?? [];
  const speechTracks = entries.flatMap((t, index) => ("text" in t ? [{ ...t, index }] : []));
  const tracks = entries
    .flatMap((t) => ("text" in t ? [] : [t]))
    .map((track): AudioTrackSpec => ({
      path: track.path,
      mixVolume: track.mixVolume ?? 1,
      start: track.start ?? 0,
      cutFrom: track.cutFrom ?? 0,
      cutTo: track.cutTo ?? null,
      duck: true,
    }));
  return mixWeights({
    // x264/yuv420p need even sizes: rounded down, as docs/config-grammar.md promises (1001 -> 1000).
    width: evenDimension(width),
    height: evenDimension(height),
    fps: config.fps ?? VIDEO_DEFAULTS.fps,
    format: format ?? config.format ?? VIDEO_DEFAULTS.format,
    fast: config.fast ?? false,
    pixelScale: 1,
    defaults: { duration: defaults?.duration, transition: defaults?.transition },
    defaultDuration: defaults?.duration ?? VIDEO_DEFAULTS.clipDuration,
    clips: config.clips.map((clip) => ({
      duration: clip.duration,
      transition: clip.transition,
      layers: clip.layers.map(withDefaults),
    })),
    globalLayers: (config.globalLayers ?? []).map(withDefaults),
    audioFilePath: config.audioFilePath ?? null,
    backgroundAudioVolume: config.backgroundAudioVolume ?? 1,
    loopAudio: config.loopAudio ?? false,
    keepSourceAudio: config.keepSourceAudio ?? false,
    clipsAudioVolume: config.clipsAudioVolume ?? 1,
    outputVolume: config.outputVolume ?? 1,
    audioTracks: tracks,
    speechTracks,
    ducking: null,
    audioNorm: {
      enable: config.audioNorm?.enable ?? false,
      gaussSize: config.audioNorm?.gaussSize ?? VIDEO_DEFAULTS.audioNormGaussSize,
      maxGain: config.audioNorm?.maxGain ?? VIDEO_DEFAULTS.audioNormMaxGain,
    },
    subtitles:
      config.autoSubtitles || config.captionsFile !== undefined
        ? {
            style: config.autoSubtitlesStyle ?? {},
            language: config.autoSubtitlesLanguage,
            ...(config.captionsFile === undefined ? {} : { file: config.captionsFile }),
          }
        : null,
  });
};

/**
 * A layer's pixel-valued properties multiplied by `factor` (a preview): its text type's (`TextType.scalePixels`), and
 * the range a fitted text is sized in; other layers unchanged.
 */
export const scaleLayerPixels = (layer: Layer, factor: number): Layer => {
  if (!isText(layer)) return layer;
  const scaled = textTypeOf(layer).scalePixels(layer, factor);
  const fit = fitRangeOf(textTypeOf(layer), scaled);
  return fit
    ? ({ ...scaled, minFontSize: fit.min * factor, maxFontSize: fit.max * factor } as Layer)
    : scaled;
};

/** Side of the square whose area a preview keeps (aspect ratio kept). */
const PREVIEW_SIDE = 250;
const PREVIEW_MAX_FPS = 15;

/**
 * Preview mode (reference `fast`): about 250x250 pixels of area with the aspect kept, 15 fps. The
 * picture is the full render made smaller: pixel-valued text properties shrink with it and html pages
 * keep their layout (captured at `pixelScale`).
 */
export const applyFastMode = (spec: VideoSpec): VideoSpec => {
  if (!spec.fast) return spec;
  const aspect = spec.width / spec.height;
  const width = Math.min(evenDimension(Math.sqrt(PREVIEW_SIDE * PREVIEW_SIDE * aspect)), spec.width);
  const height = Math.min(evenDimension(width / aspect), spec.height);
  const factor = width / spec.width;
  const scale = (layers: Layer[]) => layers.map((l) => scaleLayerPixels(l, factor));
  return {
    ...spec,
    width,
    height,
    fps: Math.min(PREVIEW_MAX_FPS, spec.fps),
    pixelScale: factor,
    clips: spec.clips.map((clip) => ({ ...clip, layers: scale(clip.layers) })),
    globalLayers: scale(spec.globalLayers),
  };
};
