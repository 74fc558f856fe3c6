/**
 * editly's `gl` layer: a full-frame fragment shader drawn on the renderer's WebGL page (gl/), its frames
 * streamed into ffmpeg as raw rgba through a pipe, like an html capture. A shader is deterministic, so the
 * pipe may be written again by a second run of the graph (transition taps).
 */
import type { LayerCompiler } from "../graph-context.ts";
import { canvasHasAlpha } from "../outputs/encoders.ts";
import type { LayerOf } from "../types.ts";
import { Defect } from "@media-render/contract/faults";

export const glLayer: LayerCompiler<LayerOf<"gl">> = (layer, win, ctx, key) => {
  const { width: W, height: H, fps, format } = ctx.spec;
  if (!ctx.glLayers) throw new Defect(`gl layer ${key}: this graph was compiled without the WebGL page`);
  // A fragmentPath was read into fragmentShader once downloaded (render.ts).
  if (layer.fragmentShader === undefined) throw new Defect(`gl layer ${key}: its shader file was not read`);
  const write = ctx.glLayers.layerWriter({
    key: `layer-${key}`,
    fragment: layer.fragmentShader,
    field: `${ctx.layerPaths.get(key) ?? key}.${layer.fragmentPath !== undefined ? "fragmentPath" : "fragmentShader"}`,
    frames: win.drawn,
    first: win.skip,
    fps,
    speed: layer.speed ?? 1,
  });
  const input = ctx.addPipe(
    "rawvideo",
    ["-pix_fmt", "rgba", "-video_size", `${W}x${H}`, "-framerate", String(fps)],
    write,
    true,
  );
  const label = ctx.label("gl");
  const fmt = canvasHasAlpha(format) ? "yuva420p" : "yuv420p";
  ctx.chain(`[${input}:v]format=${fmt},setsar=1,${ctx.retimeLayer(win)}[${label}]`);
  return { label, x: 0, y: 0, coversFrame: true };
};
