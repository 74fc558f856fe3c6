/**
 * `image` (full frame or box, resizeMode, Ken Burns on by default) and `image-overlay`
 * (sized by width or height, positioned, optional zoom). The still is decoded and resized ONCE;
 * per frame there is only zoompan or a frame copy.
 */
import type { GraphContext, LayerVideo, LayerWindow } from "../graph-context.ts";
import { placeBox } from "../position.ts";
import type { Layer } from "../types.ts";
import { clamp, num, optNum, str } from "../values.ts";
import { zoomAmount, zoomDirection, zoompanFilter } from "./ken-burns.ts";
import { resizeInto, resizeMode } from "./resize.ts";

/** Oversampling of stills under zoompan (see ken-burns.ts). */
const OVERSAMPLE = 1.5;

function even(v: number): number {
  return Math.max(2, Math.round(v / 2) * 2);
}

function still(
  ctx: GraphContext,
  layer: Layer,
  win: LayerWindow,
  box: { w: number; h: number; x: number; y: number },
  mode: ReturnType<typeof resizeMode>,
  zoomFallback: ReturnType<typeof zoomDirection>,
): LayerVideo | null {
  const path = str(layer.path, "");
  const info = ctx.mediaInfo(path);
  if (!path || !info) return null;
  const input = ctx.addInput([], path);
  const dir = zoomDirection(layer.zoomDirection, zoomFallback);
  const alpha = info.hasAlpha || mode === "contain";
  const fmt = alpha ? "yuva420p" : "yuv420p";
  const label = ctx.label("img");
  if (dir) {
    const sw = even(box.w * OVERSAMPLE);
    const sh = even(box.h * OVERSAMPLE);
    const resized = resizeInto(ctx, `${input}:v`, "", mode, sw, sh, info);
    const zp = zoompanFilter(dir, zoomAmount(layer.zoomAmount), win.frames, box.w, box.h, ctx.spec.fps);
    ctx.chain(`[${resized}]format=${fmt},${zp},format=${fmt},${ctx.retime(win.startFrame)}[${label}]`);
  } else {
    const resized = resizeInto(ctx, `${input}:v`, "", mode, box.w, box.h, info);
    ctx.chain(
      `[${resized}]format=${fmt},loop=loop=${win.frames - 1}:size=1,${ctx.retime(win.startFrame)}[${label}]`,
    );
  }
  const full = box.w === ctx.spec.width && box.h === ctx.spec.height && box.x === 0 && box.y === 0;
  return { label, x: box.x, y: box.y, coversFrame: full && !alpha };
}

/** `image`: JC default resizeMode cover, Ken Burns `in` unless zoomDirection is null. */
export function image(layer: Layer, win: LayerWindow, ctx: GraphContext): LayerVideo | null {
  const { width: W, height: H } = ctx.spec;
  const w = even(clamp(num(layer.width, 1), 0.01, 1) * W);
  const h = even(clamp(num(layer.height, 1), 0.01, 1) * H);
  const { x, y } = w === W && h === H ? { x: 0, y: 0 } : placeBox(layer, W, H, w, h);
  return still(ctx, layer, win, { w, h, x, y }, resizeMode(layer.resizeMode, "cover"), "in");
}

/** `image-overlay`: width (or height) as a fraction of the frame, aspect kept, centred by default. */
export function imageOverlay(layer: Layer, win: LayerWindow, ctx: GraphContext): LayerVideo | null {
  const { width: W, height: H } = ctx.spec;
  const info = ctx.mediaInfo(str(layer.path, ""));
  if (!info) return null;
  const aspect = info.width / Math.max(1, info.height);
  const fw = optNum(layer.width);
  const fh = optNum(layer.height);
  const w = even(fw !== null ? fw * W : fh !== null ? fh * H * aspect : W);
  const h = even(w / aspect);
  const { x, y } = placeBox(layer, W, H, w, h);
  return still(ctx, { ...layer }, win, { w, h, x, y }, "stretch", null);
}
