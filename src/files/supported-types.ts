/**
 * GET /api/v1/files/supported-types (JsonCut's route): what an upload may be, per category, read from the one list
 * of types the content sniffer recognises (sniff.ts): the extensions a file of each may be named with, its MIME
 * types, and the size limit. The content decides the type; the name and a declared category only have to agree.
 */
import * as v from "valibot";
import { FILE_CATEGORIES, type FileCategory } from "../db/schema.ts";
import { MAX_UPLOAD_BYTES } from "./retention.ts";
import { extensionsOf, SNIFFED_KINDS } from "./sniff.ts";

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

const CategoryTypes = v.object({
  extensions: v.pipe(v.array(v.string()), v.description("File name extensions, without the dot")),
  mimeTypes: v.array(v.string()),
});

/** The categories an upload can have (every one but `unknown`). */
const CATEGORIES = FILE_CATEGORIES.filter((c): c is Exclude<FileCategory, "unknown"> => c !== "unknown");

export const SupportedFileTypes = v.object({
  categories: v.object(
    Object.fromEntries(CATEGORIES.map((c) => [c, CategoryTypes])) as Record<
      (typeof CATEGORIES)[number],
      typeof CategoryTypes
    >,
  ),
  maxFileSize: v.pipe(Count, v.description("The largest upload, in bytes")),
});
export type SupportedFileTypes = v.InferOutput<typeof SupportedFileTypes>;

export const supportedFileTypes = (): SupportedFileTypes => {
  const categories = Object.fromEntries(
    CATEGORIES.map((category) => {
      const kinds = SNIFFED_KINDS.filter((k) => k.category === category);
      return [
        category,
        {
          extensions: [...new Set(kinds.flatMap(extensionsOf))],
          mimeTypes: [...new Set(kinds.map((k) => k.mimeType))],
        },
      ];
    }),
  ) as SupportedFileTypes["categories"];
  return { categories, maxFileSize: MAX_UPLOAD_BYTES };
};
