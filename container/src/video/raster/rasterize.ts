/** Default rasteriser: text-family layers → PNG assets. */
import type { KeyedLayer } from "../layers/index.ts";
import type { RasterAsset, VideoSpec } from "../types.ts";
import { rasterizeText } from "./rasterize-text.ts";

/** Rasterises every layer that needs a browser; html layers are refused loudly until supported. */
export async function rasterizeAll(
  spec: VideoSpec,
  layers: KeyedLayer[],
  workDir: string,
): Promise<Map<string, RasterAsset>> {
  if (layers.some((k) => k.layer.type === "html")) {
    throw new Error("html layers are not supported in video jobs yet");
  }
  return rasterizeText(spec, layers, workDir);
}
