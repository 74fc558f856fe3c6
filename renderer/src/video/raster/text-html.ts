/**
 * HTML/CSS for the text layer family (pure): each layer's box holds the text laid out the way the
 * layer type draws it, and one sheet document holds the boxes of a whole job, so the rasteriser
 * loads one page and takes one screenshot per job instead of one per layer. Outline styles: `outline`
 * paints the stroke beneath the fill (paint-order), `shadow` offsets a soft copy, `glow` blurs around.
 */
import { FIT_ATTRIBUTES } from "@media-render/contract/fit-text";
import { isTitle, textTypeOf, type TextLayer } from "../layers/index.ts";
import { cssColor, fitRangeOf, sizedLength } from "../layers/text-type.ts";

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
  const follows = explicit === undefined && fitRangeOf(textTypeOf(layer), layer) !== null;
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
  /** The `box` preset: a rounded box of this colour behind the unit being said. */
  wordBox?: string;
  /**
   * The `karaoke` and `pop` presets: besides the whole caption (every unit, or none for `pop`), each unit is drawn on
   * its own (in `fillColor` when given) for the graph to move (captions/word-motion.ts).
   */
  wordMotion?: "wipe" | "pop";
  fillColor?: string;
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
  /** A caption's box colour behind the unit being said (the `box` preset). */
  wordBox?: string;
  /** A caption preset whose units the graph moves one by one, and the colour they are drawn in. */
  wordMotion?: "wipe" | "pop";
  fill?: string;
  /** A caption: each unit's word is wrapped in its own span (measured, boxed). */
  caption?: boolean;
  /** Padding around the text, px (room for its outline); a fitted box's at its maximum (captions are never fitted). */
  pad: number;
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
export const textBox = (
  layer: TextLayer,
  frameWidth: number,
  frameHeight: number,
  font: BoxFont | null,
): TextBox => {
  const fit = fitRangeOf(textTypeOf(layer), layer);
  const size = fit ? fit.max : fontSizePx(layer, frameWidth, frameHeight);
  const text = layer.text;
  const family = font
    ? `"${font.family}",${DEFAULT_FONTS}`
    : `${layer.fontFamily !== undefined ? `"${layer.fontFamily.replace(/"/g, "")}",` : ""}${DEFAULT_FONTS}`;
  const weight = font?.weight ?? "normal";
  const color = cssColor(layer.textColor, "#ffffff");
  const title = isTitle(layer) ? layer : null;
  const style =
    title?.style === "word-by-word" ? "word" : title?.style === "letter-by-letter" ? "letter" : null;
  const pad = Math.ceil(size * 0.25 + (title?.outlineWidth ?? 0) * 4);
  let boxCss = `padding:${sizedLength(fit !== null, size, 0.25, (title?.outlineWidth ?? 0) * 4, "up")};`;
  boxCss += textTypeOf(layer).boxCss(layer, size, frameWidth);
  const marks = captionMarks(layer);
  if (marks?.backgroundColor !== undefined)
    boxCss += `background:${cssColor(marks.backgroundColor, "rgba(0,0,0,0.7)")};border-radius:${Math.round(size * 0.2)}px;`;
  const css = `font-family:${family};font-weight:${weight};font-size:${size}px;line-height:1.2;color:${color};${outlineCss(layer, size)}${boxCss}`;
  return {
    css,
    units: style ? revealUnits(text, style) : null,
    text,
    pad,
    ...(marks?.highlightColor === undefined ? {} : { highlight: cssColor(marks.highlightColor, color) }),
    ...(marks?.showAll ? { showAll: true } : {}),
    ...(marks?.wordBox === undefined ? {} : { wordBox: cssColor(marks.wordBox, color) }),
    ...(marks?.wordMotion === undefined ? {} : { wordMotion: marks.wordMotion }),
    ...(marks?.fillColor === undefined ? {} : { fill: cssColor(marks.fillColor, color) }),
    ...(marks?.wordBox !== undefined || marks?.wordMotion !== undefined ? { caption: true } : {}),
    ...(fit ? { fit: { ...fit, width: frameWidth, height: frameHeight } } : {}),
  };
};

/** The box behind a word of the `box` preset: rounded, a little larger than the word (no change to the layout). */
const wordBoxCss = (color: string): string =>
  `background:${color};border-radius:0.22em;box-shadow:0 0 0 0.12em ${color};`;

/** One drawing of a box in the sheet: the whole text, or the first `visible` reveal units. */
export interface SheetCell {
  box: TextBox;
  visible: number;
  /** The unit drawn in the box's highlight colour (or on its word box), if any. */
  highlight?: number;
  /** Only this unit is drawn (in the box's `fill` colour when it has one): a caption preset's word on its own. */
  only?: number;
  /** The cell the page fits (the first of a fitted box's cells), marked with the box's range. */
  fits?: boolean;
}

/** One unit's span in a cell: hidden, lit, boxed or filled as the cell says; a caption's word in a span of its own. */
const unitHtml = (cell: SheetCell, unit: string, index: number): string => {
  const shown = cell.only === undefined ? index < cell.visible : index === cell.only;
  const lit = index === cell.highlight && cell.box.highlight ? `color:${cell.box.highlight};` : "";
  const fill = index === cell.only && cell.box.fill ? `color:${cell.box.fill};` : "";
  const style = lit || fill ? ` style="${lit}${fill}"` : "";
  const hidden = shown ? "" : ' class="h"';
  if (!cell.box.caption) return `<span${hidden}${style}>${esc(unit)}</span>`;
  const word = unit.trimEnd();
  const boxed =
    index === cell.highlight && cell.box.wordBox ? ` style="${wordBoxCss(cell.box.wordBox)}"` : "";
  return `<span${hidden}${style}><span class="w"${boxed}>${esc(word)}</span>${esc(unit.slice(word.length))}</span>`;
};

/**
 * One document with every cell of a job (element ids c0..cn-1), all at the top-left corner until the
 * rasteriser measures and spreads them. Hidden units keep their space, so every state of a reveal
 * has the same size. `faces` are the @font-face rules of the fonts the boxes use. A fitted box's first cell carries
 * its range for the page's fitting script (packages/contract/src/fit-text.ts).
 */
export const textSheet = (faces: readonly string[], cells: SheetCell[]): string => {
  // A word on its own is drawn over its caption's box: without a box of its own, which would darken it twice.
  const rules = cells.map((c, i) => `#c${i}{${c.box.css}${c.only === undefined ? "" : "background:none;"}}`);
  const body = cells.map((cell, i) => {
    const inner = cell.box.units
      ? cell.box.units.map((u, n) => unitHtml(cell, u, n)).join("")
      : esc(cell.box.text);
    const fit = cell.fits ? cell.box.fit : undefined;
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
