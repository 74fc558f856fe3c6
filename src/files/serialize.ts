/** The spec's Media file resource (and the upload response, which omits width/height/duration/updatedAt). */
import type { mediaFiles } from "../db/schema";
import { iso } from "../lib/time";

type FileRow = typeof mediaFiles.$inferSelect;

export const toUploadResponse = (row: FileRow) => ({
  id: row.id,
  filename: row.filename,
  originalName: row.originalName,
  mimeType: row.mimeType,
  storageUrl: row.storageUrl,
  metadata: row.metadata,
  ...(row.expiresAt != null ? { expiresAt: iso(row.expiresAt) } : {}),
  createdAt: iso(row.createdAt),
});

export const toMediaFile = (row: FileRow) => ({
  ...toUploadResponse(row),
  width: row.width,
  height: row.height,
  duration: row.duration,
  size: row.size,
  updatedAt: iso(row.updatedAt),
});

/** The spec's metadata-only view of a file. */
export const toMetadataView = (row: FileRow) => ({
  storageUrl: row.storageUrl,
  metadata: row.metadata,
  updatedAt: iso(row.updatedAt),
});
