/** Default rasteriser: text-family layers (and html, once supported) → PNG assets. */
import type { KeyedLayer } from "../layers/index.ts";
import type { RasterAsset, VideoSpec } from "../types.ts";
import { rasterizeText } from "./rasterize-text.ts";

export async function rasterizeAll(
  spec: VideoSpec,
  layers: KeyedLayer[],
  workDir: string,
): Promise<Map<string, RasterAsset>> {
  return rasterizeText(spec, layers, workDir);
}
