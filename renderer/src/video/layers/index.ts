/**
 * Layer registry keyed by `type` (one module per family), plus the single walk over a spec's
 * layers that both the rasteriser and the graph compiler use, so their keys always agree.
 */
import type { GraphContext, LayerCompiler, LayerVideo, LayerWindow } from "../graph-context.ts";
import type { Layer, LayerOf, LayerType, VideoSpec } from "../types.ts";
import { RASTER_TYPES } from "./raster-types.ts";
import { audioLayer } from "./audio-layer.ts";
import { fillColor, linearGradient, radialGradient, rainbowColors } from "./background.ts";
import { glLayer } from "./gl-layer.ts";
import { image, imageOverlay } from "./image.ts";
import { hasMotion, withMotion } from "./motion.ts";
import { rasterLayer } from "./raster-layer.ts";
import { video } from "./video.ts";

export { isRaster, type TextLayer } from "./raster-types.ts";

/** A compiler per type; `detached-audio` has none (compile.ts turns it into an audio track). */
export const COMPILERS: { readonly [T in LayerType]?: LayerCompiler<LayerOf<T>> } = {
  "fill-color": fillColor,
  pause: fillColor,
  "linear-gradient": linearGradient,
  "radial-gradient": radialGradient,
  "rainbow-colors": rainbowColors,
  image,
  "image-overlay": imageOverlay,
  video,
  audio: audioLayer,
  gl: glLayer,
  ...Object.fromEntries(RASTER_TYPES.map((t) => [t, rasterLayer])),
};

/** Compiles `layer` with the compiler of its type; null when the type draws nothing itself. */
export const compileLayer = (
  layer: Layer,
  win: LayerWindow,
  ctx: GraphContext,
  key: string,
): LayerVideo | null => {
  // COMPILERS pairs each type with the compiler of that type; TypeScript cannot follow the pairing
  // through an index by a union, hence the widening.
  const compiler = COMPILERS[layer.type] as LayerCompiler<Layer> | undefined;
  const out = compiler ? compiler(layer, win, ctx, key) : null;
  // Every type's opacity, rotation, scale and keyframed position are applied to its stream here (motion.ts).
  return out && hasMotion(layer) ? withMotion(layer, win, ctx, out) : out;
};

/** What editly's banner says (its three lines, as editly draws them). */
export const EDITLY_BANNER_TEXT = "Made with\nEDITLY\nmifi.no";

/**
 * `title-background` expands into `[background, title]` (reference §2.4), `editly-banner` into editly's
 * `[linear-gradient, title]` (seeded colours, its text in the layer's font). Other layers pass through.
 */
export const expandLayers = (layers: readonly Layer[]): Layer[] => {
  return layers.flatMap((layer): Layer[] => {
    if (layer.type === "editly-banner") {
      const { type: _banner, ...rest } = layer;
      return [
        { type: "linear-gradient", start: layer.start, stop: layer.stop },
        { ...rest, type: "title", text: EDITLY_BANNER_TEXT },
      ];
    }
    if (layer.type !== "title-background") return [layer];
    const bg = layer.background;
    const timing = { start: layer.start, stop: layer.stop };
    // Without a background: a linear gradient of seeded colours (background.ts).
    const background: Layer =
      bg?.type === "fill-color"
        ? { type: "fill-color", color: bg.color, ...timing }
        : bg?.type === "radial-gradient"
          ? { type: "radial-gradient", colors: bg.colors, ...timing }
          : { type: "linear-gradient", colors: bg?.colors, direction: bg?.direction, ...timing };
    return [background, layer];
  });
};

export interface KeyedLayer<L extends Layer = Layer> {
  key: string;
  /** Where the layer is in the config (`clips[2].layers[0]`, `globalLayers[1]`), for messages naming its field. */
  path: string;
  layer: L;
  /** Clip index, or -1 for globalLayers. */
  clip: number;
  /** Seconds the layer is visible (filled in once the timeline is known). */
  window?: number;
  /** Frames of the layer before the first one a window of the timeline draws (filled in with `window`). */
  skip?: number;
}

/** Narrows a keyed layer by its layer's type. */
export const keyedOf =
  <T extends LayerType>(...types: T[]) =>
  (k: KeyedLayer): k is KeyedLayer<LayerOf<T>> =>
    (types as LayerType[]).includes(k.layer.type);

/** Every layer of the spec (expanded) with its stable key: `c<clip>l<n>` or `g<n>`. */
export const keyedLayers = (spec: VideoSpec): KeyedLayer[] => {
  const out: KeyedLayer[] = [];
  // An expanded layer (title-background's two) keeps the path of the config layer it came from.
  const walk = (layers: readonly Layer[], base: string, keyOf: (n: number) => string, clip: number) => {
    let n = 0;
    layers.forEach((configLayer, i) => {
      for (const layer of expandLayers([configLayer]))
        out.push({ key: keyOf(n++), path: `${base}[${i}]`, layer, clip });
    });
  };
  spec.clips.forEach((clip, c) => walk(clip.layers, `clips[${c}].layers`, (n) => `c${c}l${n}`, c));
  walk(spec.globalLayers, "globalLayers", (n) => `g${n}`, -1);
  return out;
};
