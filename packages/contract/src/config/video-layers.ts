/**
 * The properties of each layer type of video jobs (config reference §2.3-2.4, §4); the table of the types is
 * video-layer-types.ts. Sizes of media layers are fractions of the frame
 * (0..1); text sizes are pixels except `slide-in-text`, whose `fontSize` is a fraction of the frame width.
 * `start`/`stop` are seconds relative to the clip (absolute in `globalLayers`); default: the whole clip.
 */
import * as v from "valibot";
import {
  bool,
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
import { fitFontSizeEntries } from "../fit-text.ts";
import { htmlCommonEntries, htmlVideoEntries } from "./html-layer.ts";
import { ignored } from "./ignored.ts";
import { animated, AnimatedPosition, AnimatedVolume, motionEntries } from "./keyframes.ts";
import {
  GRADIENT_MAX_COLORS,
  GRADIENT_MIN_COLORS,
  MAX_ANIMATION_DURATION,
  MAX_ANIMATION_SPEED,
  MAX_OUTLINE_WIDTH,
  MAX_TEXT_LENGTH,
  MAX_VIDEO_SPEED,
  MIN_VIDEO_SPEED,
  VIDEO_MAX_FONT_SIZE,
  VIDEO_MAX_SIZE,
  VIDEO_MIN_FONT_SIZE,
} from "./limits.ts";
import type { RuleIssue } from "./rules.ts";

const optional = v.optional;

const timing = { start: optional(Seconds), stop: optional(PositiveSeconds) };
/** A size of a video or image layer, as a fraction of the frame: a number or keyframes (keyframes.ts). */
const AnimatedPositiveFraction = animated(PositiveFraction);
/** Keyframable `opacity`, `rotation` and `scale` of every visual layer (keyframes.ts). */
const motion = motionEntries;
const ZoomDirection = v.nullable(oneOf(["in", "out", "left", "right", "up", "down"]));
const kenBurns = { zoomDirection: optional(ZoomDirection), zoomAmount: optional(Fraction) };
const cut = { cutFrom: optional(Seconds), cutTo: optional(PositiveSeconds) };
/**
 * An animated picture (GIF, WebP) plays at its own frame timing from the layer's start: `loop` (default true)
 * repeats it for as long as the layer lasts, `false` plays it once and holds its last frame. A still ignores it.
 */
const animation = {
  loop: optional(
    v.pipe(
      bool(),
      v.description(
        "An animated GIF or WebP plays at its own frame timing from the layer's start; true (default) repeats it for as long as the layer lasts, false plays it once and holds its last frame. A still ignores it.",
      ),
    ),
  ),
};
/**
 * A moving picture (a video by its storage path, an animated GIF or WebP) drawn as a still: the frame a video layer
 * cut from this second shows first (a video: the first frame at or after it; an animated picture: the frame on screen
 * then). A still picture ignores it; at or after the file's end it draws nothing (refused for stored files).
 */
const frame = {
  frameTime: optional(
    v.pipe(
      Seconds,
      v.description(
        "Draws one frame of a moving picture as a still: of a video (by its storage path: an upload or an imported file) the first frame at or after this second, the frame a video layer cut from here shows first; of an animated GIF or WebP the frame on screen then. A still picture ignores it; at or after the file's end the layer draws nothing (refused for stored videos of known length).",
      ),
    ),
  ),
};
const FontSize = numberIn(VIDEO_MIN_FONT_SIZE, VIDEO_MAX_FONT_SIZE);
/** One pair of schemas for every type, so `defaults.layer` reads one schema per key (layer-set.ts). */
const fitEntries = fitFontSizeEntries(
  FontSize,
  "its box (a title: 80 % of the frame's width; a subtitle or news-title band: the frame's width) and the frame's height",
);
const font = {
  fontPath: optional(FontRef),
  ...catalogFontEntries(HostedCatalogFont),
  fontFamily: optional(FontFamily),
};
const Colors = list(Color, GRADIENT_MIN_COLORS, GRADIENT_MAX_COLORS, "colours");
const GradientDirection = oneOf(["horizontal", "vertical", "diagonal"]);

export const videoLayerEntries = {
  type: v.literal("video"),
  path: VideoRef,
  /** Default `contain-blur`. */
  resizeMode: optional(oneOf(["contain", "contain-blur", "cover", "stretch"])),
  ...cut,
  /**
   * Plays the cut this many times as fast (0.25-4); the layer's length follows: a clip without `duration` lasts the
   * cut divided by it. Its sound keeps its pitch. Given, the cut is never stretched to the clip.
   */
  speed: optional(
    v.pipe(
      numberIn(MIN_VIDEO_SPEED, MAX_VIDEO_SPEED),
      v.description(
        `Plays the cut this many times as fast (${MIN_VIDEO_SPEED}-${MAX_VIDEO_SPEED}); a clip without duration lasts the cut divided by it. The sound keeps its pitch. Given, the cut is never stretched to the clip.`,
      ),
    ),
  ),
  /** Repeats the cut (at `speed`) for as long as the layer lasts, instead of holding its last frame. */
  loop: optional(
    v.pipe(
      bool(),
      v.description(
        "Repeats the cut (at its speed) for as long as the layer lasts, instead of holding its last frame; its sound repeats with it. Does not lengthen a clip without duration.",
      ),
    ),
  ),
  width: optional(AnimatedPositiveFraction),
  height: optional(AnimatedPositiveFraction),
  /** editly placement (prefer `position`). */
  left: optional(Fraction),
  top: optional(Fraction),
  originX: optional(oneOf(["left", "center", "right"])),
  originY: optional(oneOf(["top", "center", "bottom"])),
  position: optional(AnimatedPosition),
  /** Heard only with `keepSourceAudio: true`. */
  mixVolume: optional(Volume),
  ...kenBurns,
  ...motion,
  ...timing,
};

export const audioLayerEntries = {
  type: v.literal("audio"),
  path: AudioRef,
  ...cut,
  /** A volume, or keyframes of volume factors over the layer (keyframes.ts). */
  mixVolume: optional(AnimatedVolume),
  ...timing,
};

/** Audio placed at `start` seconds after its clip starts; it may run past the clip. */
export const detachedAudioLayerEntries = {
  ...audioLayerEntries,
  type: v.literal("detached-audio"),
  mixVolume: optional(Volume),
};

export const videoImageLayerEntries = {
  type: v.literal("image"),
  path: ImageRef,
  /** Default `cover`. */
  resizeMode: optional(oneOf(["contain", "contain-blur", "cover", "stretch"])),
  /** Default `in` (Ken Burns on); `null` disables. */
  ...kenBurns,
  position: optional(AnimatedPosition),
  width: optional(AnimatedPositiveFraction),
  height: optional(AnimatedPositiveFraction),
  ...motion,
  ...animation,
  ...frame,
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
  position: optional(AnimatedPosition),
  /** A fraction of the frame width, or pixels above 1. Default: from `height` and the picture, else the frame. */
  width: optional(animated(OverlaySize)),
  /** A fraction of the frame height, or pixels above 1. */
  height: optional(animated(OverlaySize)),
  ...kenBurns,
  ...motion,
  ...animation,
  ...frame,
  ...timing,
};

const titleProps = {
  text: text(MAX_TEXT_LENGTH),
  textColor: optional(Color),
  fontSize: optional(FontSize),
  ...fitEntries,
  ...font,
  position: optional(AnimatedPosition),
  /** Default `fade-in`. */
  style: optional(oneOf(["fade-in", "word-by-word", "letter-by-letter"])),
  /** Seconds the word/letter reveal takes. */
  animationDuration: optional(numberAbove(0, MAX_ANIMATION_DURATION)),
  ...kenBurns,
  outlineColor: optional(Color),
  outlineWidth: optional(numberIn(0, MAX_OUTLINE_WIDTH)),
  outlineStyle: optional(oneOf(["outline", "shadow", "glow"])),
  ...motion,
  ...timing,
};

export const titleLayerEntries = { type: v.literal("title"), ...titleProps };

/**
 * editly's banner clock: the animation runs on `(progress - delay) * speed`, progress being the fraction
 * of the layer shown so far, so `delay` is a fraction of the layer's length (0.5 = half way), not seconds.
 */
const bannerAnimation = { delay: optional(Seconds), speed: optional(numberAbove(0, MAX_ANIMATION_SPEED)) };

export const subtitleLayerEntries = {
  type: v.literal("subtitle"),
  text: text(MAX_TEXT_LENGTH),
  textColor: optional(Color),
  fontSize: optional(FontSize),
  ...fitEntries,
  ...font,
  position: optional(AnimatedPosition),
  backgroundColor: optional(Color),
  ...bannerAnimation,
  ...motion,
  ...timing,
};

export const newsTitleLayerEntries = { ...subtitleLayerEntries, type: v.literal("news-title") };

export const TitleBackground = strict("title-background background", {
  type: oneOf(["fill-color", "linear-gradient", "radial-gradient"]),
  color: optional(Color),
  colors: optional(Colors),
  direction: optional(GradientDirection),
});

export const titleBackgroundLayerEntries = {
  type: v.literal("title-background"),
  ...titleProps,
  /** Default: a random background type with random colours. */
  background: optional(TitleBackground),
};

export const slideInTextLayerEntries = {
  type: v.literal("slide-in-text"),
  text: text(MAX_TEXT_LENGTH),
  /** Fraction of the frame width (default 0.05). */
  fontSize: optional(PositiveFraction),
  charSpacing: optional(numberIn(0, 1)),
  textColor: optional(Color),
  ...font,
  position: optional(AnimatedPosition),
  ...motion,
  ...timing,
};

export const fillColorLayerEntries = {
  type: v.literal("fill-color"),
  color: optional(Color),
  ...motion,
  ...timing,
};
export const linearGradientLayerEntries = {
  type: v.literal("linear-gradient"),
  colors: optional(Colors),
  /**
   * Default: editly's ramp (from the top-left corner of a rect twice the frame's size to its centre);
   * either way the gradient turns 30 degrees clockwise over the layer, like editly's.
   */
  direction: optional(GradientDirection),
  ...motion,
  ...timing,
};
export const radialGradientLayerEntries = {
  type: v.literal("radial-gradient"),
  colors: optional(Colors),
  ...motion,
  ...timing,
};
export const rainbowColorsLayerEntries = { type: v.literal("rainbow-colors"), ...motion, ...timing };
/** A still colour screen (black unless `color` is given). */
export const pauseLayerEntries = { type: v.literal("pause"), color: optional(Color), ...motion, ...timing };

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
/** Exactly one of `fragmentShader` (GLSL text) and `fragmentPath` (an uploaded file). */
export const glLayerIssues = (layer: Record<string, unknown>): RuleIssue[] => {
  const count = Number(layer.fragmentShader !== undefined) + Number(layer.fragmentPath !== undefined);
  if (count === 0)
    return [
      {
        path: ["fragmentShader"],
        message: 'a gl layer needs "fragmentShader" (GLSL text) or "fragmentPath" (an uploaded .glsl file)',
      },
    ];
  return count === 2
    ? [{ path: ["fragmentPath"], message: '"fragmentShader" and "fragmentPath" cannot be combined: use one' }]
    : [];
};

export const glLayerEntries = {
  type: v.literal("gl"),
  fragmentShader: optional(
    v.pipe(
      v.string("must be the GLSL source of a fragment shader"),
      v.minLength(1, "must be the GLSL source of a fragment shader"),
      v.maxLength(GL_SHADER_MAX_BYTES, `must be at most ${GL_SHADER_MAX_BYTES / 1024} KB`),
    ),
  ),
  fragmentPath: optional(ShaderRef),
  /** Multiplies `time` (default 1). */
  speed: optional(numberAbove(0, 100)),
  ...motion,
  ...timing,
};
