/**
 * Resize modes (reference §2.5) as filter chains into a box of bw x bh pixels.
 * contain-blur blurs a 1/8-size copy and scales it back up: the same look as a full-size
 * blur at a small fraction of the per-frame cost.
 */
import { evenDimension } from "@media-render/contract/geometry";
import type { GraphContext } from "../graph-context.ts";
import type { LayerOf } from "../types.ts";

export type ResizeMode = NonNullable<LayerOf<"image" | "video">["resizeMode"]>;

/** True when the source and box aspect ratios match within 1 % (then every mode equals stretch). */
export const sameAspect = (sw: number, sh: number, bw: number, bh: number): boolean => {
  return Math.abs(sw / sh / (bw / bh) - 1) < 0.01;
};

/** Single filter string for the modes that need no split (cover, contain, stretch). */
export const simpleResize = (mode: Exclude<ResizeMode, "contain-blur">, bw: number, bh: number): string => {
  if (mode === "stretch") return `scale=${bw}:${bh}`;
  if (mode === "cover") return `scale=${bw}:${bh}:force_original_aspect_ratio=increase,crop=${bw}:${bh}`;
  return `scale=${bw}:${bh}:force_original_aspect_ratio=decrease,format=yuva420p,pad=${bw}:${bh}:(ow-iw)/2:(oh-ih)/2:color=black@0`;
};

/**
 * Appends chains that resize `[input]` into the box and returns the output label.
 * `pre` runs before resizing (e.g. trimming and retiming a video).
 */
export const resizeInto = (
  ctx: GraphContext,
  input: string,
  pre: string,
  mode: ResizeMode,
  bw: number,
  bh: number,
  source: { width: number; height: number },
): string => {
  const out = ctx.label("rs");
  const effective = sameAspect(source.width, source.height, bw, bh) ? "stretch" : mode;
  const head = pre ? `[${input}]${pre},` : `[${input}]`;
  if (effective !== "contain-blur") {
    ctx.chain(`${head}${simpleResize(effective, bw, bh)},setsar=1[${out}]`);
    return out;
  }
  const backCopy = ctx.label("cbA");
  const frontCopy = ctx.label("cbB");
  const bg = ctx.label("cbBg");
  const radius = Math.max(1, Math.min(12, Math.round(Math.max(bw, bh) / 80)));
  // boxblur needs its radius within a quarter of the smaller side (its chroma planes are half the size): a copy of
  // a tiny or very narrow box is kept at least that large.
  const sw = Math.max(4 * radius, evenDimension(bw / 8));
  const sh = Math.max(4 * radius, evenDimension(bh / 8));
  ctx.chain(`${head}split[${backCopy}][${frontCopy}]`);
  ctx.chain(`[${backCopy}]scale=${sw}:${sh},boxblur=${radius}:2,scale=${bw}:${bh},setsar=1[${bg}]`);
  const fg = ctx.label("cbFg");
  ctx.chain(`[${frontCopy}]scale=${bw}:${bh}:force_original_aspect_ratio=decrease,setsar=1[${fg}]`);
  ctx.chain(`[${bg}][${fg}]overlay=(W-w)/2:(H-h)/2:format=auto[${out}]`);
  return out;
};
