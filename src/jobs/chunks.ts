/**
 * Parallel rendering of long videos (docs/parallel-rendering.md): whether a job is split, into how many chunks, and
 * its chunks' rows (`job_chunks`). The job itself stays PROCESSING at one hand-over while its chunks render, each
 * chunk with its own hand-overs and lease; once every chunk's segment is stored, one join renders the audio and
 * writes the output, and completes the job as a single render would (the same cost, the same callback path).
 */
import { and, eq, sql } from "drizzle-orm";
import type { VideoConfig } from "@media-render/contract/config";
import { chunksForDeadline, renderWork } from "@media-render/contract/deadline";
import type { Timeline } from "@media-render/contract/timeline";
import { MAX_CHUNKS, splittable } from "@media-render/contract/windows";
import type { Ctx } from "../context.ts";
import { jobChunks, type ChunkStatus } from "../db/schema.ts";
import { keyOf } from "../storage/paths.ts";
import { finishJob } from "./lifecycle.ts";
import { outputStorageUrl } from "./output.ts";
import { MAX_RENDER_ATTEMPTS } from "./retry-render.ts";

/** Default threshold: a minute of 1280x720 (pixels x seconds); PARALLEL_RENDER_MIN_WORK overrides it. */
export const DEFAULT_MIN_WORK = 60 * 1280 * 720;

/** A chunk renders at least half the threshold's work: fewer, longer chunks keep each one's fixed cost small. */
const CHUNK_WORK_FRACTION = 0.5;

/**
 * A captioned chunk is at least this long: the caption part straddling each of its edges (CAPTION_PART_SECONDS, 30 s)
 * is transcribed by both chunks beside it, so shorter chunks would pay for their captions twice (2 minutes in 4
 * chunks: 2x the whole render's transcription, measured); at 5 minutes the repeat stays near a fifth.
 * PARALLEL_CAPTIONED_CHUNK_SECONDS overrides it.
 */
export const CAPTIONED_CHUNK_SECONDS = 300;

/**
 * How many chunks to split the job into; 1 = render it whole. Only a job whose output can be joined from segments
 * (windows.ts splittable: mp4 or mov, the whole timeline). It splits into as many chunks as the
 * longest render's deadline needs (deadline.ts chunksForDeadline: an hour of 1080p at least 8, one renderer or
 * many), and into one chunk per renderer (`renderers`: the instances a job can get) when its planned work (length x
 * pixels) is at least `minWork`, each chunk at least half of that and a second of frames (five minutes with
 * autoSubtitles: `captionedSeconds`): fewer, longer chunks keep
 * each one's fixed cost (inputs fetched and probed, processes started, the segment stored) small. At most MAX_CHUNKS.
 */
export const chunkCount = (
  config: VideoConfig,
  timeline: Timeline,
  format: string,
  renderers: number,
  minWork = DEFAULT_MIN_WORK,
  captionedSeconds = CAPTIONED_CHUNK_SECONDS,
): number => {
  if (!splittable(config, format)) return 1;
  const needed = chunksForDeadline(config, timeline);
  const work = renderWork(config, timeline);
  const pixelSeconds = work.seconds * work.width * work.height;
  const byInstances =
    renderers < 2 || pixelSeconds < minWork
      ? 1
      : Math.min(
          renderers,
          Math.floor(pixelSeconds / (minWork * CHUNK_WORK_FRACTION)),
          Math.floor(timeline.duration / (config.autoSubtitles ? captionedSeconds : 1)),
        );
  return Math.max(1, Math.min(MAX_CHUNKS, Math.max(needed, byInstances)));
};

/** A positive number from the environment, else `fallback`. */
const positiveOr = (value: string | undefined, fallback: number): number => {
  const parsed = Number(value);
  return value !== undefined && value !== "" && Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
};

/** The threshold from the environment (pixels x seconds), else the default. */
export const minWorkOf = (value: string | undefined): number => positiveOr(value, DEFAULT_MIN_WORK);

/** A captioned job's shortest chunk from the environment (seconds), else the default. */
export const captionedSecondsOf = (value: string | undefined): number =>
  positiveOr(value, CAPTIONED_CHUNK_SECONDS);

export type ChunkRow = typeof jobChunks.$inferSelect;

/** What names a job's output (and so its segments' keys). */
type OutputOf = Parameters<typeof outputStorageUrl>[0];

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
  set: Partial<Pick<ChunkRow, "instance" | "percent" | "renderMs" | "attempts" | "startedAt">> = {},
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

/**
 * Where chunk `idx` of an autoSubtitles job stores the words of the transcription parts it owns (a small JSON file the
 * join merges into the caption files): beside its segment, removed with it.
 */
export const wordsKey = (outputKey: string, idx: number): string =>
  `${segmentKey(outputKey, idx)}.words.json`;

interface ChunkedJob {
  id: string;
  userId: string;
  attempts: number;
  tokensReserved: number;
  reservedPrepaid: number;
}

/** Renderer time a lost hand-over of a chunk held: what its render reported, else its wall time since accepted. */
export const lostRenderMs = (ctx: Ctx, row: Pick<ChunkRow, "startedAt">, reported?: number): number =>
  Math.max(0, Math.round(reported ?? (row.startedAt === null ? 0 : ctx.now() - row.startedAt)));

/**
 * Adds `usedMs` of renderer time to hand-over `attempts` of a rendering chunk, which ends here (the job is ending:
 * its settlement counts every chunk's time, lifecycle.ts).
 */
export const recordChunkTime = async (
  ctx: Ctx,
  key: { jobId: string; idx: number; attempts: number },
  usedMs: number,
): Promise<void> => {
  await ctx.db
    .update(jobChunks)
    .set({ renderMs: sql`${jobChunks.renderMs} + ${Math.max(0, Math.round(usedMs))}`, startedAt: null })
    .where(
      and(
        eq(jobChunks.jobId, key.jobId),
        eq(jobChunks.idx, key.idx),
        eq(jobChunks.status, "RENDERING"),
        eq(jobChunks.attempts, key.attempts),
      ),
    );
};

/**
 * The render of hand-over `row.attempts` of a chunk was lost (its renderer went silent or reported an infrastructure
 * fault): that chunk alone is offered again, up to MAX_RENDER_ATTEMPTS hand-overs, its time (`usedMs`: what the
 * lost render reported, else lostRenderMs) counted on its row; then the job fails, nothing charged, every chunk's
 * time in its render time, and its other chunks are stopped. Guarded by the chunk's attempt, so two notices of one loss act once.
 */
export const handOverChunk = async (
  ctx: Ctx,
  job: ChunkedJob,
  row: Pick<ChunkRow, "idx" | "attempts" | "instance" | "renderMs">,
  reason: string,
  usedMs = 0,
): Promise<"requeued" | "failed" | "stale"> => {
  ctx.defer(ctx.renderer.cancel(job.id, row.attempts, row.instance ?? undefined, row.idx).catch(() => false));
  const key = { jobId: job.id, idx: row.idx, attempts: row.attempts };
  if (row.attempts >= MAX_RENDER_ATTEMPTS) {
    const error = `Rendering failed after ${row.attempts} attempts of chunk ${row.idx + 1}: ${reason}; no tokens were charged`;
    await recordChunkTime(ctx, key, usedMs);
    if (!(await finishJob(ctx, job, { status: "FAILED", error }))) return "stale";
    ctx.defer(ctx.renderer.cancel(job.id).catch(() => false));
    return "failed";
  }
  const set = { percent: 0, renderMs: row.renderMs + Math.max(0, Math.round(usedMs)), startedAt: null };
  if (!(await moveChunk(ctx, key, "RENDERING", "PENDING", set))) return "stale";
  await ctx.env.VIDEO_QUEUE.send({ kind: "chunk", jobId: job.id, chunk: row.idx });
  return "requeued";
};

/** Deletes a split job's stored segments (and words files) once its output is (or will never be) written. */
export const dropSegments = async (ctx: Ctx, job: OutputOf): Promise<void> => {
  const rows = await chunksOf(ctx, job.id);
  if (rows.length === 0) return;
  const outputKey = keyOf(outputStorageUrl(job));
  await ctx.env.FILES.delete(rows.flatMap((r) => [segmentKey(outputKey, r.idx), wordsKey(outputKey, r.idx)]));
};

/** A split job ended: its chunks still rendering are stopped and its stored segments dropped (both best effort). */
export const stopChunks = (ctx: Ctx, job: OutputOf): void => {
  ctx.defer(ctx.renderer.cancel(job.id).catch(() => false));
  ctx.defer(dropSegments(ctx, job).catch(() => {}));
};
