/**
 * HTML/CSS for the text layer family (pure): the element `#box` holds the text laid out the way
 * the layer type draws it; the rasteriser screenshots only that box. Outline styles: `outline`
 * paints the stroke beneath the fill (paint-order), `shadow` offsets a soft copy, `glow` blurs around.
 */
import type { Layer } from "../types.ts";
import { clamp, num, optNum, str } from "../values.ts";

const DEFAULT_FONTS = `"DejaVu Sans", "Liberation Sans", sans-serif`;

function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function cssColor(value: unknown, fallback: string): string {
  const s = str(value, fallback).trim();
  return /^[#\w(),.\s%-]+$/.test(s) ? s : fallback;
}

/** Font size in px for a layer in a W x H frame (reference defaults per type). */
export function fontSizePx(layer: Layer, W: number, H: number): number {
  const min = Math.min(W, H);
  switch (layer.type) {
    case "subtitle":
      return clamp(num(layer.fontSize, min / 20), 4, 500);
    case "news-title":
      return clamp(num(layer.fontSize, min * 0.05), 4, 500);
    case "slide-in-text": {
      // editly: a fraction of the frame width (JC-vid says height; we follow the engine).
      const rel = num(layer.fontSize, 0.05);
      return clamp(rel <= 1 ? rel * W : rel, 4, 500);
    }
    case "text":
      return clamp(num(layer.fontSize, 24), 4, 500);
    default:
      return clamp(num(layer.fontSize, min * 0.1), 4, 500);
  }
}

/** text-stroke / text-shadow CSS for outlineStyle/outlineColor/outlineWidth. */
export function outlineCss(layer: Layer, fontSize: number): string {
  const explicit = optNum(layer.outlineWidth);
  const width = explicit ?? (typeof layer.outlineColor === "string" ? Math.max(2, fontSize * 0.05) : 0);
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

export interface TextPage {
  html: string;
  /** Reveal units (spans u0..un-1) when the style reveals progressively, else 0. */
  units: number;
}

/** Builds the page for one layer. `fontUrl` is a file: URL of the layer's font, if any. */
export function textPage(layer: Layer, W: number, H: number, fontUrl: string | null): TextPage {
  const size = fontSizePx(layer, W, H);
  const text = str(layer.text, "");
  const fontFace = fontUrl ? `@font-face{font-family:"LayerFont";src:url("${fontUrl}");}` : "";
  const google =
    typeof layer.googleFont === "string" ? `"${layer.googleFont.split(":")[0]!.replace(/"/g, "")}",` : "";
  const family = fontUrl
    ? `"LayerFont",${DEFAULT_FONTS}`
    : `${google}${typeof layer.fontFamily === "string" ? `"${layer.fontFamily.replace(/"/g, "")}",` : ""}${DEFAULT_FONTS}`;
  const weight = typeof layer.googleFont === "string" ? (layer.googleFont.split(":")[1] ?? "400") : "normal";
  const color = cssColor(layer.textColor ?? layer.color, layer.type === "text" ? "#000000" : "#ffffff");
  const style =
    layer.style === "word-by-word" ? "word" : layer.style === "letter-by-letter" ? "letter" : null;
  const units = style ? revealUnits(text, style) : [];
  const body = style ? units.map((u, i) => `<span id="u${i}">${esc(u)}</span>`).join("") : esc(text);
  const pad = Math.ceil(size * 0.25 + num(layer.outlineWidth, 0) * 4);
  let boxCss = `padding:${pad}px;`;
  switch (layer.type) {
    case "subtitle":
      boxCss += `width:${W}px;box-sizing:border-box;text-align:center;background:${cssColor(layer.backgroundColor, "rgba(0,0,0,0.3)")};`;
      break;
    case "news-title":
      boxCss += `background:${cssColor(layer.backgroundColor, "#d02a42")};padding:${Math.round(size * 0.4)}px ${Math.round(size * 0.8)}px;`;
      break;
    case "slide-in-text":
      boxCss += `letter-spacing:${num(layer.charSpacing, 0.1)}em;white-space:pre;`;
      break;
    case "text": {
      const width = optNum(layer.width);
      const align = layer.align === "center" || layer.align === "right" ? layer.align : "left";
      boxCss += `text-align:${align};line-height:${num(layer.lineHeight, 1.2)};${width && layer.wrap ? `width:${width}px;` : "white-space:pre;"}`;
      if (typeof layer.backgroundColor === "string")
        boxCss += `background:${cssColor(layer.backgroundColor, "transparent")};`;
      break;
    }
    default:
      boxCss += `max-width:${Math.round(W * 0.8)}px;text-align:center;`;
  }
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>${fontFace}
html,body{margin:0;background:transparent;}
#box{position:absolute;left:0;top:0;display:inline-block;white-space:pre-wrap;font-family:${family};font-weight:${weight};font-size:${size}px;line-height:1.2;color:${color};${outlineCss(layer, size)}${boxCss}}
</style></head><body><div id="box">${body}</div></body></html>`;
  return { html, units: units.length };
}
