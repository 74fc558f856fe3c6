/**
 * Parallel rendering's side of the video queue (docs/parallel-rendering.md): a long job opens its chunks and each
 * is offered to the pool on its own message (`chunk`), so a busy pool puts back one chunk, not the job; each
 * handed-over chunk's lease is watched (`watch-chunk`) like a job's; once every segment is stored, the join
 * (`join`) goes to one renderer as a hand-over of the job itself, watched by the job's own lease (watch-lease.ts).
 */
import type { VideoConfig } from "@media-render/contract/config";
import {
  chunkWork,
  joinDeadlineSeconds,
  renderWork,
  videoDeadlineSeconds,
} from "@media-render/contract/deadline";
import type { Timeline } from "@media-render/contract/timeline";
import type { RenderVideoRequestInput } from "@media-render/contract/wire";
import { chunkWindow } from "@media-render/contract/windows";
import type { Ctx } from "../context.ts";
import {
  chunkCount,
  chunksOf,
  claimJoin,
  handOverChunk,
  lostRenderMs,
  captionedSecondsOf,
  minWorkOf,
  moveChunk,
  openChunks,
  reopenJoin,
  segmentKey,
  stopChunks,
  wordsKey,
} from "../jobs/chunks.ts";
import { getJobById } from "../jobs/lookup.ts";
import { finishJob, markProcessing } from "../jobs/lifecycle.ts";
import { outputStorageUrl } from "../jobs/output.ts";
import { renderInstances } from "../renderer/pool.ts";
import { keyOf } from "../storage/paths.ts";
import { signedStorageUrl } from "../storage/signed-url.ts";
import { LEASE_CHECK_SECONDS, LEASE_MS } from "./watch-lease.ts";

type Job = Awaited<ReturnType<typeof getJobById>>;

/** A job's render request and planned timeline (dispatch-video.ts), null when the job was failed instead. */
export type BuildRequest = (
  ctx: Ctx,
  job: Job,
) => Promise<{ request: RenderVideoRequestInput; timeline: Timeline; config: VideoConfig } | null>;

/** Segment URLs outlive the chunks' renders and the join (as dispatch-video.ts's do). */
const URL_TTL_SECONDS = 3 * 3600;

/** How many chunks the job renders as (1: whole), by its planned work and the pool's size. */
export const splitInto = (
  ctx: Ctx,
  job: Pick<Job, "outputFormat">,
  built: { timeline: Timeline; config: VideoConfig },
): number =>
  chunkCount(
    built.config,
    built.timeline,
    job.outputFormat,
    renderInstances(ctx.env).length,
    minWorkOf(ctx.env.PARALLEL_RENDER_MIN_WORK),
    captionedSecondsOf(ctx.env.PARALLEL_CAPTIONED_CHUNK_SECONDS),
  );

/**
 * Hands a PENDING job over as `count` chunks: the job moves to PROCESSING (one hand-over), its chunk rows open and
 * every chunk not stored yet is queued; a job whose segments are all stored (its join was lost) is joined again.
 */
export const dispatchChunks = async (ctx: Ctx, job: Job, count: number): Promise<"done" | "skipped"> => {
  if (!(await markProcessing(ctx, job.id, { stage: "rendering", percent: 0, countAttempt: true })))
    return "skipped";
  // A job handed over again keeps the chunks it was split into (the pool may have changed size since).
  if ((await chunksOf(ctx, job.id)).length === 0) await openChunks(ctx, job.id, count);
  await reopenJoin(ctx, job.id);
  const rows = await chunksOf(ctx, job.id);
  const pending = rows.filter((r) => r.status === "PENDING");
  if (pending.length === 0) {
    if (await claimJoin(ctx, job.id, rows.length))
      await ctx.env.VIDEO_QUEUE.send({ kind: "join", jobId: job.id });
    return "done";
  }
  await ctx.env.VIDEO_QUEUE.sendBatch(
    pending.map((r) => ({ body: { kind: "chunk", jobId: job.id, chunk: r.idx } })),
  );
  return "done";
};

const signer = (ctx: Ctx) => ({ secret: ctx.env.STORAGE_SIGNING_SECRET, baseUrl: ctx.env.PUBLIC_URL });

/** Offers one PENDING chunk to the pool; throws RendererBusy/Unreachable like a job's offer (the consumer waits). */
export const offerChunk = async (
  ctx: Ctx,
  { jobId, chunk }: { jobId: string; chunk: number },
  build: BuildRequest,
): Promise<"done" | "skipped"> => {
  const job = await getJobById(ctx, jobId);
  if (job.status !== "PROCESSING") return "skipped";
  const row = (await chunksOf(ctx, jobId)).find((r) => r.idx === chunk);
  if (row?.status !== "PENDING") return "skipped";
  const built = await build(ctx, job);
  if (!built) return "skipped";
  // The chunk's deadline is its own frames' and its own captions' (deadline.ts chunkWork), less what its earlier
  // hand-overs used of it.
  const window = chunkWindow(built.config, built.timeline, { index: chunk, count: row.count });
  const earned = videoDeadlineSeconds(chunkWork(built.config, built.timeline, window));
  const deadlineSeconds = earned - Math.ceil(row.renderMs / 1000);
  if (deadlineSeconds < 1) {
    const error = `Rendering chunk ${chunk + 1} used up its deadline of ${earned} s over ${row.attempts} attempts; no tokens were charged`;
    if (await finishJob(ctx, job, { status: "FAILED", error })) stopChunks(ctx, job);
    return "skipped";
  }
  const attempt = row.attempts + 1;
  const outputKey = keyOf(outputStorageUrl(job));
  const put = (key: string) => signedStorageUrl({ ...signer(ctx), method: "PUT" }, key, URL_TTL_SECONDS);
  const uploadUrl = await put(segmentKey(outputKey, chunk));
  // autoSubtitles: the chunk stores the words of the transcription parts it owns, for the join.
  const words = built.config.autoSubtitles ? await put(wordsKey(outputKey, chunk)) : undefined;
  const instance = await ctx.renderer.renderVideo({
    ...built.request,
    attempt,
    chunk: { index: chunk, count: row.count },
    output: { uploadUrl, format: built.request.output.format, ...(words && { words }) },
    limits: { maxDurationSeconds: built.timeline.duration, deadlineSeconds },
  });
  const moved = await moveChunk(ctx, { jobId, idx: chunk, attempts: row.attempts }, "PENDING", "RENDERING", {
    attempts: attempt,
    instance,
    percent: 0,
    startedAt: ctx.now(),
  });
  if (!moved) {
    // Offered twice (a redelivered message): the other offer holds the chunk, this render must not run on.
    ctx.defer(ctx.renderer.cancel(jobId, attempt, instance, chunk).catch(() => false));
    return "skipped";
  }
  await ctx.env.VIDEO_QUEUE.send(
    { kind: "watch-chunk", jobId, chunk, attempt, instance },
    { delaySeconds: LEASE_CHECK_SECONDS },
  );
  return "done";
};

/** A chunk's lease: a chunk silent for LEASE_MS is handed over alone; a live one is watched again. */
export const watchChunk = async (
  ctx: Ctx,
  w: { jobId: string; chunk: number; attempt: number; instance?: string },
): Promise<void> => {
  const job = await getJobById(ctx, w.jobId);
  if (job.status !== "PROCESSING") return;
  const row = (await chunksOf(ctx, w.jobId)).find((r) => r.idx === w.chunk);
  if (row?.status !== "RENDERING" || row.attempts !== w.attempt) return;
  if (ctx.now() - row.updatedAt > LEASE_MS) {
    await handOverChunk(ctx, job, row, "the renderer stopped responding", lostRenderMs(ctx, row));
    return;
  }
  await ctx.env.VIDEO_QUEUE.send({ ...w, kind: "watch-chunk" }, { delaySeconds: LEASE_CHECK_SECONDS });
};

/** Hands the join to the pool: the job's own hand-over, its segments by signed URL, watched by the job's lease. */
export const dispatchJoin = async (
  ctx: Ctx,
  jobId: string,
  build: BuildRequest,
): Promise<"done" | "skipped"> => {
  const job = await getJobById(ctx, jobId);
  if (job.status !== "PROCESSING") return "skipped";
  const rows = await chunksOf(ctx, jobId);
  if (rows.length === 0 || rows.some((r) => r.status !== "JOINED")) return "skipped";
  const built = await build(ctx, job);
  if (!built) return "skipped";
  const outputKey = keyOf(outputStorageUrl(job));
  const get = (key: string) => signedStorageUrl({ ...signer(ctx), method: "GET" }, key, URL_TTL_SECONDS);
  const segments = await Promise.all(rows.map((r) => get(segmentKey(outputKey, r.idx))));
  // autoSubtitles: the chunks' words files, merged by the join into the caption files (it transcribes nothing).
  const words = built.config.autoSubtitles
    ? await Promise.all(rows.map((r) => get(wordsKey(outputKey, r.idx))))
    : undefined;
  // The join's deadline is its own work's (the mix, the copy, the frames taken from the joined file; no
  // transcription), less what earlier joins of the job used (a lost join's time is the job's render_ms).
  const earned = joinDeadlineSeconds(
    renderWork(built.config, built.timeline),
    built.request.output.poster !== undefined || built.request.output.thumbnails !== undefined,
  );
  const deadlineSeconds = earned - Math.ceil(job.renderMs / 1000);
  if (deadlineSeconds < 1) {
    const error = `Joining the chunks used up its deadline of ${earned} s over ${job.attempts} attempts; no tokens were charged`;
    if (await finishJob(ctx, job, { status: "FAILED", error })) stopChunks(ctx, job);
    return "skipped";
  }
  const attempt = job.attempts;
  const instance = await ctx.renderer.renderVideo({
    ...built.request,
    attempt,
    join: { segments, ...(words && { words }) },
    limits: { maxDurationSeconds: built.timeline.duration, deadlineSeconds },
  });
  // The join's reports renew the job's lease from now on; the watch notices when they stop.
  await ctx.env.VIDEO_QUEUE.send(
    { kind: "watch", jobId, attempt, instance },
    { delaySeconds: LEASE_CHECK_SECONDS },
  );
  return "done";
};
