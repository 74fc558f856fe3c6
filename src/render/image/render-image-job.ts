/**
 * Renders one image job in the image queue's consumer: compile the config to HTML, screenshot it in the
 * warm browser object, store the output in R2, record it and settle the job.
 */
import { getDb } from "../../db/client";
import type { Env } from "../../env";
import { finalCost } from "../../jobs/cost";
import { getJobById } from "../../jobs/internal";
import { finishJob, markProcessing } from "../../jobs/lifecycle";
import { mimeOfFormat, outputStorageUrl, recordOutput } from "../../jobs/output";
import { keyOf } from "../../storage/paths";
import { inArray } from "drizzle-orm";
import { mediaFiles } from "../../db/schema";
import { compileHtml, type ImageConfigLike } from "./compile-html";
import { browserFor } from "./image-browser";

export const renderImageJob = async (env: Env, jobId: string): Promise<"done" | "skipped"> => {
  const db = getDb(env.DB);
  const job = await getJobById(db, jobId);
  // Idempotent: a redelivered message for a finished job does nothing.
  if (!(await markProcessing(env.DB, job.id, { stage: "rendering", percent: 10, countAttempt: true })))
    return "skipped";
  const config = job.config as unknown as ImageConfigLike & { format?: string; quality?: number };
  const inputs = job.inputFileIds.length
    ? await db.query.mediaFiles.findMany({ where: inArray(mediaFiles.id, job.inputFileIds) })
    : [];
  const format = (job.outputFormat === "jpg" ? "jpeg" : job.outputFormat) as "png" | "jpeg" | "webp";
  const bytes = await browserFor(env, job.id).screenshot({
    html: compileHtml(config),
    width: config.width,
    height: config.height,
    format,
    quality: config.quality,
    assetKeys: inputs.map((f) => f.storageKey),
  });
  await env.FILES.put(keyOf(outputStorageUrl(job)), bytes, {
    httpMetadata: { contentType: mimeOfFormat(job.outputFormat) },
  });
  const outputFileId = await recordOutput(db, job, {
    size: bytes.byteLength,
    width: config.width,
    height: config.height,
  });
  await finishJob(env.DB, job, { status: "COMPLETED", outputFileId, cost: finalCost(job) });
  return "done";
};
