/**
 * Outputs of jobs are media files like uploads: a row in media_files (source "output") pointing at the R2 object.
 * The output's storage path is fixed by the job id, so a repeated completion finds the same row.
 */
import { eq } from "drizzle-orm";
import type { Ctx } from "../context.ts";
import { mimeOf } from "@media-render/contract/mime";
import type { CAPTION_OUTPUTS } from "@media-render/contract/wire";
import { categoryOfKind, outputFormat } from "@media-render/contract/output-formats";
import { mediaFiles, type FileCategory, type jobs } from "../db/schema.ts";
import { expiryAt, OUTPUT_TTL_HOURS } from "../files/retention.ts";
import { newId } from "../lib/ids.ts";
import { keyOf } from "../storage/paths.ts";

type JobRow = typeof jobs.$inferSelect;
type CaptionOutput = (typeof CAPTION_OUTPUTS)[number];

/** `/output/<YYYY-MM-DD of creation>/<userId>/<jobId>.<format>` */
export const outputStorageUrl = (job: Pick<JobRow, "id" | "userId" | "createdAt" | "outputFormat">): string =>
  `/output/${new Date(job.createdAt).toISOString().slice(0, 10)}/${job.userId}/${job.id}.${job.outputFormat}`;

/** The file name suffix of each autoSubtitles output, after the job id. */
export const CAPTION_FILES = {
  transcript: { suffix: ".transcript.json", ext: "json" },
  vtt: { suffix: ".captions.vtt", ext: "vtt" },
  srt: { suffix: ".captions.srt", ext: "srt" },
} as const satisfies Record<CaptionOutput, { suffix: string; ext: string }>;

/** `/output/<YYYY-MM-DD of creation>/<userId>/<jobId>.captions.vtt` and its siblings, beside the video. */
export const captionStorageUrl = (
  job: Pick<JobRow, "id" | "userId" | "createdAt">,
  kind: CaptionOutput,
): string =>
  `/output/${new Date(job.createdAt).toISOString().slice(0, 10)}/${job.userId}/${job.id}${CAPTION_FILES[kind].suffix}`;

type OutputInfo = { size: number; width?: number | null; height?: number | null; duration?: number | null };

/** Which stored file of the job a row describes: the render (default) or one of its caption files. */
interface OutputFile {
  storageUrl: string;
  ext: string;
  category: FileCategory;
  /** Extra metadata shown with the file (the caption files carry the transcription report). */
  metadata?: Record<string, unknown>;
}

/** A video job's render is a video, a GIF or a still (images) or an audio-only file, by its format's kind. */
const renderCategory = (job: JobRow): FileCategory => {
  if (job.type === "IMAGE") return "image";
  const kind = outputFormat(job.outputFormat)?.kind;
  return kind ? categoryOfKind(kind) : "video";
};

const renderFile = (job: JobRow): OutputFile => ({
  storageUrl: outputStorageUrl(job),
  ext: job.outputFormat,
  category: renderCategory(job),
});

/** The media_files row of `job`'s output (the render, or `file`). */
export const outputRow = (job: JobRow, info: OutputInfo, at: number, file: OutputFile = renderFile(job)) => {
  const { storageUrl, category } = file;
  const mimeType = mimeOf(file.ext);
  return {
    id: newId(),
    userId: job.userId,
    filename: storageUrl.split("/").pop()!,
    originalName: storageUrl.split("/").pop()!,
    mimeType,
    size: info.size,
    width: info.width ?? null,
    height: info.height ?? null,
    duration: info.duration ?? null,
    storageKey: keyOf(storageUrl),
    storageUrl,
    category,
    metadata: {
      category,
      validationResult: { errors: [], isValid: true, fileSize: info.size, detectedMimeType: mimeType },
      ...file.metadata,
    },
    source: "output" as const,
    jobId: job.id,
    // Outputs are kept a week; after that the file (and the job's download) answers 410 Gone.
    expiresAt: expiryAt(at, OUTPUT_TTL_HOURS),
    createdAt: at,
    updatedAt: at,
  };
};

/** Records the stored output of `job` (idempotent) and returns the media file id. */
export const recordOutput = async (ctx: Ctx, job: JobRow, info: OutputInfo): Promise<string> => {
  const row = outputRow(job, info, ctx.now());
  await ctx.db.insert(mediaFiles).values(row).onConflictDoNothing({ target: mediaFiles.storageUrl }).run();
  const stored = await ctx.db.query.mediaFiles.findFirst({
    where: eq(mediaFiles.storageUrl, row.storageUrl),
  });
  return stored!.id;
};

/**
 * The same insert as recordOutput as one D1 statement (for completeWithOutput, which runs it in the
 * settlement batch). An earlier attempt's row for the same storage URL stays; the batch then points the
 * job at that row by its storage URL.
 */
export const outputRowStatement = (ctx: Ctx, job: JobRow, info: OutputInfo) => {
  const row = outputRow(job, info, ctx.now());
  const { sql, params } = ctx.db
    .insert(mediaFiles)
    .values(row)
    .onConflictDoNothing({ target: mediaFiles.storageUrl })
    .toSQL();
  return { statement: ctx.d1.prepare(sql).bind(...params), id: row.id, storageUrl: row.storageUrl };
};
