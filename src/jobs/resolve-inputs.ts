/**
 * Resolves the files a config references to media file rows of the caller. Storage paths must name one of
 * the caller's own files (another account's file is "not found", like everywhere else); each missing file
 * is reported at the exact field that names it (`config.layers[1].path`).
 */
import { forEachFileReference, type FileReference, type JobType } from "@media-render/contract/config";
import type { CallerCtx } from "../context.ts";
import { filesByStoragePath } from "../files/lookup.ts";
import type { FileRow } from "../files/store-file.ts";
import type { FieldError } from "../lib/errors.ts";

/** Every file reference of a validated config, with its field path, in config order (duplicates kept). */
export const fileReferences = (type: JobType, config: unknown): FileReference[] => {
  const refs: FileReference[] = [];
  forEachFileReference(type, config, (ref) => void refs.push(ref));
  return refs;
};

export const isStoragePath = (url: string): boolean => url.startsWith("/");

/** The caller's media files named by the storage paths among `refs`, by storage path. */
export const lookupStoredFiles = (
  ctx: CallerCtx,
  refs: readonly FileReference[],
): Promise<Map<string, FileRow>> => filesByStoragePath(ctx, refs.map((r) => r.url).filter(isStoragePath));

/**
 * One FILE_NOT_FOUND error per storage path reference that is not among `found`, and one INVALID_FILE_TYPE
 * per shader slot (a gl layer's `fragmentPath`) naming a stored file that is not GLSL text: the renderer
 * would read a picture or a sound as shader source.
 */
export const missingFileErrors = (
  refs: readonly FileReference[],
  found: ReadonlyMap<string, Pick<FileRow, "category" | "mimeType">>,
): FieldError[] =>
  refs.flatMap((ref): FieldError[] => {
    if (!isStoragePath(ref.url)) return [];
    const file = found.get(ref.url);
    if (!file) return [{ field: ref.field, message: `File not found: ${ref.url}`, code: "FILE_NOT_FOUND" }];
    if (ref.slot === "shader" && file.category !== "shader")
      return [
        {
          field: ref.field,
          message: `must be a GLSL shader (text) file; ${ref.url} is ${file.mimeType}`,
          code: "INVALID_FILE_TYPE",
        },
      ];
    if (ref.slot === "captions" && file.category !== "captions")
      return [
        {
          field: ref.field,
          message: `must be a SubRip (.srt) or WebVTT (.vtt) captions file; ${ref.url} is ${file.mimeType}`,
          code: "INVALID_FILE_TYPE",
        },
      ];
    return [];
  });
