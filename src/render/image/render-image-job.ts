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
import { completeWithOutput, finishJob, markProcessing } from "../../jobs/lifecycle";
import { mimeOfFormat, outputRowStatement, outputStorageUrl } from "../../jobs/output";
import { keyOf } from "../../storage/paths";
import { hostedFontSource } from "../../fonts/hosted-source";
import { compileImage } from "./compile-html";
import { hostedFontKeys, loadHostedFonts } from "./hosted-fonts";
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

/** Milliseconds per step, logged once per render (one JSON line: where a slow render spent its time). */
const stopwatch = () => {
  const start = Date.now();
  let last = start;
  const stages: Record<string, number> = {};
  return {
    stages,
    lap(name: string) {
      const now = Date.now();
      stages[name] = now - last;
      last = now;
    },
    total: () => Date.now() - start,
  };
};

export const renderImageJob = async (env: Env, jobId: string): Promise<"done" | "skipped"> => {
  const clock = stopwatch();
  const db = getDb(env.DB);
  // Read and claim at once (neither depends on the other: the row's config and reserve do not change).
  // Idempotent: a redelivered message for a finished job does nothing.
  const [job, open] = await Promise.all([
    getJobById(db, jobId),
    markProcessing(env.DB, jobId, { stage: "rendering", percent: 10, countAttempt: true }),
  ]);
  if (!open) return "skipped";
  clock.lap("startMs");
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
  clock.lap("inputsMs");
  const online = env.FONT_CATALOGUE_ONLINE === "true";
  const hosted = await loadHostedFonts(config, online ? hostedFontSource({ bucket: env.FILES }) : null);
  clock.lap("fontsMs");
  const compiled = compileImage(config, sizes, hosted);
  clock.lap("compileMs");
  const format = (job.outputFormat === "jpg" ? "jpeg" : job.outputFormat) as "png" | "jpeg" | "webp";
  const shot = await browserFor(env, job.id).screenshot({
    html: compiled.html,
    width: config.width,
    height: config.height,
    format,
    quality: config.quality,
    assetKeys: [...inputs.map((f) => f.storageKey), ...hostedFontKeys(hosted)],
    htmlLayers: compiled.htmlLayers,
    waitSeconds: compiled.waitSeconds,
    // The browser object stores the image in R2 (before returning) itself.
    output: { key: keyOf(outputStorageUrl(job)), contentType: mimeOfFormat(job.outputFormat) },
  });
  clock.lap("browserMs");
  // The output row and the settlement in one D1 batch (one round trip).
  const output = outputRowStatement(db, env.DB, job, {
    size: shot.size,
    width: config.width,
    height: config.height,
  });
  await completeWithOutput(env.DB, job, output, finalCost(job));
  clock.lap("finishMs");
  console.log(
    JSON.stringify({
      level: "info",
      msg: "image rendered",
      jobId: job.id,
      // From creation to this consumer starting: queue delivery (and any retry backoff).
      queuedMs: Date.now() - clock.total() - job.createdAt,
      totalMs: clock.total(),
      ...clock.stages,
      browser: shot.timings,
      bytes: shot.size,
    }),
  );
  return "done";
};
