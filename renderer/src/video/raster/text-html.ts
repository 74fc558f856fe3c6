/**
 * HTML/CSS for the text layer family (pure): each layer's box holds the text laid out the way the
 * layer type draws it, and one sheet document holds the boxes of a whole job, so the rasteriser
 * loads one page and takes one screenshot per job instead of one per layer. Outline styles: `outline`
 * paints the stroke beneath the fill (paint-order), `shadow` offsets a soft copy, `glow` blurs around.
 */
import type { TextLayer } from "../layers/index.ts";
import { isTitle } from "../layers/text-motion.ts";
import { clamp } from "../values.ts";

const DEFAULT_FONTS = `"DejaVu Sans", "Liberation Sans", sans-serif`;

function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A colour for the sheet's CSS. The grammar's pattern already keeps CSS out; this is a second fence. */
function cssColor(value: string | undefined, fallback: string): string {
  const s = (value ?? fallback).trim();
  return /^[#\w(),.\s%-]+$/.test(s) ? s : fallback;
}

/** Font size in px for a layer in a W x H frame (reference defaults per type). */
export function fontSizePx(layer: TextLayer, W: number, H: number): number {
  const min = Math.min(W, H);
  switch (layer.type) {
    case "subtitle":
      return clamp(layer.fontSize ?? min / 20, 4, 500);
    case "news-title":
      return clamp(layer.fontSize ?? min * 0.05, 4, 500);
    case "slide-in-text":
      // editly: a fraction of the frame width (JC-vid says height; we follow the engine).
      return clamp((layer.fontSize ?? 0.05) * W, 4, 500);
    default:
      return clamp(layer.fontSize ?? min * 0.1, 4, 500);
  }
}

/** text-stroke / text-shadow CSS for a title's outlineStyle/outlineColor/outlineWidth ("" for other types). */
export function outlineCss(layer: TextLayer, fontSize: number): string {
  if (!isTitle(layer)) return "";
  const explicit = layer.outlineWidth;
  const width = explicit ?? (layer.outlineColor !== undefined ? Math.max(2, fontSize * 0.05) : 0);
  if (width <= 0) return "";
  const color = cssColor(layer.outlineColor, "#000000");
  if (layer.outlineStyle === "shadow") return `text-shadow:${width}px ${width}px ${width}px ${color};`;
  if (layer.outlineStyle === "glow")
    return `text-shadow:0 0 ${width * 2}px ${color},0 0 ${width * 4}px ${color};`;
  return `-webkit-text-stroke:${width * 2}px ${color};paint-order:stroke fill;`;
}

/** Splits text into reveal units: words (keeping spaces with them) or characters. */
export function revealUnits(text: string, by: "word" | "letter"): string[] {
  return by === "word" ? (text.match(/\S+\s*|\s+/g) ?? []) : [...text];
}

/** One layer's box: CSS declarations, and its reveal units when the style reveals progressively. */
export interface TextBox {
  css: string;
  /** Word or letter units (word-by-word / letter-by-letter), else null. */
  units: string[] | null;
  text: string;
}

/** The font a box is drawn in: an @font-face family of the sheet (uploaded or catalogue font). */
export interface BoxFont {
  family: string;
  weight: number | "normal";
}

/** The box of one layer; `font` is the sheet's face for its `fontPath` or `googleFont`, if any. */
export function textBox(layer: TextLayer, W: number, H: number, font: BoxFont | null): TextBox {
  const size = fontSizePx(layer, W, H);
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
  let boxCss = `padding:${pad}px;`;
  switch (layer.type) {
    case "subtitle":
      boxCss += `width:${W}px;box-sizing:border-box;text-align:center;background:${cssColor(layer.backgroundColor, "rgba(0,0,0,0.3)")};`;
      break;
    case "news-title":
      boxCss += `background:${cssColor(layer.backgroundColor, "#d02a42")};padding:${Math.round(size * 0.4)}px ${Math.round(size * 0.8)}px;`;
      break;
    case "slide-in-text":
      boxCss += `letter-spacing:${layer.charSpacing ?? 0.1}em;white-space:pre;`;
      break;
    default:
      boxCss += `max-width:${Math.round(W * 0.8)}px;text-align:center;`;
  }
  const css = `font-family:${family};font-weight:${weight};font-size:${size}px;line-height:1.2;color:${color};${outlineCss(layer, size)}${boxCss}`;
  return { css, units: style ? revealUnits(text, style) : null, text };
}

/** One drawing of a box in the sheet: the whole text, or the first `visible` reveal units. */
export interface SheetCell {
  box: TextBox;
  visible: number;
}

/**
 * One document with every cell of a job (element ids c0..cn-1), all at the top-left corner until the
 * rasteriser measures and spreads them. Hidden units keep their space, so every state of a reveal
 * has the same size. `faces` are the @font-face rules of the fonts the boxes use.
 */
export function textSheet(faces: readonly string[], cells: SheetCell[]): string {
  const rules = cells.map((c, i) => `#c${i}{${c.box.css}}`);
  const body = cells.map((c, i) => {
    const inner = c.box.units
      ? c.box.units.map((u, n) => `<span${n < c.visible ? "" : ' class="h"'}>${esc(u)}</span>`).join("")
      : esc(c.box.text);
    return `<div class="c" id="c${i}">${inner}</div>`;
  });
  return `<!doctype html><html><head><meta charset="utf-8"><style>${faces.join("\n")}
html,body{margin:0;background:transparent;}
.c{position:absolute;left:0;top:0;display:inline-block;white-space:pre-wrap;overflow-wrap:anywhere;}
.h{visibility:hidden;}
${rules.join("\n")}
</style></head><body>${body.join("")}</body></html>`;
}
