/**
 * autoSubtitles' extra outputs: the transcript (JSON), WebVTT and SRT files the renderer stores beside the video
 * at paths fixed by the job id (output.ts captionStorageUrl). A completed job records each as a media_files row
 * (source "output", idempotent on the storage URL) whose metadata carries the transcription report (backend,
 * language, counts, note); the job's answer lists them (`captions`).
 */
import { inArray } from "drizzle-orm";
import type { Ctx } from "../context.ts";
import { CAPTION_OUTPUTS, type CaptionsReport } from "@media-render/contract/wire";
import { mediaFiles, type jobs } from "../db/schema.ts";
import { downloadPath } from "../paths.ts";
import { keyOf } from "../storage/paths.ts";
import { CAPTION_FILES, captionStorageUrl, outputRow } from "./output.ts";
import type { Captions } from "./schemas.ts";
import { storedVideoConfig } from "./stored-config.ts";

type JobRow = typeof jobs.$inferSelect;

/** Records the caption files the renderer stored for `job` (those missing in storage are skipped). */
export const recordCaptionOutputs = async (ctx: Ctx, job: JobRow, report: CaptionsReport): Promise<void> => {
  const rows = [];
  for (const kind of CAPTION_OUTPUTS) {
    const storageUrl = captionStorageUrl(job, kind);
    const head = await ctx.env.FILES.head(keyOf(storageUrl));
    if (!head) continue;
    rows.push(
      outputRow(job, { size: head.size }, ctx.now(), {
        storageUrl,
        ext: CAPTION_FILES[kind].ext,
        category: "unknown",
        metadata: { captions: { kind, ...report } },
      }),
    );
  }
  if (rows.length === 0) return;
  await ctx.db.insert(mediaFiles).values(rows).onConflictDoNothing({ target: mediaFiles.storageUrl }).run();
};

/**
 * The `captions` block of a job's answer: null unless the job asked for autoSubtitles; once completed, the
 * transcription report and each stored file with its id and download path.
 */
export const captionsOfJob = async (ctx: Ctx, job: JobRow): Promise<Captions | null> => {
  if (job.type !== "VIDEO" || storedVideoConfig(job).autoSubtitles !== true) return null;
  if (job.status !== "COMPLETED") return { status: "pending", files: [] };
  const urls = CAPTION_OUTPUTS.map((kind) => captionStorageUrl(job, kind));
  // media_files_storage_url_unique serves this lookup.
  const rows = await ctx.db.query.mediaFiles.findMany({ where: inArray(mediaFiles.storageUrl, urls) });
  const report = rows.map((r) => r.metadata.captions as (CaptionsReport & { kind: string }) | undefined)[0];
  return {
    status: "done",
    backend: report?.backend ?? null,
    language: report?.language ?? null,
    words: report?.words ?? 0,
    cues: report?.cues ?? 0,
    note: report?.note ?? null,
    files: CAPTION_OUTPUTS.flatMap((kind) => {
      const row = rows.find((r) => r.storageUrl === captionStorageUrl(job, kind));
      return row
        ? [
            {
              kind,
              fileId: row.id,
              mimeType: row.mimeType,
              size: row.size,
              downloadUrl: downloadPath(row.id),
            },
          ]
        : [];
    }),
  };
};
