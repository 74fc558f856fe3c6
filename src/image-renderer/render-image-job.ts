/**
 * Renders one image job in the image queue's consumer: compile the config to HTML, screenshot it in the
 * warm browser object, store the output in R2, record it and settle the job.
 */
import { inArray } from "drizzle-orm";
import type { Ctx } from "../context.ts";
import type { ImageConfig } from "@media-render/contract/config";
import { mimeOf } from "@media-render/contract/mime";
import { canonicalFormat, type FormatFor } from "@media-render/contract/output-formats";
import { mediaFiles } from "../db/schema.ts";
import { catalogueOnline } from "../fonts/online.ts";
import { finalCost } from "../jobs/cost.ts";
import { withStoragePaths } from "../jobs/input-map.ts";
import { getJobById } from "../jobs/lookup.ts";
import { completeWithOutput, finishJob, markProcessing } from "../jobs/lifecycle.ts";
import { outputRowStatement, outputStorageUrl } from "../jobs/output.ts";
import { storedImageConfig } from "../jobs/stored-config.ts";
import { keyOf } from "../storage/paths.ts";
import { hostedFontSource } from "../fonts/hosted-source.ts";
import { compileImage } from "@media-render/image-page/compile-html";
import { hostedFontKeys, loadHostedFonts } from "./hosted-fonts.ts";
import { browserFor } from "./image-browser.ts";

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

/** What one image job's files may weigh together: the browser object holds them in memory while it draws. */
export const MAX_IMAGE_JOB_INPUT_BYTES = 256 * 2 ** 20;

export const renderImageJob = async (ctx: Ctx, jobId: string): Promise<"done" | "skipped"> => {
  const clock = stopwatch();
  const { env, db } = ctx;
  // Read and claim at once (neither depends on the other: the row's config and reserve do not change).
  // Idempotent: a redelivered message for a finished job does nothing.
  const [job, open] = await Promise.all([
    getJobById(ctx, jobId),
    markProcessing(ctx, jobId, { stage: "rendering", percent: 10, countAttempt: true }),
  ]);
  if (!open) return "skipped";
  clock.lap("startMs");
  // Public URL inputs were imported into storage at creation: the stored copies are drawn.
  const stored = storedImageConfig(job);
  const refused = unrenderableReason(stored);
  if (refused) {
    await finishJob(ctx, job, { status: "FAILED", error: refused });
    return "done";
  }
  const inputs = job.inputFileIds.length
    ? await db.query.mediaFiles.findMany({ where: inArray(mediaFiles.id, job.inputFileIds) })
    : [];
  const inputBytes = inputs.reduce((n, f) => n + f.size, 0);
  if (inputBytes > MAX_IMAGE_JOB_INPUT_BYTES) {
    const mb = (n: number) => Math.round(n / 2 ** 20);
    await finishJob(ctx, job, {
      status: "FAILED",
      error: `The job's files total ${mb(inputBytes)} MB; an image job draws at most ${mb(MAX_IMAGE_JOB_INPUT_BYTES)} MB of files`,
    });
    return "done";
  }
  const config = withStoragePaths("image", stored, inputs);
  const sizes = new Map(
    inputs.flatMap((f) =>
      f.width && f.height ? [[f.storageUrl, { width: f.width, height: f.height }]] : [],
    ),
  ) as Map<string, { width: number; height: number }>;
  clock.lap("inputsMs");
  const online = catalogueOnline(env);
  const hosted = await loadHostedFonts(config, online ? hostedFontSource({ bucket: env.FILES }) : null);
  clock.lap("fontsMs");
  const compiled = compileImage(config, sizes, hosted);
  clock.lap("compileMs");
  const format = canonicalFormat(job.outputFormat) as FormatFor<"image">;
  const shot = await browserFor(env, job.id).screenshot({
    html: compiled.html,
    width: config.width,
    height: config.height,
    format,
    quality: config.quality,
    assetKeys: [...inputs.map((f) => f.storageKey), ...hostedFontKeys(hosted)],
    htmlLayers: compiled.htmlLayers,
    waitSeconds: compiled.waitSeconds,
    scripted: compiled.scripted,
    // The browser object stores the image in R2 (before returning) itself.
    output: { key: keyOf(outputStorageUrl(job)), contentType: mimeOf(job.outputFormat) },
  });
  clock.lap("browserMs");
  if ("deadlineExceeded" in shot) {
    // Permanent: the same page would loop again; retrying would only hold the shared browser longer.
    await finishJob(ctx, job, { status: "FAILED", error: shot.deadlineExceeded });
    return "done";
  }
  // The output row and the settlement in one D1 batch (one round trip).
  const output = outputRowStatement(ctx, job, {
    size: shot.size,
    width: config.width,
    height: config.height,
  });
  await completeWithOutput(ctx, job, output, finalCost(job));
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
