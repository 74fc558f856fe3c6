/**
 * Outputs of jobs are media files like uploads: a row in media_files (source "output") pointing at the R2 object.
 * The output's storage path is fixed by the job id, so a repeated completion finds the same row.
 */
import { eq } from "drizzle-orm";
import type { Ctx } from "../context";
import { mimeOf } from "../contract/mime";
import { mediaFiles, type jobs } from "../db/schema";
import { expiryAt, OUTPUT_TTL_HOURS } from "../files/retention";
import { newId } from "../lib/ids";
import { keyOf } from "../storage/paths";

type JobRow = typeof jobs.$inferSelect;

/** `/output/<YYYY-MM-DD of creation>/<userId>/<jobId>.<format>` */
export const outputStorageUrl = (job: Pick<JobRow, "id" | "userId" | "createdAt" | "outputFormat">): string =>
  `/output/${new Date(job.createdAt).toISOString().slice(0, 10)}/${job.userId}/${job.id}.${job.outputFormat}`;

type OutputInfo = { size: number; width?: number | null; height?: number | null; duration?: number | null };

/** The media_files row of `job`'s output. */
const outputRow = (job: JobRow, info: OutputInfo, at: number) => {
  const storageUrl = outputStorageUrl(job);
  const category = job.type === "IMAGE" ? ("image" as const) : ("video" as const);
  const mimeType = mimeOf(job.outputFormat);
  return {
    id: newId(),
    userId: job.userId,
    filename: storageUrl.split("/").pop()!,
    originalName: `${job.id}.${job.outputFormat}`,
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
