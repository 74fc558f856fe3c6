/**
 * Parallel rendering of long videos (docs/parallel-rendering.md): whether a job is split, into how many chunks, and
 * its chunks' rows (`job_chunks`). The job itself stays PROCESSING at one hand-over while its chunks render, each
 * chunk with its own hand-overs and lease; once every chunk's segment is stored, one join renders the audio and
 * writes the output, and completes the job as a single render would (the same cost, the same callback path).
 */
import { and, eq } from "drizzle-orm";
import type { VideoConfig } from "@media-render/contract/config";
import { renderWork } from "@media-render/contract/deadline";
import type { Timeline } from "@media-render/contract/timeline";
import { MAX_CHUNKS } from "@media-render/contract/wire";
import type { Ctx } from "../context.ts";
import { jobChunks, type ChunkStatus } from "../db/schema.ts";
import { finishJob } from "./lifecycle.ts";
import { MAX_RENDER_ATTEMPTS } from "./retry-render.ts";

/** Default threshold: a minute of 1280x720 (pixels x seconds); PARALLEL_RENDER_MIN_WORK overrides it. */
export const DEFAULT_MIN_WORK = 60 * 1280 * 720;

/** The outputs whose video is joined from H.264 segments by stream copy. */
const SPLIT_FORMATS = new Set(["mp4", "mov"]);

/** A chunk renders at least half the threshold's work: fewer, longer chunks keep each one's fixed cost small. */
const CHUNK_WORK_FRACTION = 0.5;

/**
 * How many chunks to split the job into; 1 = render it whole. Split when its planned work (length x pixels) is at
 * least `minWork` and at least two renderers can take a chunk; never a job with autoSubtitles (its captions come
 * from the whole mix before any frame is drawn), a preview (`fast` or `preview`) or a webm (VP9 segments are not
 * joined yet); and only H.264 outputs (mp4, mov without alpha): a GIF's palette, an audio-only file and a still are
 * one piece of work, and posters and thumbnails are taken from the finished file.
 */
export const chunkCount = (
  config: VideoConfig,
  timeline: Timeline,
  format: string,
  renderers: number,
  minWork = DEFAULT_MIN_WORK,
): number => {
  if (renderers < 2 || config.autoSubtitles || config.fast || !SPLIT_FORMATS.has(format)) return 1;
  if (config.alpha || config.still || config.preview || config.poster || config.thumbnails) return 1;
  const work = renderWork(config, timeline);
  const pixelSeconds = work.seconds * work.width * work.height;
  if (pixelSeconds < minWork) return 1;
  const byWork = Math.floor(pixelSeconds / (minWork * CHUNK_WORK_FRACTION));
  // Each chunk at least a second of frames.
  const byFrames = Math.floor(timeline.totalFrames / timeline.fps);
  return Math.max(1, Math.min(renderers, MAX_CHUNKS, byWork, byFrames));
};

/** The threshold from the environment (pixels x seconds), else the default. */
export const minWorkOf = (value: string | undefined): number => {
  const n = Number(value);
  return value !== undefined && value !== "" && Number.isFinite(n) && n > 0 ? n : DEFAULT_MIN_WORK;
};

export type ChunkRow = typeof jobChunks.$inferSelect;

export const chunksOf = (ctx: Ctx, jobId: string): Promise<ChunkRow[]> =>
  ctx.db.query.jobChunks.findMany({ where: eq(jobChunks.jobId, jobId), orderBy: jobChunks.idx });

/** Opens the job's `count` chunk rows (PENDING); rows already there (a job handed over again) are kept. */
export const openChunks = async (ctx: Ctx, jobId: string, count: number): Promise<void> => {
  const at = ctx.now();
  await ctx.db
    .insert(jobChunks)
    .values(
      Array.from({ length: count }, (_, idx) => ({
        jobId,
        idx,
        count,
        status: "PENDING" as const,
        updatedAt: at,
      })),
    )
    .onConflictDoNothing();
};

/** Moves a chunk from `from` to `to` (guarded: false when it was not in `from`, or not at `attempts`). */
export const moveChunk = async (
  ctx: Ctx,
  key: { jobId: string; idx: number; attempts?: number },
  from: ChunkStatus,
  to: ChunkStatus,
  set: Partial<Pick<ChunkRow, "instance" | "percent" | "renderMs" | "attempts">> = {},
): Promise<boolean> => {
  const res = await ctx.db
    .update(jobChunks)
    .set({ ...set, status: to, updatedAt: ctx.now() })
    .where(
      and(
        eq(jobChunks.jobId, key.jobId),
        eq(jobChunks.idx, key.idx),
        eq(jobChunks.status, from),
        key.attempts === undefined ? undefined : eq(jobChunks.attempts, key.attempts),
      ),
    );
  return res.meta.changes === 1;
};

/** Renews a rendering chunk's lease and records its progress; false for a stale report. */
export const renewChunk = async (
  ctx: Ctx,
  key: { jobId: string; idx: number; attempts: number },
  percent: number | undefined,
): Promise<boolean> => {
  const res = await ctx.db
    .update(jobChunks)
    .set({ updatedAt: ctx.now(), ...(percent !== undefined && { percent: Math.round(percent) }) })
    .where(
      and(
        eq(jobChunks.jobId, key.jobId),
        eq(jobChunks.idx, key.idx),
        eq(jobChunks.status, "RENDERING"),
        eq(jobChunks.attempts, key.attempts),
      ),
    );
  return res.meta.changes === 1;
};

/**
 * Claims the join: every chunk DONE moves to JOINED in one statement, so of two racing claims (the last two chunks
 * finishing at once) exactly one sees all of them move.
 */
export const claimJoin = async (ctx: Ctx, jobId: string, count: number): Promise<boolean> => {
  const res = await ctx.db
    .update(jobChunks)
    .set({ status: "JOINED", updatedAt: ctx.now() })
    .where(and(eq(jobChunks.jobId, jobId), eq(jobChunks.status, "DONE")));
  return res.meta.changes === count;
};

/** A job handed over again after its join was lost: its stored segments are joined again. */
export const reopenJoin = async (ctx: Ctx, jobId: string): Promise<void> => {
  await ctx.db
    .update(jobChunks)
    .set({ status: "DONE", updatedAt: ctx.now() })
    .where(and(eq(jobChunks.jobId, jobId), eq(jobChunks.status, "JOINED")));
};

/** The job's progress while its chunks render: their mean, scaled below the join's share. */
export const chunksPercent = (rows: readonly ChunkRow[], upTo: number): number =>
  rows.length === 0
    ? 0
    : Math.floor(
        (rows.reduce(
          (s, r) => s + (r.status === "PENDING" || r.status === "RENDERING" ? r.percent : 100),
          0,
        ) /
          rows.length) *
          (upTo / 100),
      );

/** Where chunk `idx`'s segment is stored: beside the job's output, removed once the job ends. */
export const segmentKey = (outputKey: string, idx: number): string => `${outputKey}.chunk${idx}`;

interface ChunkedJob {
  id: string;
  userId: string;
  attempts: number;
  tokensReserved: number;
  reservedPrepaid: number;
}

/**
 * The render of hand-over `row.attempts` of a chunk was lost (its renderer went silent or reported an infrastructure
 * fault): that chunk alone is offered again, up to MAX_RENDER_ATTEMPTS hand-overs; then the job fails, nothing
 * charged, and its other chunks are stopped. Guarded by the chunk's attempt, so two notices of one loss act once.
 */
export const handOverChunk = async (
  ctx: Ctx,
  job: ChunkedJob,
  row: Pick<ChunkRow, "idx" | "attempts" | "instance">,
  reason: string,
): Promise<"requeued" | "failed" | "stale"> => {
  ctx.defer(ctx.renderer.cancel(job.id, row.attempts, row.instance ?? undefined, row.idx).catch(() => false));
  if (row.attempts >= MAX_RENDER_ATTEMPTS) {
    const error = `Rendering failed after ${row.attempts} attempts of chunk ${row.idx + 1}: ${reason}; no tokens were charged`;
    if (!(await finishJob(ctx, job, { status: "FAILED", error }))) return "stale";
    ctx.defer(ctx.renderer.cancel(job.id).catch(() => false));
    return "failed";
  }
  const key = { jobId: job.id, idx: row.idx, attempts: row.attempts };
  if (!(await moveChunk(ctx, key, "RENDERING", "PENDING", { percent: 0 }))) return "stale";
  await ctx.env.VIDEO_QUEUE.send({ kind: "chunk", jobId: job.id, chunk: row.idx });
  return "requeued";
};
