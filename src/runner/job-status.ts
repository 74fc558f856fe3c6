/**
 * Applies a runner status report to a job (spec: Runner callback). Every branch goes through the lifecycle
 * module, so replays and out-of-order reports are harmless: a finished job never moves again.
 */
import * as v from "valibot";
import { getDb } from "../db/client";
import type { Env } from "../env";
import { finalCost } from "../jobs/cost";
import { getJobById } from "../jobs/internal";
import { finishJob, markProcessing } from "../jobs/lifecycle";
import { outputStorageUrl, recordOutput } from "../jobs/output";
import { ValidationFailed } from "../lib/errors";
import { keyOf } from "../storage/paths";

export const RunnerStatusPayload = v.object({
  jobId: v.pipe(v.string(), v.minLength(1)),
  status: v.picklist(["processing", "completed", "failed", "cancelled"]),
  type: v.picklist(["image", "video"]),
  timestamp: v.pipe(v.string(), v.isoTimestamp()),
  resultUrl: v.optional(v.pipe(v.string(), v.url())),
  error: v.optional(v.string()),
  metadata: v.optional(
    v.object({
      processingTime: v.optional(v.number()),
      fileSize: v.optional(v.number()),
      sessionId: v.optional(v.string()),
      videoDuration: v.optional(v.number()),
      outputWidth: v.optional(v.number()),
      outputHeight: v.optional(v.number()),
      progress: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(100))),
      stage: v.optional(v.pipe(v.string(), v.maxLength(40))),
    }),
  ),
});
export type RunnerStatusPayload = v.InferOutput<typeof RunnerStatusPayload>;

/** Returns whether the report changed the job (false for duplicates and reports about finished jobs). */
export const applyRunnerStatus = async (env: Env, report: RunnerStatusPayload): Promise<boolean> => {
  const db = getDb(env.DB);
  const job = await getJobById(db, report.jobId);
  if (job.type !== report.type.toUpperCase()) {
    throw new ValidationFailed([
      { field: "type", message: `Job ${job.id} is of type ${job.type.toLowerCase()}` },
    ]);
  }
  const meta = report.metadata ?? {};
  switch (report.status) {
    case "processing":
      return markProcessing(env.DB, job.id, {
        percent: meta.progress !== undefined ? Math.round(meta.progress) : undefined,
        stage: meta.stage,
      });
    case "failed":
      return finishJob(env.DB, job, { status: "FAILED", error: report.error ?? "Rendering failed" });
    case "cancelled":
      return finishJob(env.DB, job, { status: "CANCELLED" });
    case "completed": {
      if (job.status !== "PENDING" && job.status !== "PROCESSING") return false;
      // The output must be where this job was told to write it; a result elsewhere is refused.
      const expected = outputStorageUrl(job);
      const resultPath = report.resultUrl ? decodeURIComponent(new URL(report.resultUrl).pathname) : null;
      if (!resultPath?.endsWith(expected)) {
        throw new ValidationFailed([
          { field: "resultUrl", message: `Completed jobs must report their output at ${expected}` },
        ]);
      }
      const head = await env.FILES.head(keyOf(expected));
      if (!head) {
        return finishJob(env.DB, job, {
          status: "FAILED",
          error: "The renderer reported completion but no output was stored",
        });
      }
      const outputFileId = await recordOutput(db, job, {
        size: head.size,
        width: meta.outputWidth,
        height: meta.outputHeight,
        duration: meta.videoDuration,
      });
      return finishJob(env.DB, job, {
        status: "COMPLETED",
        outputFileId,
        cost: finalCost(job, meta.videoDuration),
      });
    }
  }
};
