/**
 * Renders one image job in the image queue's consumer: compile the config to HTML, screenshot it in the
 * warm browser object, store the output in R2, record it and settle the job.
 */
import { inArray } from "drizzle-orm";
import type { ImageConfig } from "../../config";
import { getDb } from "../../db/client";
import { mediaFiles } from "../../db/schema";
import type { Env } from "../../env";
import { finalCost } from "../../jobs/cost";
import { withStoragePaths } from "../../jobs/input-map";
import { getJobById } from "../../jobs/internal";
import { finishJob, markProcessing } from "../../jobs/lifecycle";
import { mimeOfFormat, outputStorageUrl, recordOutput } from "../../jobs/output";
import { keyOf } from "../../storage/paths";
import { compileImage } from "./compile-html";
import { browserFor } from "./image-browser";

/**
 * Why a config cannot be drawn, whatever the retry: the job fails at once with this message instead of
 * retrying into the dead-letter queue.
 */
export const unrenderableReason = (config: ImageConfig): string | null => {
  const live = config.layers.findIndex((l) => l.type === "html" && l.src !== undefined);
  if (live < 0) return null;
  return `layers[${live}].src: html layers cannot capture live pages here (pages get no network access); put the markup in "html" instead`;
};

export const renderImageJob = async (env: Env, jobId: string): Promise<"done" | "skipped"> => {
  const db = getDb(env.DB);
  const job = await getJobById(db, jobId);
  // Idempotent: a redelivered message for a finished job does nothing.
  if (!(await markProcessing(env.DB, job.id, { stage: "rendering", percent: 10, countAttempt: true })))
    return "skipped";
  const refused = unrenderableReason(job.config as unknown as ImageConfig);
  if (refused) {
    await finishJob(env.DB, job, { status: "FAILED", error: refused });
    return "done";
  }
  const inputs = job.inputFileIds.length
    ? await db.query.mediaFiles.findMany({ where: inArray(mediaFiles.id, job.inputFileIds) })
    : [];
  // Public URL inputs were imported into storage at creation; draw the stored copies.
  const config = withStoragePaths("image", job.config, inputs) as unknown as ImageConfig;
  const sizes = new Map(
    inputs.flatMap((f) =>
      f.width && f.height ? [[f.storageUrl, { width: f.width, height: f.height }]] : [],
    ),
  ) as Map<string, { width: number; height: number }>;
  const compiled = compileImage(config, sizes);
  const format = (job.outputFormat === "jpg" ? "jpeg" : job.outputFormat) as "png" | "jpeg" | "webp";
  const bytes = await browserFor(env, job.id).screenshot({
    html: compiled.html,
    width: config.width,
    height: config.height,
    format,
    quality: config.quality,
    assetKeys: inputs.map((f) => f.storageKey),
    htmlLayers: compiled.htmlLayers,
    waitSeconds: compiled.waitSeconds,
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
