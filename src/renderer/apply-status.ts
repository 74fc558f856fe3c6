/**
 * Applies a renderer's status report to a job (the spec's "Runner callback"). Every branch goes through the lifecycle
 * module, so replays and out-of-order reports are harmless: a finished job never moves again.
 */
import type { Ctx } from "../context.ts";
import { CAPTION_OUTPUTS, type StatusReport } from "@media-render/contract/wire";
import { recordCaptionOutputs } from "../jobs/caption-outputs.ts";
import { frameKeys, recordFrameOutputs } from "../jobs/frame-outputs.ts";
import { finalCost } from "../jobs/cost.ts";
import { getJobById } from "../jobs/lookup.ts";
import { finishJob, markProcessing } from "../jobs/lifecycle.ts";
import { captionStorageUrl, outputStorageUrl, recordOutput } from "../jobs/output.ts";
import { retryRender } from "../jobs/retry-render.ts";
import { applyChunkReport } from "./chunk-status.ts";
import { dropSegments } from "../jobs/chunks.ts";
import { ValidationFailed } from "../lib/errors.ts";
import { keyOf } from "../storage/paths.ts";

/**
 * A renderer's error text as users see it: no host paths (temp files, install folders) and no ffmpeg progress
 * noise, at most 500 characters. The renderer writes user-facing messages already; this is the last line of defence.
 */
export const publicError = (text: string | undefined): string => {
  const cleaned = (text ?? "")
    .replace(/(?:file:)?(?:\/[\w.@+-]+){2,}\/?/g, "<file>")
    .replace(
      /\b(?:frame|fps|q|size|time|bitrate|speed|drop_frames|dup_frames|progress|out_time\w*|total_size)=\S*\s*\|?\s*/g,
      "",
    )
    .replace(/\s+/g, " ")
    .trim();
  return cleaned.slice(0, 500) || "Rendering failed";
};

/** Returns whether the report changed the job (false for duplicates and reports about finished jobs). */
export const applyStatusReport = async (ctx: Ctx, report: StatusReport): Promise<boolean> => {
  const job = await getJobById(ctx, report.jobId);
  if (job.type !== report.type.toUpperCase()) {
    throw new ValidationFailed([
      { field: "type", message: `Job ${job.id} is of type ${job.type.toLowerCase()}` },
    ]);
  }
  // A report about one chunk of a split job (docs/parallel-rendering.md).
  if (report.chunk !== undefined)
    return applyChunkReport(ctx, job, { ...report, chunk: report.chunk }, publicError);
  // A split job's join ended it: its segments are not needed any more (a retryable fault joins them again).
  if (report.status === "completed" || (report.status === "failed" && !report.retryable))
    ctx.defer(dropSegments(ctx, job).catch(() => {}));
  const meta = report.metadata ?? {};
  // A report of a lost hand-over (a renderer that lost its lease and woke up: its attempt is older than the job's
  // latest, or the job went back to PENDING after it) neither renews nor ends the job; only its finished file is
  // still welcome (the same config, at the same output path).
  const stale =
    report.attempt !== undefined &&
    (report.attempt < job.attempts || (job.status === "PENDING" && report.attempt <= job.attempts));
  if (stale && report.status !== "completed") return false;
  switch (report.status) {
    case "processing":
      return markProcessing(ctx, job.id, {
        percent: meta.progress !== undefined ? Math.round(meta.progress) : undefined,
        stage: meta.stage,
      });
    case "failed":
      // An infrastructure fault hands the job over again. One reported before the dispatch marked the job
      // PROCESSING (a render lost within moments of its acceptance) is left to the lease, which notices it in seconds.
      if (report.retryable)
        return (
          job.status === "PROCESSING" &&
          (await retryRender(ctx, job, publicError(report.error), undefined, meta.processingTime)) !== "stale"
        );
      // The job's own fault: the renderer time it took counts against the account's failed-render quota. A defect of
      // ours (its message carries the reference the renderer logged) fails the job once and counts against nobody.
      return finishJob(ctx, job, {
        status: "FAILED",
        error: publicError(report.error),
        renderMs: meta.processingTime,
        jobsFault: report.fault !== "defect",
      });
    case "cancelled":
      return finishJob(ctx, job, { status: "CANCELLED" });
    case "completed": {
      if (job.status !== "PENDING" && job.status !== "PROCESSING") {
        // A render that finished after its job was cancelled or swept: its file has no row and would never expire.
        if (job.outputFileId === null)
          await ctx.env.FILES.delete([
            keyOf(outputStorageUrl(job)),
            ...CAPTION_OUTPUTS.map((kind) => keyOf(captionStorageUrl(job, kind))),
            ...frameKeys(job),
          ]);
        return false;
      }
      // The output must be where this job was told to write it; a result elsewhere is refused.
      const expected = outputStorageUrl(job);
      const resultPath = report.resultUrl ? decodeURIComponent(new URL(report.resultUrl).pathname) : null;
      if (!resultPath?.endsWith(expected)) {
        throw new ValidationFailed([
          { field: "resultUrl", message: `Completed jobs must report their output at ${expected}` },
        ]);
      }
      const head = await ctx.env.FILES.head(keyOf(expected));
      if (!head) {
        return finishJob(ctx, job, {
          status: "FAILED",
          error: "The renderer reported completion but no output was stored",
        });
      }
      const outputFileId = await recordOutput(ctx, job, {
        size: head.size,
        width: meta.outputWidth,
        height: meta.outputHeight,
        duration: meta.videoDuration,
      });
      if (meta.captions) await recordCaptionOutputs(ctx, job, meta.captions);
      await recordFrameOutputs(ctx, job, meta.videoDuration ?? 0);
      return finishJob(ctx, job, {
        status: "COMPLETED",
        outputFileId,
        // Captions are charged when the audio was transcribed (not when the video had none to hear).
        cost: finalCost(job, meta.videoDuration, meta.captions?.backend != null),
        renderMs: meta.processingTime,
      });
    }
  }
};
