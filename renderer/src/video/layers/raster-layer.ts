/**
 * Every layer that is rasterised to PNG before ffmpeg runs (title, subtitle, news-title,
 * slide-in-text, title-background's title, html): one still, a list of states
 * (word-by-word / letter-by-letter) or a frame sequence (animated html), composited with overlay.
 */
import type { GraphContext, LayerCompiler, LayerVideo, LayerWindow } from "../graph-context.ts";
import type { Layer, RasterFrame } from "../types.ts";
import { wordMotionLayers } from "../captions/word-motion.ts";
import type { TextType } from "./text-type.ts";

/** Filters that bring a frame to its drawn size: cut out of its sheet, or scaled down for a preview. */
const fit = (frame: RasterFrame): string => {
  if (frame.crop) return `crop=${frame.width}:${frame.height}:${frame.crop.x}:${frame.crop.y},`;
  return frame.resize ? `scale=${frame.width}:${frame.height},` : "";
};

/**
 * `[i:v]` of a still frame and the filters that fit it: a PNG the browser drew (stdin or a file), read as nothing
 * else whatever its bytes.
 */
const stillSource = (ctx: GraphContext, frame: RasterFrame): string =>
  `[${ctx.stillInput("png_pipe", frame.path)}:v]${fit(frame)}`;

/** An html page's motion: none, where it was captured. */
export const inPlace: TextType["motion"] = (_layer, _win, box) => ({ pre: [], post: [], x: box.x, y: box.y });

/** The compiler of a rasterised type that moves as `move` says (a text type's motion, or `inPlace`). */
export const rasterLayer =
  <L extends Layer>(move: TextType<L>["motion"]): LayerCompiler<L> =>
  (layer: L, win: LayerWindow, ctx: GraphContext, key: string): LayerVideo | null => {
    const asset = ctx.raster(key);
    const first = asset?.frames[0];
    if (!asset || !first) return null;
    const { fps, width: W, height: H } = ctx.spec;
    const motion = move(
      layer,
      win,
      { x: first.x, y: first.y, w: first.width, h: first.height },
      { W, H, fps },
    );
    const pre = motion.pre.map((p) => `,${p}`).join("");
    const post = motion.post.map((p) => `,${p}`).join("");
    const label = ctx.label("txt");
    const tail = `${pre},${ctx.retimeLayer(win)}${post}[${label}]`;
    // Captured frames (an animated html layer) start at the first one drawn: a window starting inside the layer
    // captures from there (html/rasterize-html.ts).
    if (asset.stream) {
      // A deep queue lets the capture run ahead of the encoder instead of in lockstep with it.
      const i = ctx.addPipe(
        "png_pipe",
        ["-framerate", String(fps), "-thread_queue_size", "64"],
        asset.stream,
      );
      ctx.chain(
        `[${i}:v]${fit(first)}format=yuva420p,tpad=stop_mode=clone:stop=-1,trim=end_frame=${win.drawn}${tail}`,
      );
    } else if (asset.sequencePattern) {
      const i = ctx.addInput(
        "image2",
        ["-framerate", String(fps), "-start_number", "0"],
        asset.sequencePattern,
      );
      ctx.chain(
        `[${i}:v]${fit(first)}format=yuva420p,tpad=stop_mode=clone:stop=-1,trim=end_frame=${win.drawn}${tail}`,
      );
    } else if (asset.frames.length === 1) {
      ctx.chain(`${stillSource(ctx, first)}format=yuva420p,loop=loop=${win.drawn - 1}:size=1${tail}`);
    } else {
      // The states shown over the drawn frames [skip, skip + drawn) of the layer, each for its part of them.
      const end = win.skip + win.drawn;
      const parts: string[] = [];
      asset.frames.forEach((frame, index) => {
        const from = Math.max(win.skip, Math.round((asset.times[index] ?? 0) * fps));
        const to = index + 1 < asset.frames.length ? Math.round((asset.times[index + 1] ?? 0) * fps) : end;
        const count = Math.min(to, end) - Math.min(from, end);
        if (count <= 0) return;
        const part = ctx.label("st");
        ctx.chain(
          `${stillSource(ctx, frame)}format=yuva420p,loop=loop=${count - 1}:size=1,setpts=N[${part}]`,
        );
        parts.push(`[${part}]`);
      });
      if (parts.length === 0) return null;
      ctx.chain(`${parts.join("")}concat=n=${parts.length}:v=1:a=0${tail}`);
    }
    // A caption preset's words move over the caption, each from the frame it is said (captions/word-motion.ts).
    const more = asset.words ? wordMotionLayers(asset.words, win, ctx) : [];
    return {
      label,
      x: motion.x,
      y: motion.y,
      w: first.width,
      h: first.height,
      coversFrame: false,
      ...(more.length > 0 ? { more } : {}),
    };
  };
