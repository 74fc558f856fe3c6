/**
 * Before a video job is handed to a renderer: the `googleFont`s of its config that the bundle lacks, looked up in
 * the hosted catalogue through the same font cache image jobs use (hosted-source.ts: fetched once into R2 under
 * `fonts/`, through the SSRF guard, files only from the catalogue's font host). The render request then carries
 * each font's faces (`fonts`, packages/contract/src/wire.ts) with a signed URL per file among its `inputs`, and the
 * renderer draws them as it draws the bundled families. Bundled fonts need no lookup and cost nothing here.
 */
import type { VideoConfig } from "@media-render/contract/config";
import { fieldPath } from "@media-render/contract/field-errors";
import { catalogFontFields, hostedFontFields } from "@media-render/contract/fonts/hosted";
import type { HostedFonts } from "@media-render/contract/wire";
import { UnprocessableMedia } from "../lib/errors.ts";
import { parseFontRequest } from "@media-render/image-page/font-faces";
import { noSuchFont, type FontSource } from "./source.ts";

/**
 * The hosted fonts of `config` as the render request's `fonts` (faces naming their R2 keys), or undefined when it
 * names bundled families only. `hosted` is null when the catalogue is off (validation refused such fonts then; a job
 * accepted while it was on fails here, naming the field). A font the catalogue lacks fails the job for good.
 */
export const hostedVideoFonts = async (
  config: VideoConfig,
  hosted: FontSource | null,
): Promise<HostedFonts | undefined> => {
  const wanted = hostedFontFields(catalogFontFields(config));
  if (!wanted.length) return undefined;
  const fonts: HostedFonts = {};
  for (const { path, value } of wanted) {
    const field = fieldPath(path)!;
    if (!hosted)
      throw new UnprocessableMedia(
        `${field}: "${value}" is not one of the bundled fonts, and the hosted font catalogue is off here`,
      );
    const faces = await hosted.faces(parseFontRequest(value));
    if (!faces) throw new UnprocessableMedia(noSuchFont(field, value));
    fonts[value] = {
      weight: faces.weight,
      faces: faces.files.map((file) => ({
        ref: file.key,
        ...(file.unicodeRange === undefined ? {} : { unicodeRange: file.unicodeRange }),
      })),
    };
  }
  return fonts;
};
