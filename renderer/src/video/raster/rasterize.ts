/** Default rasteriser: text-family layers and html layers → PNG assets. */
import type { RenderTools } from "../render-tools.ts";
import { rasterizeHtmlLayer } from "../html/rasterize-html.ts";
import { keyedOf, type KeyedLayer } from "../layers/index.ts";
import type { RasterizeOptions } from "../stages/lay-out.ts";
import type { RasterAsset, Rasters, VideoSpec } from "../types.ts";
import { rasterizeText } from "./rasterize-text.ts";

/**
 * Rasterises every layer that needs a browser. Text layers (one warm page) and html layers (one page
 * each, one after another: several capturing tabs of one browser time out) run side by side. `signal`: the
 * job's; its abort stops the html pages it holds (openCapturePage).
 */
export const rasterizeAll = async (
  spec: VideoSpec,
  layers: KeyedLayer[],
  workDir: string,
  tools: RenderTools,
  signal?: AbortSignal,
  options: RasterizeOptions = { streamHtml: true },
): Promise<Rasters> => {
  const html = layers.filter(keyedOf("html"));
  // The job's one animated layer is streamed into ffmpeg while it encodes (options.streamHtml: the job's own
  // decision, the same in all its windows). Several are captured to files first: ffmpeg needs the first frame of
  // every input before it starts, so streams captured one after another would wait on each other.
  const animated = html.filter((k) => k.layer.animated === true);
  const streamed = options.streamHtml && animated.length === 1 ? animated[0] : undefined;
  const htmlAssets = (async () => {
    const out = new Map<string, RasterAsset>();
    for (const k of html)
      out.set(k.key, await rasterizeHtmlLayer(spec, k, workDir, tools, { stream: k === streamed, signal }));
    return out;
  })();
  const [text, htmlMap] = await Promise.all([rasterizeText(spec, layers, workDir, tools), htmlAssets]);
  for (const [key, asset] of htmlMap) text.assets.set(key, asset);
  return text;
};
