/**
 * What a render writes, decided once from the config and the request (config reference, "Outputs"): the output
 * format, whether it keeps alpha, the canvas the graph is composed on, and the spec shaped for it (a GIF scaled
 * to its caps, an audio-only render stripped of everything that only draws).
 */
import { renderFormatOf, type GIF_DITHERS, type RenderFormat } from "@media-render/contract/config/outputs";
import { keepsAlpha, OUTPUT_FORMATS, type OutputFormatEntry } from "@media-render/contract/output-formats";
import type { VideoConfig } from "@media-render/contract/config/video";
import { evenDimension } from "@media-render/contract/geometry";
import type { Timeline } from "@media-render/contract/timeline";
import { chunkWindow, partWindow, type BalanceInput, type ChunkPart } from "@media-render/contract/windows";
import type { RenderWindow } from "../compile.ts";
import { scaleLayerPixels } from "../spec.ts";
import { soundOf } from "../layers/index.ts";
import type { ClipSpec, Layer, VideoSpec } from "../types.ts";

export interface OutputTarget {
  /** A video format, or png/jpeg for a still. */
  format: RenderFormat;
  /** webm, or mov with `alpha: true` (ProRes 4444): areas no layer covers stay transparent. */
  alpha: boolean;
  /** The graph's canvas: `webm` composes with alpha (yuva420p), `mp4` opaque (yuv420p). */
  canvas: "mp4" | "webm";
  audioOnly: boolean;
  dither: (typeof GIF_DITHERS)[number];
  /** A still's time (config `still`): the render stops at the frame the video shows then. */
  stillTime?: number;
  /** A preview (config `preview`): the size fraction and the seconds of the video it writes. */
  preview?: { scale: number; from?: number; to?: number };
}

/** The target of a render; the request's `format` wins over the config's (as the Worker stored it). */
export const outputTarget = (config: VideoConfig, requestFormat?: RenderFormat): OutputTarget => {
  const format = requestFormat ?? renderFormatOf(config);
  const entry: OutputFormatEntry = OUTPUT_FORMATS[format];
  // A still is a picture of the video's frame, composed as the video is (opaque), whatever its format could hold.
  const alpha = entry.kind !== "image" && keepsAlpha(format, config.alpha);
  return {
    format,
    alpha,
    canvas: alpha ? "webm" : "mp4",
    audioOnly: entry.kind === "audio",
    dither: config.gif?.dither ?? "sierra2_4a",
    stillTime: config.still?.time,
    preview: config.preview && { ...config.preview, scale: config.preview.scale ?? 1 },
  };
};

/**
 * The spec made at most `maxSide` px on its longer side (aspect kept, even sizes) and `maxFps` frames a second:
 * the same picture smaller, pixel-valued text sizes scaled with it and html captured at the new scale (like `fast`).
 */
export const fitSpec = (spec: VideoSpec, maxSide: number, maxFps: number): VideoSpec => {
  const factor = Math.min(1, maxSide / Math.max(spec.width, spec.height));
  const fps = Math.min(maxFps, spec.fps);
  if (factor === 1 && fps === spec.fps) return spec;
  const scale = (layers: Layer[]) => (factor === 1 ? layers : layers.map((l) => scaleLayerPixels(l, factor)));
  return {
    ...spec,
    width: Math.max(2, evenDimension(spec.width * factor)),
    height: Math.max(2, evenDimension(spec.height * factor)),
    fps,
    pixelScale: spec.pixelScale * factor,
    clips: spec.clips.map((clip) => ({ ...clip, layers: scale(clip.layers) })),
    globalLayers: scale(spec.globalLayers),
  };
};

/** The side of an audio-only render's canvas: its picture is thrown away, so it is kept tiny. */
const AUDIO_CANVAS = 64;

/** A transition as the audio hears it: the same length and curves, drawn as the cheapest fade. */
const plainFade = <T extends ClipSpec["transition"]>(t: T): T =>
  t ? ({ ...t, name: "fade", params: undefined, easing: undefined } as T) : t;

/**
 * The spec of an audio-only render: only what sounds (the layers with a `sound`, layers/index.ts; a picture's own
 * sound only when it is kept, and the video layer a clip without a duration takes its length from), on a tiny opaque
 * canvas, every transition a plain fade of the same length (the audio curves stay). The timeline is the video's.
 */
export const audioOnlySpec = (spec: VideoSpec): VideoSpec => {
  const sounding = (clip: ClipSpec) => {
    const timing = clip.duration === undefined ? clip.layers.find((l) => l.type === "video") : undefined;
    return clip.layers.filter((layer) => {
      const sound = soundOf(layer);
      return sound === "source" ? spec.keepSourceAudio || layer === timing : sound !== undefined;
    });
  };
  return {
    ...spec,
    width: AUDIO_CANVAS,
    height: AUDIO_CANVAS,
    pixelScale: spec.pixelScale * (AUDIO_CANVAS / Math.max(spec.width, spec.height)),
    defaults: { ...spec.defaults, transition: plainFade(spec.defaults.transition) },
    clips: spec.clips.map((clip) => ({
      ...clip,
      transition: plainFade(clip.transition),
      layers: sounding(clip),
    })),
    globalLayers: [],
  };
};

/** The spec shaped for its target: a preview scaled, a GIF within its caps, audio-only stripped. */
export const shapeSpec = (spec: VideoSpec, target: OutputTarget): VideoSpec => {
  if (target.audioOnly) return audioOnlySpec(spec);
  // A preview's scale is of the config's size; a GIF's caps then apply to what is left.
  const scale = target.preview?.scale ?? 1;
  const scaled = scale < 1 ? fitSpec(spec, Math.max(spec.width, spec.height) * scale, spec.fps) : spec;
  const caps = (OUTPUT_FORMATS[target.format] as OutputFormatEntry).caps;
  return caps ? fitSpec(scaled, caps.maxSide, caps.maxFps) : scaled;
};

/**
 * The frames of `timeline` a render draws (compile.ts RenderWindow), undefined for all of them: a chunk's, a still's
 * one frame, a preview's range (the contract's windows.ts, as the Worker sizes them).
 */
export const renderWindow = (
  target: OutputTarget,
  timeline: Timeline,
  chunk?: { part: ChunkPart; config: BalanceInput },
): RenderWindow | undefined =>
  chunk
    ? chunkWindow(chunk.config, timeline, chunk.part)
    : partWindow(
        {
          still: target.stillTime === undefined ? undefined : { time: target.stillTime },
          preview: target.preview,
        },
        timeline,
      );
