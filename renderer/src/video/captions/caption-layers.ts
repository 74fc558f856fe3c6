/**
 * Cues drawn as the renderer's own title layers (pure), so captions go through the same text rasteriser as
 * titles: `autoSubtitlesStyle` maps onto a title's textColor, fontSize, fontPath / googleFont, position and
 * outline, and its animation onto the word-by-word / letter-by-letter reveal. The reveal follows the spoken
 * words: `revealTimes` gives each reveal state the time its word (or letter) is said.
 */
import type { AutoSubtitlesStyle, Layer, VideoSpec } from "../types.ts";
import { fontFaceFiles } from "../../fonts/files.ts";
import { textMeasurer } from "../../fonts/measure.ts";
import { revealUnits, type CaptionMarks } from "../raster/text-html.ts";
import { PRESET_DEFAULTS, presetMarks } from "./presets.ts";
import { charsPerLine, cueText, DEFAULT_LAYOUT, type CaptionLayoutOptions, type Cue } from "./layout.ts";

/** Documented defaults of autoSubtitlesStyle (the reference leaves them open; docs/auto-subtitles.md states these). */
export const CAPTION_DEFAULTS = {
  animation: "word-by-word",
  textColor: "#ffffff",
  outlineColor: "#000000",
  outlineStyle: "outline",
  position: "bottom",
  /** Of the frame's smaller side. */
  fontSizeFraction: 0.065,
} as const;

/** Caption font size in output pixels. */
export const captionFontSize = (style: AutoSubtitlesStyle, spec: VideoSpec): number => {
  if (style.fontSize !== undefined) return style.fontSize * spec.pixelScale;
  const fraction =
    style.preset === "one-word" ? PRESET_DEFAULTS.oneWordFontFraction : CAPTION_DEFAULTS.fontSizeFraction;
  return Math.round(Math.min(spec.width, spec.height) * fraction);
};

/** The caption text as drawn: in capitals with `allCaps`. */
const drawn = (style: AutoSubtitlesStyle, text: string) => (style.allCaps ? text.toLocaleUpperCase() : text);

/** The animation captions get: the style's, else `none` for a captions file and `word-by-word` otherwise. */
export const captionAnimation = (style: AutoSubtitlesStyle, spec: VideoSpec) =>
  style.preset !== undefined
    ? "word-by-word"
    : (style.animation ?? (spec.subtitles?.file !== undefined ? "none" : CAPTION_DEFAULTS.animation));

/**
 * The layout options for captions in `spec`: a title box is at most 80 % of the frame wide, less padding; a
 * line is measured in the caption's own font files (fonts/measure.ts), capitals included.
 */
export const captionLayoutOptions = (style: AutoSubtitlesStyle, spec: VideoSpec): CaptionLayoutOptions => {
  const size = captionFontSize(style, spec);
  const outline = (style.outlineWidth ?? 0) * spec.pixelScale;
  const pad = Math.ceil(size * 0.25 + outline * 4);
  const files =
    style.fontPath !== undefined
      ? [style.fontPath]
      : style.googleFont !== undefined
        ? fontFaceFiles(String(style.googleFont), spec.fonts).files
        : [];
  const width = textMeasurer(files, size);
  const maxWidth = spec.width * 0.8 - 2 * pad;
  return {
    ...DEFAULT_LAYOUT,
    maxLines: style.maxLines ?? DEFAULT_LAYOUT.maxLines,
    maxWordsPerLine: style.wordsPerLine,
    maxCharsPerLine: charsPerLine(maxWidth, size),
    charLimit: style.maxCharsPerLine,
    measure: (text) => width(drawn(style, text)),
    maxWidth,
  };
};

/** A global title layer showing `cue` in `style` over [cue.start, cue.end] of the output. */
export const captionLayer = (cue: Cue, style: AutoSubtitlesStyle, spec: VideoSpec): Layer => {
  const animation = captionAnimation(style, spec);
  const highlight = style.highlightColor;
  // `none`: the whole cue at once; with a highlight it is a word-by-word title whose states all show every word. A
  // preset is a word-by-word title drawn its way (presets.ts).
  const whole = animation === "none" && highlight === undefined;
  const caption: CaptionMarks =
    style.preset !== undefined
      ? { ...presetMarks(style), backgroundColor: style.backgroundColor }
      : { highlightColor: highlight, backgroundColor: style.backgroundColor, showAll: animation === "none" };
  const position =
    style.position ??
    (style.preset === "one-word" ? PRESET_DEFAULTS.oneWordPosition : CAPTION_DEFAULTS.position);
  return {
    type: "title",
    text: drawn(style, cueText(cue)),
    // A whole cue is a title that fades in over one frame: it starts a frame early, so it is opaque at cue.start.
    start: whole ? Math.max(0, cue.start - 1 / spec.fps) : cue.start,
    stop: cue.end,
    style: whole ? "fade-in" : animation === "none" ? "word-by-word" : animation,
    ...(whole ? { animationDuration: 1 / spec.fps, zoomDirection: null } : {}),
    caption,
    textColor: style.textColor ?? CAPTION_DEFAULTS.textColor,
    fontSize: captionFontSize(style, spec),
    fontPath: style.fontPath,
    googleFont: style.googleFont,
    position,
    outlineColor: style.outlineColor ?? CAPTION_DEFAULTS.outlineColor,
    outlineWidth: style.outlineWidth === undefined ? undefined : style.outlineWidth * spec.pixelScale,
    outlineStyle: style.outlineStyle ?? CAPTION_DEFAULTS.outlineStyle,
  } as Layer;
};

/**
 * When each of a caption's `states` reveal states starts, in seconds from the cue's start: state s shows the
 * first round((s+1)·units/states) units (the rasteriser's grouping), so it starts when its last unit is said.
 * Letters of a word are spread evenly over the word; state 0 starts with the cue.
 */
export const revealTimes = (cue: Cue, by: "word" | "letter", states: number): number[] => {
  const words = cue.lines.flat();
  const text = cueText(cue);
  const units = revealUnits(text, by);
  const unitTimes: number[] = [];
  if (by === "word") {
    units.forEach((_, i) => unitTimes.push(words[Math.min(i, words.length - 1)]!.start));
  } else {
    let w = 0;
    let k = 0;
    let previous = cue.start;
    for (const ch of units) {
      const word = words[w];
      if (word === undefined || /\s/.test(ch)) {
        unitTimes.push(previous);
        continue;
      }
      const letters = [...word.text].length;
      previous = word.start + ((word.end - word.start) * k) / letters;
      unitTimes.push(previous);
      if (++k === letters) {
        w++;
        k = 0;
      }
    }
  }
  const unitCount = units.length;
  return Array.from({ length: states }, (_, state) => {
    if (state === 0 || unitCount === 0) return 0;
    const visible = Math.round(((state + 1) * unitCount) / states);
    return Math.max(0, (unitTimes[visible - 1] ?? cue.start) - cue.start);
  });
};
