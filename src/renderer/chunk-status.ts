/**
 * A renderer's report about one chunk of a split job (docs/parallel-rendering.md): progress renews the chunk's
 * lease and moves the job's progress (the chunks' mean, up to JOIN_FROM_PERCENT); a stored segment (and, with
 * autoSubtitles, words file) completes the chunk and, with the last one, queues the join; an infrastructure fault hands that chunk alone over; the job's own
 * fault fails the job and stops its other chunks. Reports of a chunk's lost hand-over change nothing.
 */
import type { StatusReport } from "@media-render/contract/wire";
import type { Ctx } from "../context.ts";
import {
  chunksOf,
  chunksPercent,
  claimJoin,
  handOverChunk,
  lostRenderMs,
  moveChunk,
  recordChunkTime,
  renewChunk,
  segmentKey,
  stopChunks,
  wordsKey,
} from "../jobs/chunks.ts";
import type { getJobById } from "../jobs/lookup.ts";
import { finishJob, markProcessing } from "../jobs/lifecycle.ts";
import { outputStorageUrl } from "../jobs/output.ts";
import { storedVideoConfig } from "../jobs/stored-config.ts";
import { keyOf } from "../storage/paths.ts";

/** The job's progress when every chunk is stored; the join reports the rest (the renderer's joinPercent). */
const JOIN_FROM_PERCENT = 90;

export const applyChunkReport = async (
  ctx: Ctx,
  job: Awaited<ReturnType<typeof getJobById>>,
  report: StatusReport & { chunk: number },
  publicError: (text: string | undefined) => string,
): Promise<boolean> => {
  const outputKey = keyOf(outputStorageUrl(job));
  const segment = segmentKey(outputKey, report.chunk);
  const words = wordsKey(outputKey, report.chunk);
  if (job.status !== "PROCESSING") {
    // A chunk finished after its job ended: its segment (and words file) are nobody's.
    if (report.status === "completed") await ctx.env.FILES.delete([segment, words]);
    return false;
  }
  const row = (await chunksOf(ctx, job.id)).find((r) => r.idx === report.chunk);
  if (row?.status !== "RENDERING" || report.attempt !== row.attempts) return false;
  const key = { jobId: job.id, idx: row.idx, attempts: row.attempts };
  const meta = report.metadata ?? {};
  switch (report.status) {
    case "processing": {
      if (!(await renewChunk(ctx, key, meta.progress))) return false;
      const percent = chunksPercent(await chunksOf(ctx, job.id), JOIN_FROM_PERCENT);
      return markProcessing(ctx, job.id, { percent, stage: "rendering" });
    }
    case "failed":
      if (report.retryable) {
        const used = lostRenderMs(ctx, row, meta.processingTime);
        return (await handOverChunk(ctx, job, row, publicError(report.error), used)) !== "stale";
      }
      // The job's own fault: its time (this chunk's and every other's, lifecycle.ts) counts against the account.
      await recordChunkTime(ctx, key, lostRenderMs(ctx, row, meta.processingTime));
      if (
        !(await finishJob(ctx, job, {
          status: "FAILED",
          error: publicError(report.error),
          jobsFault: report.fault !== "defect",
        }))
      )
        return false;
      stopChunks(ctx, job);
      return true;
    case "cancelled":
      return false;
    case "completed": {
      const used = lostRenderMs(ctx, row, meta.processingTime);
      if (!(await ctx.env.FILES.head(segment)))
        return (await handOverChunk(ctx, job, row, "the chunk's segment was not stored", used)) !== "stale";
      // autoSubtitles: the words of the parts it owns are the join's too (renderer captions/words-file.ts).
      if (storedVideoConfig(job).autoSubtitles && !(await ctx.env.FILES.head(words)))
        return (await handOverChunk(ctx, job, row, "the chunk's words were not stored", used)) !== "stale";
      const done = { percent: 100, renderMs: row.renderMs + used, startedAt: null };
      if (!(await moveChunk(ctx, key, "RENDERING", "DONE", done))) return false;
      const rows = await chunksOf(ctx, job.id);
      await markProcessing(ctx, job.id, {
        percent: chunksPercent(rows, JOIN_FROM_PERCENT),
        stage: "rendering",
      });
      if (rows.every((r) => r.status === "DONE") && (await claimJoin(ctx, job.id, rows.length)))
        await ctx.env.VIDEO_QUEUE.send({ kind: "join", jobId: job.id });
      return true;
    }
  }
};
