/**
 * The renderer's side of every layer type, one entry each, keyed by `type` (the grammar's names: the contract's
 * video-layer-types.ts holds the other side): how it is compiled into the graph (one module per family), what it
 * expands into, how it is rasterised before ffmpeg runs, and what it sounds like. `LAYER_TYPES` is complete by
 * type: a type of the grammar without an entry fails the renderer's typecheck. Also the single walk over a spec's
 * layers that the rasteriser and the graph compiler both use, so their keys always agree.
 */
import type { LayerCompiler, GraphContext, LayerVideo, LayerWindow } from "../graph-context.ts";
import type { Layer, LayerOf, LayerType, VideoSpec } from "../types.ts";
import { audioLayer } from "./audio-layer.ts";
import { fillColor, linearGradient, radialGradient, rainbowColors } from "./background.ts";
import { glLayer } from "./gl-layer.ts";
import { image, imageOverlay } from "./image.ts";
import { hasMotion, withMotion } from "./motion.ts";
import { newsTitle } from "./news-title.ts";
import { inPlace, rasterLayer } from "./raster-layer.ts";
import { slideInText } from "./slide-in-text.ts";
import { subtitle } from "./subtitle.ts";
import type { TextType } from "./text-type.ts";
import { title, type TitleLayer } from "./title.ts";
import { video } from "./video.ts";

/**
 * What a layer sounds like: `clip`, a sound in its clip's mix; `source`, the sound of a picture's own media in
 * its clip's mix, heard with keepSourceAudio (an audio-only render keeps the layer only then, or when it sets its
 * clip's length); `track`, a track of the output's mix of its own (speech once said, compile.ts `detachedTrack`).
 */
export type Sound = "clip" | "source" | "track";

/** The renderer's side of a layer type `L`. */
export interface LayerTypeEntry<L extends Layer> {
  /** Draws the layer into the graph; none for a type that is expanded, or made a track, before compiling. */
  compile?: LayerCompiler<L>;
  /** The layers it is drawn as, bottom first (title-background: its background under itself). */
  expand?: (layer: L) => Layer[];
  /**
   * Drawn in Chromium before ffmpeg runs: a box on the job's text sheet laid out and moved as its text type says
   * (`text`: raster/text-html.ts, raster/rasterize-text.ts), or an html page captured (`page`: html/).
   */
  raster?: { text: TextType<L> } | "page";
  sound?: Sound;
}

/** A type drawn as a box of the text sheet by `text`. */
const onSheet = <L extends Layer>(text: TextType<L>) => ({
  compile: rasterLayer(text.motion),
  raster: { text },
});

/** What editly's banner says (its three lines, as editly draws them). */
export const EDITLY_BANNER_TEXT = "Made with\nEDITLY\nmifi.no";

/** `title-background`: its background (reference §2.4), then itself, drawn as a title. */
const titleBackground = (layer: LayerOf<"title-background">): Layer[] => {
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
};

/** `editly-banner`: editly's `[linear-gradient, title]` (seeded colours, its text in the layer's font). */
const editlyBanner = (layer: LayerOf<"editly-banner">): Layer[] => {
  const { type: _banner, ...rest } = layer;
  return [
    { type: "linear-gradient", start: layer.start, stop: layer.stop },
    { ...rest, type: "title", text: EDITLY_BANNER_TEXT },
  ];
};

/** Every layer type's entry, in the grammar's order. */
export const LAYER_TYPES = {
  video: { compile: video, sound: "source" },
  audio: { compile: audioLayer, sound: "clip" },
  // compile.ts makes it a track of the output's mix.
  "detached-audio": { sound: "track" },
  // Said before the graph is compiled, and then a detached-audio layer (speech.ts).
  speech: { sound: "track" },
  image: { compile: image },
  "image-overlay": { compile: imageOverlay },
  title: onSheet(title),
  subtitle: onSheet(subtitle),
  "news-title": onSheet(newsTitle),
  "title-background": { ...onSheet(title), expand: titleBackground },
  "slide-in-text": onSheet(slideInText),
  "fill-color": { compile: fillColor },
  "linear-gradient": { compile: linearGradient },
  "radial-gradient": { compile: radialGradient },
  "rainbow-colors": { compile: rainbowColors },
  pause: { compile: fillColor },
  "editly-banner": { expand: editlyBanner },
  html: { compile: rasterLayer(inPlace), raster: "page" },
  gl: { compile: glLayer },
} as const satisfies { readonly [T in LayerType]: LayerTypeEntry<LayerOf<T>> };

/**
 * The entry of `layer`'s type. LAYER_TYPES pairs each type with the entry of that type; TypeScript cannot follow the
 * pairing through an index by a union, hence the widening.
 */
const entryOf = <L extends Layer>(layer: L): LayerTypeEntry<L> =>
  LAYER_TYPES[layer.type] as unknown as LayerTypeEntry<L>;

/** The types whose entry matches `E`. */
type TypesWith<E> = { [T in LayerType]: (typeof LAYER_TYPES)[T] extends E ? T : never }[LayerType];

/** A layer rasterised before ffmpeg runs (a text box or an html page). */
export type RasterLayer = LayerOf<TypesWith<{ raster: unknown }>>;
/** A layer drawn as a box of the text sheet (html layers are captured page by page). */
export type TextLayer = LayerOf<TypesWith<{ raster: { text: unknown } }>>;

export const isRaster = (layer: Layer): layer is RasterLayer => entryOf(layer).raster !== undefined;
/** Whether `layer` is drawn as a text box on the sheet (every rasterised type but html). */
export const isText = (layer: Layer): layer is TextLayer => typeof entryOf(layer).raster === "object";

/** The text type of a layer drawn on the sheet. */
export const textTypeOf = <L extends TextLayer>(layer: L): TextType<L> =>
  (entryOf(layer).raster as { text: TextType<L> }).text;

/** Whether `layer` is drawn as a title (a `style`, an outline). */
export const isTitle = (layer: Layer): layer is TitleLayer =>
  isText(layer) && (textTypeOf(layer) as unknown) === title;

/** What `layer` sounds like, if it sounds. */
export const soundOf = (layer: Layer): Sound | undefined => entryOf(layer).sound;

/** Compiles `layer` with the compiler of its type; null when the type draws nothing itself. */
export const compileLayer = (
  layer: Layer,
  win: LayerWindow,
  ctx: GraphContext,
  key: string,
): LayerVideo | null => {
  const out = entryOf(layer).compile?.(layer, win, ctx, key) ?? null;
  // Every type's opacity, rotation, scale and keyframed position are applied to its stream here (motion.ts).
  return out && hasMotion(layer) ? withMotion(layer, win, ctx, out) : out;
};

/** The layers `layers` are drawn as: each expanded by its type (title-background, editly-banner), else itself. */
export const expandLayers = (layers: readonly Layer[]): Layer[] =>
  layers.flatMap((layer) => entryOf(layer).expand?.(layer) ?? [layer]);

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
    let count = 0;
    layers.forEach((configLayer, i) => {
      for (const layer of expandLayers([configLayer]))
        out.push({ key: keyOf(count++), path: `${base}[${i}]`, layer, clip });
    });
  };
  spec.clips.forEach((clip, c) => walk(clip.layers, `clips[${c}].layers`, (n) => `c${c}l${n}`, c));
  walk(spec.globalLayers, "globalLayers", (n) => `g${n}`, -1);
  return out;
};
