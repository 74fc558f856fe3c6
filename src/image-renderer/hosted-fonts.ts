/**
 * Before compiling: the `googleFont`s of a config the bundled catalogue lacks, looked up in the hosted
 * catalogue (only when it is on). Bundled fonts need no lookup, so a config that uses only them costs
 * nothing here. A font the hosted catalogue lacks fails the job with the layer's field path.
 */
import { applyLayerDefaults, type ImageConfig } from "@media-render/contract/config";
import { bundledFaces } from "../fonts/bundled-source.ts";
import {
  fontKey,
  parseFontRequest,
  type FontFaces,
  type HostedFonts,
} from "@media-render/image-page/font-faces";
import { noSuchFont, type FontSource } from "../fonts/source.ts";
import { UnprocessableMedia } from "../lib/errors.ts";

export const loadHostedFonts = async (
  config: ImageConfig,
  hosted: FontSource | null,
): Promise<HostedFonts> => {
  const found = new Map<string, FontFaces>();
  if (!hosted) return found;
  const wanted = new Map<string, { value: string; index: number }>();
  config.layers.forEach((layer, index) => {
    const value = (applyLayerDefaults(config.defaults, layer) as { googleFont?: string }).googleFont;
    if (value && !bundledFaces(parseFontRequest(value)) && !wanted.has(fontKey(value)))
      wanted.set(fontKey(value), { value, index });
  });
  for (const [key, { value, index }] of wanted) {
    const faces = await hosted.faces(parseFontRequest(value));
    if (!faces) throw new UnprocessableMedia(noSuchFont(`layers[${index}].googleFont`, value));
    found.set(key, faces);
  }
  return found;
};

/** R2 keys of the hosted font files, for the image browser's allow list. */
export const hostedFontKeys = (fonts: HostedFonts): string[] =>
  [...fonts.values()].flatMap((f) => f.files.map((file) => file.key));
