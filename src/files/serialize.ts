/**
 * The spec's Media file resource (and the upload answer, which omits width/height/duration/updatedAt), the
 * file routes' other answers, and the serializers typed by them.
 */
import * as v from "valibot";
import { FILE_CATEGORIES, type mediaFiles } from "../db/schema.ts";
import { Timestamp } from "../lib/envelope.ts";
import { iso } from "../lib/time.ts";

type FileRow = typeof mediaFiles.$inferSelect;

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Metadata = v.pipe(
  v.record(v.string(), v.unknown()),
  v.description("What was measured at upload: `category`, `validationResult`, dimensions, codecs..."),
);

/** A file's id, as a path names it. */
export const FileId = v.pipe(
  v.string("fileId must be a string"),
  v.maxLength(64),
  v.description("The file's id"),
);

const uploadedEntries = {
  id: v.string(),
  filename: v.string(),
  originalName: v.string(),
  mimeType: v.string(),
  storageUrl: v.pipe(v.string(), v.description("The path a config names the file by (a layer's `path`)")),
  metadata: Metadata,
  expiresAt: v.optional(v.pipe(Timestamp, v.description("When the file is deleted (absent: kept)"))),
  createdAt: Timestamp,
};

/** The answer of an upload (and of an import from a URL). */
export const UploadedFile = v.object(uploadedEntries);
export type UploadedFile = v.InferOutput<typeof UploadedFile>;

export const MediaFile = v.object({
  ...uploadedEntries,
  width: v.nullable(Count),
  height: v.nullable(Count),
  duration: v.pipe(v.nullable(v.number()), v.description("Seconds, for video and audio")),
  size: Count,
  updatedAt: Timestamp,
});
export type MediaFile = v.InferOutput<typeof MediaFile>;

/** The spec's metadata-only view of a file. */
export const FileMetadata = v.object({ storageUrl: v.string(), metadata: Metadata, updatedAt: Timestamp });
export type FileMetadata = v.InferOutput<typeof FileMetadata>;

export const FileList = v.object({
  files: v.array(MediaFile),
  total: Count,
  page: Count,
  per_page: Count,
});
export type FileList = v.InferOutput<typeof FileList>;

/** The spec's "File validation result". */
export const FileValidation = v.object({
  validation: v.object({
    isValid: v.boolean(),
    fileSize: Count,
    fileType: v.pipe(v.string(), v.description("The detected extension, or `unknown`")),
    detectedMimeType: v.string(),
    errors: v.array(v.string()),
    category: v.picklist(FILE_CATEGORIES),
  }),
  uploadedFile: v.object({
    originalName: v.string(),
    mimetype: v.pipe(v.string(), v.description("The type the form declared")),
    size: Count,
  }),
});
export type FileValidation = v.InferOutput<typeof FileValidation>;

/** A signed download link: anyone holding it can download the file until `expiresAt`. */
export const DownloadLink = v.object({ url: v.pipe(v.string(), v.url()), expiresAt: Timestamp });
export type DownloadLink = v.InferOutput<typeof DownloadLink>;

export const toUploadResponse = (row: FileRow): UploadedFile => ({
  id: row.id,
  filename: row.filename,
  originalName: row.originalName,
  mimeType: row.mimeType,
  storageUrl: row.storageUrl,
  metadata: row.metadata,
  ...(row.expiresAt != null ? { expiresAt: iso(row.expiresAt)! } : {}),
  createdAt: iso(row.createdAt)!,
});

export const toMediaFile = (row: FileRow): MediaFile => ({
  ...toUploadResponse(row),
  width: row.width,
  height: row.height,
  duration: row.duration,
  size: row.size,
  updatedAt: iso(row.updatedAt)!,
});

/** The spec's metadata-only view of a file. */
export const toMetadataView = (row: FileRow): FileMetadata => ({
  storageUrl: row.storageUrl,
  metadata: row.metadata,
  updatedAt: iso(row.updatedAt)!,
});
