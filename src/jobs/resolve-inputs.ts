/**
 * Resolves the files a config references to media file rows of the caller. Storage paths must name one of
 * the caller's own files (another account's file is "not found", like everywhere else); each missing file
 * is reported at the exact field that names it (`config.layers[1].path`).
 */
import { forEachFileReference, type FileReference, type JobType } from "../contract/config";
import type { CallerCtx } from "../context";
import { filesByStoragePath } from "../files/internal";
import type { FileRow } from "../files/store-file";
import type { FieldError } from "../lib/errors";

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

/** One FILE_NOT_FOUND error per storage path reference that is not among `found`. */
export const missingFileErrors = (
  refs: readonly FileReference[],
  found: ReadonlyMap<string, unknown>,
): FieldError[] =>
  refs
    .filter((r) => isStoragePath(r.url) && !found.has(r.url))
    .map((r) => ({ field: r.field, message: `File not found: ${r.url}`, code: "FILE_NOT_FOUND" }));
