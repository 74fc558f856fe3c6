/**
 * HTML/CSS for the text layer family (pure): each layer's box holds the text laid out the way the
 * layer type draws it, and one sheet document holds the boxes of a whole job, so the rasteriser
 * loads one page and takes one screenshot per job instead of one per layer. Outline styles: `outline`
 * paints the stroke beneath the fill (paint-order), `shadow` offsets a soft copy, `glow` blurs around.
 */
import { FIT_ATTRIBUTES, fitRange } from "@media-render/contract/fit-text";
import type { TextLayer } from "../layers/index.ts";
import { cssColor, sizedLength } from "../layers/text-css.ts";
import { textTypeOf } from "../layers/text-types.ts";
import { isTitle } from "../layers/title.ts";

const DEFAULT_FONTS = `"DejaVu Sans", "Liberation Sans", sans-serif`;

const esc = (text: string): string => {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
};

/** Font size in px for a layer in a W x H frame (its type's default unless `fontSize`). */
export const fontSizePx = (layer: TextLayer, W: number, H: number): number => {
  return textTypeOf(layer).fontSize(layer, W, H);
};

/**
 * text-stroke / text-shadow CSS for a title's outlineStyle/outlineColor/outlineWidth ("" for other types). Without
 * `outlineWidth` the width follows the font size: in CSS (`em`) when the layer is fitted, whose size the page decides.
 */
export const outlineCss = (layer: TextLayer, fontSize: number): string => {
  if (!isTitle(layer)) return "";
  const explicit = layer.outlineWidth;
  const width = explicit ?? (layer.outlineColor !== undefined ? Math.max(2, fontSize * 0.05) : 0);
  if (width <= 0) return "";
  const follows = explicit === undefined && fitRange(layer) !== null;
  const w = (n: number) => (follows ? `calc(${n} * max(2px, 0.05em))` : `${width * n}px`);
  const color = cssColor(layer.outlineColor, "#000000");
  if (layer.outlineStyle === "shadow") return `text-shadow:${w(1)} ${w(1)} ${w(1)} ${color};`;
  if (layer.outlineStyle === "glow") return `text-shadow:0 0 ${w(2)} ${color},0 0 ${w(4)} ${color};`;
  return `-webkit-text-stroke:${w(2)} ${color};paint-order:stroke fill;`;
};

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * Splits text into reveal units: words (keeping spaces with them) or letters, a letter being what a reader sees as
 * one (a grapheme cluster: a base with its marks, a Devanagari syllable's parts, an emoji sequence), never half of it.
 */
export const revealUnits = (text: string, by: "word" | "letter"): string[] => {
  return by === "word"
    ? (text.match(/\S+\s*|\s+/g) ?? [])
    : Array.from(graphemes.segment(text), (s) => s.segment);
};

/**
 * What a caption's title layer carries besides a title's fields (captions/caption-layers.ts): the colour of the
 * word being said, a box behind the text, and whether every word shows in every state (only the highlight moves).
 */
export interface CaptionMarks {
  highlightColor?: string;
  backgroundColor?: string;
  showAll?: boolean;
}

const captionMarks = (layer: TextLayer): CaptionMarks | undefined =>
  (layer as TextLayer & { caption?: CaptionMarks }).caption;

/** One layer's box: CSS declarations, and its reveal units when the style reveals progressively. */
export interface TextBox {
  css: string;
  /** Word or letter units (word-by-word / letter-by-letter), else null. */
  units: string[] | null;
  text: string;
  /** A caption's highlight colour: the unit being said is drawn in it. */
  highlight?: string;
  /** Every unit shows in every state (a caption with animation `none` and a highlight). */
  showAll?: boolean;
  /**
   * Fitted into its box (minFontSize/maxFontSize): the range, and the frame's size as the box's outer bounds (a box
   * without a width of its own would grow to hold a word too long for it). Its CSS starts at the maximum; the sheet's
   * fitting script sets the size (rasterize-text.ts).
   */
  fit?: { min: number; max: number; width: number; height: number };
}

/** The font a box is drawn in: an @font-face family of the sheet (uploaded or catalogue font). */
export interface BoxFont {
  family: string;
  weight: number | "normal";
}

/** The box of one layer; `font` is the sheet's face for its `fontPath` or `googleFont`, if any. */
export const textBox = (layer: TextLayer, W: number, H: number, font: BoxFont | null): TextBox => {
  const fit = fitRange(layer);
  const size = fit ? fit.max : fontSizePx(layer, W, H);
  const text = layer.text;
  const family = font
    ? `"${font.family}",${DEFAULT_FONTS}`
    : `${layer.fontFamily !== undefined ? `"${layer.fontFamily.replace(/"/g, "")}",` : ""}${DEFAULT_FONTS}`;
  const weight = font?.weight ?? "normal";
  const color = cssColor(layer.textColor, "#ffffff");
  const title = isTitle(layer) ? layer : null;
  const style =
    title?.style === "word-by-word" ? "word" : title?.style === "letter-by-letter" ? "letter" : null;
  const pad = sizedLength(fit !== null, size, 0.25, (title?.outlineWidth ?? 0) * 4, "up");
  let boxCss = `padding:${pad};`;
  boxCss += textTypeOf(layer).boxCss(layer, size, W);
  const marks = captionMarks(layer);
  if (marks?.backgroundColor !== undefined)
    boxCss += `background:${cssColor(marks.backgroundColor, "rgba(0,0,0,0.7)")};border-radius:${Math.round(size * 0.2)}px;`;
  const css = `font-family:${family};font-weight:${weight};font-size:${size}px;line-height:1.2;color:${color};${outlineCss(layer, size)}${boxCss}`;
  return {
    css,
    units: style ? revealUnits(text, style) : null,
    text,
    ...(marks?.highlightColor === undefined ? {} : { highlight: cssColor(marks.highlightColor, color) }),
    ...(marks?.showAll ? { showAll: true } : {}),
    ...(fit ? { fit: { ...fit, width: W, height: H } } : {}),
  };
};

/** One drawing of a box in the sheet: the whole text, or the first `visible` reveal units. */
export interface SheetCell {
  box: TextBox;
  visible: number;
  /** The unit drawn in the box's highlight colour, if any. */
  highlight?: number;
  /** The cell the page fits (the first of a fitted box's cells), marked with the box's range. */
  fits?: boolean;
}

/**
 * One document with every cell of a job (element ids c0..cn-1), all at the top-left corner until the
 * rasteriser measures and spreads them. Hidden units keep their space, so every state of a reveal
 * has the same size. `faces` are the @font-face rules of the fonts the boxes use. A fitted box's first cell carries
 * its range for the page's fitting script (packages/contract/src/fit-text.ts).
 */
export const textSheet = (faces: readonly string[], cells: SheetCell[]): string => {
  const rules = cells.map((c, i) => `#c${i}{${c.box.css}}`);
  const body = cells.map((c, i) => {
    const inner = c.box.units
      ? c.box.units
          .map((u, n) => {
            const lit = n === c.highlight && c.box.highlight ? ` style="color:${c.box.highlight}"` : "";
            return `<span${n < c.visible ? "" : ' class="h"'}${lit}>${esc(u)}</span>`;
          })
          .join("")
      : esc(c.box.text);
    const fit = c.fits ? c.box.fit : undefined;
    const range = fit
      ? ` ${FIT_ATTRIBUTES.min}="${fit.min}" ${FIT_ATTRIBUTES.max}="${fit.max}" ${FIT_ATTRIBUTES.width}="${fit.width}" ${FIT_ATTRIBUTES.height}="${fit.height}"`
      : "";
    return `<div class="c" id="c${i}"${range}>${inner}</div>`;
  });
  return `<!doctype html><html><head><meta charset="utf-8"><style>${faces.join("\n")}
html,body{margin:0;background:transparent;}
.c{position:absolute;left:0;top:0;display:inline-block;white-space:pre-wrap;overflow-wrap:anywhere;unicode-bidi:plaintext;}
.h{visibility:hidden;}
${rules.join("\n")}
</style></head><body>${body.join("")}</body></html>`;
};
