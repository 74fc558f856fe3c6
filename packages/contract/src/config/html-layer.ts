/**
 * The `html` layer, shared by image and video jobs (config reference §4). Image jobs add placement and
 * effects (`x`, `y`, `opacity`, `rotation`, `blur`); video jobs add `animated`, `duration`, `start`, `stop`.
 * "Exactly one of html/src" is a cross-field rule (`htmlLayerIssues`), run by both jobs' tables of layer types.
 */
import * as v from "valibot";
import { bool, FontFamilySpec, list, numberAbove, numberIn, PositivePx, Position } from "./common.ts";
import {
  CSS_MAX_BYTES,
  HTML_MAX_ANIMATED_DURATION,
  HTML_MAX_BYTES,
  HTML_MAX_GOOGLE_FONTS,
  HTML_MAX_WAIT,
  HTML_SRC_MAX_LENGTH,
} from "./limits.ts";
import type { RuleIssue } from "./rules.ts";

const utf8Length = (s: string): number => new TextEncoder().encode(s).length;

/**
 * A string of at most `bytes` UTF-8 bytes. The character cap is what JSON Schema can express (a looser
 * bound, since a character is at least one byte); the byte check is the real rule.
 */
const sizedText = (bytes: number, what: string) =>
  v.pipe(
    v.string(`must be a string of ${what}`),
    v.maxLength(bytes, `must be at most ${bytes / 1024} KB`),
    // Over the character cap is already reported; say it once.
    v.check((s) => s.length > bytes || utf8Length(s) <= bytes, `must be at most ${bytes / 1024} KB (UTF-8)`),
  );

/** A live page to capture: https only. */
export const HtmlSrc = v.pipe(
  v.string("must be an https URL"),
  v.maxLength(HTML_SRC_MAX_LENGTH, `must be at most ${HTML_SRC_MAX_LENGTH} characters`),
  v.regex(/^https:\/\/[^\s/?#]+(?:[/?#]\S*)?$/, "must be an https URL"),
  v.check((src) => {
    if (!src.startsWith("https://")) return true; // already reported by the pattern
    try {
      return new URL(src).protocol === "https:";
    } catch {
      return false;
    }
  }, "must be a valid https URL"),
);

/** Properties every html layer has, whatever the job type. */
export const htmlCommonEntries = {
  type: v.literal("html"),
  html: v.optional(sizedText(HTML_MAX_BYTES, "HTML markup")),
  src: v.optional(HtmlSrc),
  css: v.optional(sizedText(CSS_MAX_BYTES, "CSS")),
  tailwindcss: v.optional(bool()),
  googleFonts: v.optional(list(FontFamilySpec, 0, HTML_MAX_GOOGLE_FONTS, "font families")),
  /** Settle time before capture. */
  wait: v.optional(numberIn(0, HTML_MAX_WAIT)),
  /** Preloads the curated library set (was `allowJavaScript` before 1.4.0). */
  enableLibraries: v.optional(bool()),
  width: v.optional(PositivePx),
  height: v.optional(PositivePx),
  position: v.optional(Position),
};

/** Video-only html properties. */
export const htmlVideoEntries = {
  animated: v.optional(bool()),
  /** Recording length of an animated layer (default 5 s). */
  duration: v.optional(numberAbove(0, HTML_MAX_ANIMATED_DURATION)),
};

/** Exactly one of `html` (markup) and `src` (a page to capture). */
export const htmlLayerIssues = (layer: Record<string, unknown>): RuleIssue[] => {
  const count = Number(layer.html !== undefined) + Number(layer.src !== undefined);
  if (count === 0)
    return [{ path: ["html"], message: 'an html layer needs "html" (markup) or "src" (an https URL)' }];
  return count === 2 ? [{ path: ["src"], message: '"html" and "src" cannot be combined: use one' }] : [];
};

/** `htmlLayerIssues` as JSON Schema states it (served only). */
export const HTML_JSON_RULE = { oneOf: [{ required: ["html"] }, { required: ["src"] }] };
