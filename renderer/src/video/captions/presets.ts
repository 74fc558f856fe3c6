/**
 * Caption presets (`autoSubtitlesStyle.preset`, pure): how a preset draws a caption's words from their timings.
 * - `karaoke`: the caption whole in textColor; each word fills with highlightColor, left to right, while it is said,
 *   and stays filled (the graph's wipe, word-motion.ts).
 * - `pop`: each word appears as it is said, scaling in about its centre (the graph's scale, word-motion.ts).
 * - `box`: the caption whole; a rounded box of highlightColor behind the word being said (one drawn state per word,
 *   switched at the frame the word starts, as word-by-word reveals are).
 * - `one-word`: one word at a time, large, centred: every word is a caption of its own, from its start until the next
 *   word starts (or its caption's end); the transcript and caption files keep the phrase cues.
 * Every preset takes its times from the words: transcribed or spoken words carry their own; a captions file's cue
 * spreads its time over its words by their length in characters (caption-file.ts).
 */
import type { AutoSubtitlesStyle } from "../types.ts";
import type { CaptionMarks } from "../raster/text-html.ts";
import { oneWordCues, type Cue } from "./layout.ts";

/** Documented defaults of the presets (docs/voice-and-captions.md). */
export const PRESET_DEFAULTS = {
  /** karaoke's fill and box's box when highlightColor is absent. */
  karaokeColor: "#ffd400",
  boxColor: "#7c3aed",
  /** one-word's font size, of the frame's smaller side, and its place. */
  oneWordFontFraction: 0.12,
  oneWordPosition: "center",
} as const;

/** The caption marks of a preset (what the rasteriser draws besides the title). */
export const presetMarks = (style: AutoSubtitlesStyle): CaptionMarks => {
  switch (style.preset) {
    case "karaoke":
      return {
        wordMotion: "wipe",
        fillColor: style.highlightColor ?? PRESET_DEFAULTS.karaokeColor,
        showAll: true,
      };
    case "pop":
      return { wordMotion: "pop" };
    case "box":
      return { wordBox: style.highlightColor ?? PRESET_DEFAULTS.boxColor, showAll: true };
    default:
      return { showAll: true };
  }
};

/**
 * The cues as drawn: one cue per word for `one-word` (each held until the next word of its cue starts, the last until
 * its cue ends), else the cues themselves.
 */
export const drawnCues = (cues: readonly Cue[], style: AutoSubtitlesStyle): readonly Cue[] =>
  style.preset === "one-word"
    ? cues.flatMap((c) => oneWordCues(c.lines.flat(), c.end - c.start, c.end))
    : cues;

/**
 * When each word of `cue` is said, in seconds from the cue's start, for `units` drawn units (the rasteriser's words:
 * unit i is word i; unspaced scripts draw fewer units than words, the last unit then ends with the last word).
 */
export const wordTimes = (cue: Cue, units: number): { start: number; end: number }[] => {
  const words = cue.lines.flat();
  return Array.from({ length: units }, (_, i) => {
    const w = words[Math.min(i, words.length - 1)]!;
    const last = i === units - 1 ? words.at(-1)! : w;
    return { start: Math.max(0, w.start - cue.start), end: Math.max(0, last.end - cue.start) };
  });
};
