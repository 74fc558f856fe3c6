/**
 * Rasterises text-family layers to transparent PNGs in the warm Chromium: one PNG per layer, or
 * one per reveal state for word-by-word / letter-by-letter. Only the text's box is captured; the
 * graph overlays it at the position computed here. Zooming titles get a margin of zoomAmount so
 * zoompan has room to grow the text without clipping it.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "puppeteer-core";
import type { KeyedLayer } from "../layers/index.ts";
import { zoomAmount, zoomDirection } from "../layers/ken-burns.ts";
import { animationSeconds, titleStyle } from "../layers/text-motion.ts";
import { placeBox } from "../position.ts";
import type { Layer, RasterAsset, RasterFrame, VideoSpec } from "../types.ts";
import { num } from "../values.ts";
import { openPage } from "./browser.ts";
import { textPage } from "./text-html.ts";

/** Reveal states above this count are grouped, so a long letter-by-letter text stays cheap. */
const MAX_STATES = 60;

function defaultPosition(layer: Layer): Record<string, unknown> {
  if (layer.position !== undefined || layer.left !== undefined || layer.top !== undefined) return layer;
  if (layer.type === "subtitle") return { ...layer, position: "bottom" };
  if (layer.type === "news-title")
    return { ...layer, position: { x: 0, y: 0.08, originX: "left", originY: "top" } };
  if (layer.type === "text" && (typeof layer.x === "number" || typeof layer.y === "number")) {
    return {
      ...layer,
      position: { x: num(layer.x, 0), y: num(layer.y, 0), originX: "left", originY: "top", px: true },
    };
  }
  return layer;
}

function zoomMargin(layer: Layer): number {
  const isTitle = layer.type === "title" || layer.type === "title-background";
  if (!isTitle || titleStyle(layer) !== "fade-in" || !zoomDirection(layer.zoomDirection, "in")) return 0;
  return zoomAmount(layer.zoomAmount);
}

async function renderOne(page: Page, spec: VideoSpec, k: KeyedLayer, workDir: string): Promise<RasterAsset> {
  const { width: W, height: H } = spec;
  const layer = k.layer;
  const fontUrl = typeof layer.fontPath === "string" ? pathToFileURL(layer.fontPath).href : null;
  const { html, units } = textPage(layer, W, H, fontUrl);
  const htmlPath = join(workDir, `${k.key}.html`);
  await writeFile(htmlPath, html);
  await page.goto(pathToFileURL(htmlPath).href, { waitUntil: "load" });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const rect = await page.evaluate(() => {
    const r = document.getElementById("box")!.getBoundingClientRect();
    return { w: Math.ceil(r.width), h: Math.ceil(r.height) };
  });
  const w = rect.w + (rect.w % 2);
  const h = rect.h + (rect.h % 2);
  const m = zoomMargin(layer);
  const ex = Math.round((w * m) / 2);
  const ey = Math.round((h * m) / 2);
  const cw = w + 2 * ex;
  const ch = h + 2 * ey;
  if (ex || ey || cw > W || ch > H) {
    await page.setViewport({ width: Math.max(W, cw), height: Math.max(H, ch), deviceScaleFactor: 1 });
    await page.evaluate(
      (x: number, y: number) => {
        const box = document.getElementById("box")!;
        box.style.left = `${x}px`;
        box.style.top = `${y}px`;
      },
      ex,
      ey,
    );
  }
  const placed = defaultPosition(layer);
  const pos = placeBox(placed, W, H, w, h);
  const obj = placed.position as Record<string, unknown> | undefined;
  // Image-job style `text` with pixel x/y: `align` says whether x is the left edge, centre or right edge.
  const alignShift = layer.align === "center" ? w / 2 : layer.align === "right" ? w : 0;
  const origin = obj?.px ? { x: Math.round(num(obj.x, 0) - alignShift), y: Math.round(num(obj.y, 0)) } : pos;
  const at = { x: origin.x - ex, y: origin.y - ey, width: cw, height: ch };
  const shoot = async (n: number): Promise<RasterFrame> => {
    const path = join(workDir, `${k.key}-${n}.png`);
    await page.screenshot({
      path,
      clip: { x: 0, y: 0, width: cw, height: ch },
      omitBackground: true,
      optimizeForSpeed: true,
    });
    return { path, ...at };
  };
  if (units === 0) return { frames: [await shoot(0)], times: [0] };
  const states = Math.min(units, MAX_STATES);
  const reveal = animationSeconds(layer, k.window ?? spec.defaultDuration);
  const frames: RasterFrame[] = [];
  const times: number[] = [];
  for (let s = 0; s < states; s++) {
    const visible = Math.round(((s + 1) * units) / states);
    await page.evaluate(
      (v: number, total: number) => {
        for (let i = 0; i < total; i++)
          document.getElementById(`u${i}`)!.style.visibility = i < v ? "visible" : "hidden";
      },
      visible,
      units,
    );
    frames.push(await shoot(s));
    times.push((s * reveal) / states);
  }
  return { frames, times };
}

/** Rasterises every non-html layer in `layers`; returns key → asset. */
export async function rasterizeText(
  spec: VideoSpec,
  layers: KeyedLayer[],
  workDir: string,
): Promise<Map<string, RasterAsset>> {
  const out = new Map<string, RasterAsset>();
  const todo = layers.filter((k) => k.layer.type !== "html");
  if (todo.length === 0) return out;
  const page = await openPage(spec.width, spec.height);
  try {
    for (const k of todo) {
      await page.setViewport({ width: spec.width, height: spec.height, deviceScaleFactor: 1 });
      out.set(k.key, await renderOne(page, spec, k, workDir));
    }
  } finally {
    await page.close().catch(() => {});
  }
  return out;
}
