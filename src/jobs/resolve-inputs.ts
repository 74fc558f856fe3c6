/**
 * Resolves the files a config references to media file rows of the caller. Storage paths must name one of
 * the caller's own files (another account's file is "not found", like everywhere else).
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { mediaFiles } from "../db/schema";
import { ValidationFailed, type FieldError } from "../lib/errors";

export interface ResolvedInput {
  url: string;
  fileId: string;
  storageKey: string;
  mimeType: string;
}

export const resolveInputs = async (
  db: Db,
  userId: string,
  urls: readonly string[],
): Promise<ResolvedInput[]> => {
  const paths = [...new Set(urls.filter((u) => u.startsWith("/")))];
  const remote = urls.filter((u) => !u.startsWith("/"));
  const errors: FieldError[] = remote.map((url) => ({
    field: "config",
    message: `Public URL inputs are fetched into storage first; upload the file and reference its storageUrl instead: ${url}`,
    code: "URL_IMPORT_UNAVAILABLE",
  }));
  const rows = paths.length
    ? await db.query.mediaFiles.findMany({
        where: and(eq(mediaFiles.userId, userId), inArray(mediaFiles.storageUrl, paths)),
      })
    : [];
  const byUrl = new Map(rows.map((r) => [r.storageUrl, r]));
  for (const path of paths) {
    if (!byUrl.has(path))
      errors.push({ field: "config", message: `File not found: ${path}`, code: "FILE_NOT_FOUND" });
  }
  if (errors.length) throw new ValidationFailed(errors);
  return paths.map((url) => {
    const r = byUrl.get(url)!;
    return { url, fileId: r.id, storageKey: r.storageKey, mimeType: r.mimeType };
  });
};
