/**
 * Layers of video jobs (config reference §2.3-2.4, §4). Sizes of media layers are fractions of the frame
 * (0..1); text sizes are pixels except `slide-in-text`, whose `fontSize` is a fraction of the frame width.
 * `start`/`stop` are seconds relative to the clip (absolute in `globalLayers`); default: the whole clip.
 */
import * as v from "valibot";
import {
  HostedCatalogFont,
  catalogFontEntries,
  Color,
  FontFamily,
  Fraction,
  list,
  numberAbove,
  numberIn,
  oneOf,
  PositiveFraction,
  PositiveSeconds,
  Seconds,
  strict,
  text,
  Volume,
} from "./common.ts";
import { AudioRef, FontRef, ImageRef, ShaderRef, VideoRef } from "./file-ref.ts";
import { htmlCommonEntries, htmlVideoEntries } from "./html-layer.ts";
import { ignored } from "./ignored.ts";
import { animated, AnimatedPosition, AnimatedVolume, motionEntries } from "./keyframes.ts";
import { speechLayerEntries } from "./speech.ts";
import {
  GRADIENT_MAX_COLORS,
  GRADIENT_MIN_COLORS,
  MAX_ANIMATION_DURATION,
  MAX_ANIMATION_SPEED,
  MAX_OUTLINE_WIDTH,
  MAX_TEXT_LENGTH,
  VIDEO_MAX_FONT_SIZE,
  VIDEO_MAX_SIZE,
  VIDEO_MIN_FONT_SIZE,
} from "./limits.ts";

const o = v.optional;

const timing = { start: o(Seconds), stop: o(PositiveSeconds) };
/** A size of a video or image layer, as a fraction of the frame: a number or keyframes (keyframes.ts). */
const AnimatedPositiveFraction = animated(PositiveFraction);
/** Keyframable `opacity`, `rotation` and `scale` of every visual layer (keyframes.ts). */
const motion = motionEntries;
const ZoomDirection = v.nullable(oneOf(["in", "out", "left", "right", "up", "down"]));
const kenBurns = { zoomDirection: o(ZoomDirection), zoomAmount: o(Fraction) };
const cut = { cutFrom: o(Seconds), cutTo: o(PositiveSeconds) };
const FontSize = numberIn(VIDEO_MIN_FONT_SIZE, VIDEO_MAX_FONT_SIZE);
const font = { fontPath: o(FontRef), ...catalogFontEntries(HostedCatalogFont), fontFamily: o(FontFamily) };
const Colors = list(Color, GRADIENT_MIN_COLORS, GRADIENT_MAX_COLORS, "colours");
const GradientDirection = oneOf(["horizontal", "vertical", "diagonal"]);

export const videoLayerEntries = {
  type: v.literal("video"),
  path: VideoRef,
  /** Default `contain-blur`. */
  resizeMode: o(oneOf(["contain", "contain-blur", "cover", "stretch"])),
  ...cut,
  width: o(AnimatedPositiveFraction),
  height: o(AnimatedPositiveFraction),
  /** editly placement (prefer `position`). */
  left: o(Fraction),
  top: o(Fraction),
  originX: o(oneOf(["left", "center", "right"])),
  originY: o(oneOf(["top", "center", "bottom"])),
  position: o(AnimatedPosition),
  /** Heard only with `keepSourceAudio: true`. */
  mixVolume: o(Volume),
  ...kenBurns,
  ...motion,
  ...timing,
};

export const audioLayerEntries = {
  type: v.literal("audio"),
  path: AudioRef,
  ...cut,
  /** A volume, or keyframes of volume factors over the layer (keyframes.ts). */
  mixVolume: o(AnimatedVolume),
  ...timing,
};

/** Audio placed at `start` seconds after its clip starts; it may run past the clip. */
export const detachedAudioLayerEntries = {
  ...audioLayerEntries,
  type: v.literal("detached-audio"),
  mixVolume: o(Volume),
};

export const videoImageLayerEntries = {
  type: v.literal("image"),
  path: ImageRef,
  /** Default `cover`. */
  resizeMode: o(oneOf(["contain", "contain-blur", "cover", "stretch"])),
  /** Default `in` (Ken Burns on); `null` disables. */
  ...kenBurns,
  position: o(AnimatedPosition),
  width: o(AnimatedPositiveFraction),
  height: o(AnimatedPositiveFraction),
  ...motion,
  ...timing,
  /** In editly's types, never read by its renderer (its examples carry it): the clip decides the length. */
  duration: ignored(
    PositiveSeconds,
    "an image layer's duration has no effect (editly ignores it too): the layer lasts its clip, or start/stop",
  ),
};

/**
 * An overlay's size: a fraction of the frame (up to 1) or, as JsonCut also takes it, pixels of the configured
 * frame (above 1, at most the largest frame side).
 */
const OverlaySize = numberAbove(0, VIDEO_MAX_SIZE);

export const imageOverlayLayerEntries = {
  type: v.literal("image-overlay"),
  path: ImageRef,
  position: o(AnimatedPosition),
  /** A fraction of the frame width, or pixels above 1. Default: from `height` and the picture, else the frame. */
  width: o(animated(OverlaySize)),
  /** A fraction of the frame height, or pixels above 1. */
  height: o(animated(OverlaySize)),
  ...kenBurns,
  ...motion,
  ...timing,
};

const titleProps = {
  text: text(MAX_TEXT_LENGTH),
  textColor: o(Color),
  fontSize: o(FontSize),
  ...font,
  position: o(AnimatedPosition),
  /** Default `fade-in`. */
  style: o(oneOf(["fade-in", "word-by-word", "letter-by-letter"])),
  /** Seconds the word/letter reveal takes. */
  animationDuration: o(numberAbove(0, MAX_ANIMATION_DURATION)),
  ...kenBurns,
  outlineColor: o(Color),
  outlineWidth: o(numberIn(0, MAX_OUTLINE_WIDTH)),
  outlineStyle: o(oneOf(["outline", "shadow", "glow"])),
  ...motion,
  ...timing,
};

export const titleLayerEntries = { type: v.literal("title"), ...titleProps };

/**
 * editly's banner clock: the animation runs on `(progress - delay) * speed`, progress being the fraction
 * of the layer shown so far, so `delay` is a fraction of the layer's length (0.5 = half way), not seconds.
 */
const bannerAnimation = { delay: o(Seconds), speed: o(numberAbove(0, MAX_ANIMATION_SPEED)) };

export const subtitleLayerEntries = {
  type: v.literal("subtitle"),
  text: text(MAX_TEXT_LENGTH),
  textColor: o(Color),
  fontSize: o(FontSize),
  ...font,
  position: o(AnimatedPosition),
  backgroundColor: o(Color),
  ...bannerAnimation,
  ...motion,
  ...timing,
};

export const newsTitleLayerEntries = { ...subtitleLayerEntries, type: v.literal("news-title") };

export const TitleBackground = strict("title-background background", {
  type: oneOf(["fill-color", "linear-gradient", "radial-gradient"]),
  color: o(Color),
  colors: o(Colors),
  direction: o(GradientDirection),
});

export const titleBackgroundLayerEntries = {
  type: v.literal("title-background"),
  ...titleProps,
  /** Default: a random background type with random colours. */
  background: o(TitleBackground),
};

export const slideInTextLayerEntries = {
  type: v.literal("slide-in-text"),
  text: text(MAX_TEXT_LENGTH),
  /** Fraction of the frame width (default 0.05). */
  fontSize: o(PositiveFraction),
  charSpacing: o(numberIn(0, 1)),
  textColor: o(Color),
  ...font,
  position: o(AnimatedPosition),
  ...motion,
  ...timing,
};

export const fillColorLayerEntries = { type: v.literal("fill-color"), color: o(Color), ...motion, ...timing };
export const linearGradientLayerEntries = {
  type: v.literal("linear-gradient"),
  colors: o(Colors),
  /**
   * Default: editly's ramp (from the top-left corner of a rect twice the frame's size to its centre);
   * either way the gradient turns 30 degrees clockwise over the layer, like editly's.
   */
  direction: o(GradientDirection),
  ...motion,
  ...timing,
};
export const radialGradientLayerEntries = {
  type: v.literal("radial-gradient"),
  colors: o(Colors),
  ...motion,
  ...timing,
};
export const rainbowColorsLayerEntries = { type: v.literal("rainbow-colors"), ...motion, ...timing };
/** A still colour screen (black unless `color` is given). */
export const pauseLayerEntries = { type: v.literal("pause"), color: o(Color), ...motion, ...timing };

/**
 * editly's closing banner: its linear gradient (seeded colours, as without `colors`) under a title reading
 * "Made with / EDITLY / mifi.no", in the layer's font.
 */
export const editlyBannerLayerEntries = { type: v.literal("editly-banner"), ...font, ...motion, ...timing };

export const videoHtmlLayerEntries = { ...htmlCommonEntries, ...htmlVideoEntries, ...motion, ...timing };

/** The largest inline fragment shader (UTF-8 bytes). */
export const GL_SHADER_MAX_BYTES = 64 * 1024;

/**
 * editly's `gl` layer: a full-frame fragment shader (GLSL ES 1.0) drawn on the renderer's WebGL page, with
 * editly's uniforms `time` (seconds into the layer × `speed`) and `resolution` (pixels). The shader is
 * given inline (`fragmentShader`) or, like editly's `fragmentPath`, as a file: an uploaded GLSL text file
 * (its storage path, category `shader`) or a public URL ending in .glsl/.frag/.fs. One of the two.
 */
export const glLayerEntries = {
  type: v.literal("gl"),
  fragmentShader: o(
    v.pipe(
      v.string("must be the GLSL source of a fragment shader"),
      v.minLength(1, "must be the GLSL source of a fragment shader"),
      v.maxLength(GL_SHADER_MAX_BYTES, `must be at most ${GL_SHADER_MAX_BYTES / 1024} KB`),
    ),
  ),
  fragmentPath: o(ShaderRef),
  /** Multiplies `time` (default 1). */
  speed: o(numberAbove(0, 100)),
  ...motion,
  ...timing,
};

/** Every video layer type with its entries. */
export const VIDEO_LAYER_ENTRIES = {
  video: videoLayerEntries,
  audio: audioLayerEntries,
  "detached-audio": detachedAudioLayerEntries,
  speech: speechLayerEntries,
  image: videoImageLayerEntries,
  "image-overlay": imageOverlayLayerEntries,
  title: titleLayerEntries,
  subtitle: subtitleLayerEntries,
  "news-title": newsTitleLayerEntries,
  "title-background": titleBackgroundLayerEntries,
  "slide-in-text": slideInTextLayerEntries,
  "fill-color": fillColorLayerEntries,
  "linear-gradient": linearGradientLayerEntries,
  "radial-gradient": radialGradientLayerEntries,
  "rainbow-colors": rainbowColorsLayerEntries,
  pause: pauseLayerEntries,
  "editly-banner": editlyBannerLayerEntries,
  html: videoHtmlLayerEntries,
  gl: glLayerEntries,
};

/** Types `globalLayers` refuses, with the reason given to the user. */
export const GLOBAL_LAYER_FORBIDDEN: Record<string, string> = {
  video: '"video" layers are not allowed in globalLayers: put them in a clip',
  audio: '"audio" layers are not allowed in globalLayers: use audioTracks',
  "detached-audio": '"detached-audio" layers are not allowed in globalLayers: use audioTracks',
  speech: '"speech" layers are not allowed in globalLayers: use audioTracks (an entry with "type": "speech")',
};
