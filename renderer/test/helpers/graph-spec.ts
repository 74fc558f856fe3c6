/** Specs and graph contexts for the pure graph builders' tests: configs go through the contract's grammar. */
import { buildTimeline } from "@media-render/contract/timeline";
import type { FrameRange } from "@media-render/contract/windows";
import { layerWindow } from "../../src/video/compile.ts";
import { videoSpec } from "../../src/video/spec.ts";
import {
  GraphContext,
  type GlLayerDrawer,
  type LayerVideo,
  type LayerWindow,
} from "../../src/video/graph-context.ts";
import { compileLayer, keyedLayers } from "../../src/video/layers/index.ts";
import type { Layer, MediaInfo, RasterAsset, VideoFormat, VideoSpec } from "../../src/video/types.ts";
import { videoConfig } from "./video-config.ts";

/** The spec of a 320x180, 25 fps config with `raw`'s fields. */
export const specOf = (raw: Record<string, unknown>, format?: VideoFormat): VideoSpec =>
  videoSpec(videoConfig({ width: 320, height: 180, fps: 25, ...raw }), format);

/** A fresh graph context of `spec` (labels numbered from 0). */
export const contextOf = (spec: VideoSpec, media: ReadonlyMap<string, MediaInfo> = new Map()): GraphContext =>
  new GraphContext(spec, buildTimeline(spec), "job", media, new Map());

/** A probed audio file of `duration` seconds (`hasAudio: false`: a file without sound). */
export const audioFile = (duration: number, hasAudio = true): MediaInfo => ({
  width: 0,
  height: 0,
  duration,
  hasVideo: false,
  hasAudio,
  hasAlpha: false,
  rotation: 0,
  videoCodec: null,
  orientation: 1,
  demuxer: "wav",
});

/** A clip of `duration` seconds filled with one colour. */
export const colourClip = (duration: number, transition?: Record<string, unknown>) => ({
  duration,
  ...(transition ? { transition } : {}),
  layers: [{ type: "fill-color", color: "#336699" }],
});

/** A probed file: a 4 s 640x360 h264 video with sound unless `facts` say otherwise. */
export const probed = (facts: Partial<MediaInfo> = {}): MediaInfo => ({
  ...{ width: 640, height: 360, duration: 4, hasVideo: true, hasAudio: true, hasAlpha: false, rotation: 0 },
  ...{ videoCodec: "h264", orientation: 1, demuxer: "mov", ...facts },
});

/** What probing finds in a 4000x3000 JPEG photo. */
export const PHOTO = probed({
  width: 4000,
  height: 3000,
  duration: 0,
  hasAudio: false,
  videoCodec: "mjpeg",
  demuxer: "image2",
});

/** What probing finds in a 200x100 PNG with alpha. */
export const LOGO = probed({
  width: 200,
  height: 100,
  duration: 0,
  hasAudio: false,
  hasAlpha: true,
  videoCodec: "png",
  demuxer: "png_pipe",
});

/** A layer compiled alone: its context (inputs, chains), what it drew, and the window it was drawn over. */
export interface CompiledLayer {
  ctx: GraphContext;
  out: LayerVideo | null;
  win: LayerWindow;
  layer: Layer;
}

/**
 * Compiles the layer `raw` (as a config writes it) of a one-clip config of `duration` seconds (320x180 at 25 fps
 * unless `config` says otherwise) as compile.ts does, over the frames `range` of the clip (default all of them: a
 * window of the timeline starting mid-clip draws from `range.from`). `pick`: which of the layers it expands into
 * (title-background's title is 1). Files come from `media`, rasterised text from `rasters` (by key `c0l<pick>`).
 */
export const compileOne = (
  raw: Record<string, unknown>,
  options: {
    duration?: number;
    config?: Record<string, unknown>;
    format?: VideoFormat;
    media?: Record<string, MediaInfo>;
    rasters?: Record<string, RasterAsset>;
    range?: FrameRange;
    pick?: number;
    glLayers?: GlLayerDrawer;
    audio?: boolean;
  } = {},
): CompiledLayer => {
  const spec = specOf(
    { ...options.config, clips: [{ duration: options.duration ?? 1, layers: [raw] }] },
    options.format,
  );
  const ctx = new GraphContext(
    spec,
    buildTimeline(spec),
    "job",
    new Map(Object.entries(options.media ?? {})),
    new Map(Object.entries(options.rasters ?? {})),
  );
  ctx.glLayers = options.glLayers;
  ctx.audio = options.audio ?? options.range === undefined;
  const keyed = keyedLayers(spec)[options.pick ?? 0]!;
  for (const k of keyedLayers(spec)) ctx.layerPaths.set(k.key, k.path);
  const frames = Math.round((options.duration ?? 1) * spec.fps);
  const win = layerWindow(keyed.layer, frames, spec.fps, options.range);
  if (!win) throw new Error("the layer draws no frame in this range");
  return { ctx, out: compileLayer(keyed.layer, win, ctx, keyed.key), win, layer: keyed.layer };
};
