/**
 * Layer registry keyed by `type` (one module per family), plus the single walk over a spec's
 * layers that both the rasteriser and the graph compiler use, so their keys always agree.
 */
import type { LayerCompiler } from "../graph-context.ts";
import type { Layer, VideoSpec } from "../types.ts";
import { obj } from "../values.ts";
import { audioLayer } from "./audio-layer.ts";
import { fillColor, linearGradient, radialGradient, rainbowColors } from "./background.ts";
import { image, imageOverlay } from "./image.ts";
import { rasterLayer } from "./raster-layer.ts";
import { video } from "./video.ts";

/** Types drawn by rasterising HTML in Chromium before ffmpeg runs. */
export const RASTER_TYPES: ReadonlySet<string> = new Set([
  "title",
  "subtitle",
  "news-title",
  "slide-in-text",
  "text",
  "title-background",
  "html",
]);

export const COMPILERS: Readonly<Record<string, LayerCompiler>> = {
  "fill-color": fillColor,
  pause: fillColor,
  "linear-gradient": linearGradient,
  "radial-gradient": radialGradient,
  "rainbow-colors": rainbowColors,
  image,
  "image-overlay": imageOverlay,
  video,
  audio: audioLayer,
  ...Object.fromEntries([...RASTER_TYPES].map((t) => [t, rasterLayer])),
};

/** `title-background` expands into `[background, title]` (reference §2.4). Other layers pass through. */
export function expandLayers(layers: readonly Layer[]): Layer[] {
  return layers.flatMap((layer): Layer[] => {
    if (layer.type !== "title-background") return [layer];
    const bg = obj(layer.background) ?? {};
    const bgType = bg.type === "fill-color" || bg.type === "radial-gradient" ? bg.type : "linear-gradient";
    const timing = { start: layer.start, stop: layer.stop };
    return [{ ...bg, ...timing, type: bgType }, layer];
  });
}

export interface KeyedLayer {
  key: string;
  layer: Layer;
  /** Clip index, or -1 for globalLayers. */
  clip: number;
  /** Seconds the layer is visible (filled in once the timeline is known). */
  window?: number;
}

/** Every layer of the spec (expanded) with its stable key: `c<clip>l<n>` or `g<n>`. */
export function keyedLayers(spec: VideoSpec): KeyedLayer[] {
  const out: KeyedLayer[] = [];
  spec.clips.forEach((clip, c) =>
    expandLayers(clip.layers).forEach((layer, n) => out.push({ key: `c${c}l${n}`, layer, clip: c })),
  );
  expandLayers(spec.globalLayers).forEach((layer, n) => out.push({ key: `g${n}`, layer, clip: -1 }));
  return out;
}
