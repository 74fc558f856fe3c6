/**
 * Compiles an image config into one HTML/CSS document: absolutely positioned layers in array order
 * (index 0 at the bottom), drawn by Chromium and screenshotted at the canvas size.
 */
import { keyOf } from "../../storage/paths";
import { ASSET_ORIGIN } from "./image-browser";

type Layer = Record<string, unknown> & { type: string };
export interface ImageConfigLike {
  width: number;
  height: number;
  backgroundColor?: string;
  layers: Layer[];
}

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const num = (v: unknown, fallback = 0) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
const css = (decls: Record<string, string | number | undefined>) =>
  Object.entries(decls)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}:${typeof v === "number" ? `${v}px` : v}`)
    .join(";");

/** URL under which the image browser serves a stored file to the page. */
export const assetUrl = (storageUrl: string) =>
  `${ASSET_ORIGIN}/${encodeURIComponent(keyOf(storageUrl)).replaceAll("%2F", "/")}`;

const FIT: Record<string, string> = {
  cover: "cover",
  contain: "contain",
  fill: "fill",
  inside: "scale-down",
  outside: "cover",
};

const imageLayer = (l: Layer) => {
  const style = css({
    position: "absolute",
    left: num(l.x),
    top: num(l.y),
    width: typeof l.width === "number" ? l.width : undefined,
    height: typeof l.height === "number" ? l.height : undefined,
    "object-fit": FIT[String(l.fit ?? "fill")] ?? "fill",
    opacity: typeof l.opacity === "number" ? String(l.opacity) : undefined,
  });
  return `<img src="${esc(assetUrl(String(l.path)))}" style="${style}">`;
};

const TRANSLATE: Record<string, string> = {
  left: "none",
  center: "translateX(-50%)",
  right: "translateX(-100%)",
};

const textLayer = (l: Layer) => {
  const align = String(l.align ?? "left");
  const style = css({
    position: "absolute",
    left: num(l.x),
    top: num(l.y),
    "font-size": num(l.fontSize, 24),
    color: String(l.color ?? "#000000"),
    "font-family": "'DejaVu Sans','Liberation Sans',Arial,sans-serif",
    "line-height": String(num(l.lineHeight, 1.2)),
    "white-space": "pre",
    "text-align": align,
    transform: TRANSLATE[align] ?? "none",
  });
  return `<div style="${style}">${esc(String(l.text ?? ""))}</div>`;
};

export const compileHtml = (config: ImageConfigLike): string => {
  const body = config.layers
    .map((l) => (l.type === "image" ? imageLayer(l) : l.type === "text" ? textLayer(l) : ""))
    .join("\n");
  return `<!doctype html><html><head><meta charset="utf-8"><style>
html,body{margin:0;padding:0;width:${config.width}px;height:${config.height}px;overflow:hidden;background:${config.backgroundColor ?? "transparent"}}
</style></head><body>${body}</body></html>`;
};
