/**
 * The job state machine: the only module that changes a job's status or moves its tokens.
 *
 * PENDING -> PROCESSING -> COMPLETED | FAILED | CANCELLED, and PENDING -> CANCELLED | FAILED;
 * PROCESSING -> PENDING when an infrastructure fault lost the render and it is handed over again (requeueJob).
 * Each transition is one D1 batch (one transaction) whose first statement is a guarded UPDATE
 * (`WHERE status IN (...)`); the balance and ledger statements that follow only run when that guard
 * matched (`changes() = 1`). So a duplicate, late or out-of-order event never moves a finished job
 * and never charges twice, even when two arrive at once.
 *
 * Tokens: the estimate is reserved at creation (balance - reserve, ledger `reserve`). Settlement gives the
 * reserve back (`release`) and charges the final cost (`charge`), capped at the reserve so a job never costs
 * more than the estimate the caller accepted. Failed and cancelled jobs are charged nothing.
 *
 * Webhooks: every transition's batch also raises its render event (webhooks/events.ts) for the owner's subscribed
 * endpoints, so the event is durable exactly when the transition is; the new deliveries are then handed to their
 * endpoints' objects before the transition is reported done (the cron hands over any this misses).
 */
import * as ledger from "../ledger/ledger.ts";
import type { Ctx } from "../context.ts";
import type { JobStatus, JobType } from "../db/schema.ts";
import { jobCompleted } from "../destinations/deliver.ts";
import { ConcurrencyLimit, InsufficientTokens } from "../lib/errors.ts";
import { handOver } from "../webhooks/announce.ts";
import { deliveriesOf, eventTypeOf, raiseEvent } from "../webhooks/events.ts";
import { batchJobSettled } from "./feed-batch.ts";
import { failedRenderRefusal, underFailedRenderQuota } from "./render-quota.ts";

const OPEN: readonly JobStatus[] = ["PENDING", "PROCESSING"];
const inList = (statuses: readonly JobStatus[]) => statuses.map((s) => `'${s}'`).join(",");

export interface NewJob {
  id: string;
  userId: string;
  type: JobType;
  /** As submitted (echoed to its owner). */
  config: unknown;
  /** As the grammar's parse gave it back (src/jobs/stored-config.ts reads it). */
  normalizedConfig: unknown;
  /** A video job's plan (src/jobs/planned-length.ts); null for an image job. */
  plan: unknown;
  inputFileIds: string[];
  outputFormat: string;
  reserve: number;
  priority: number;
  createdAt: number;
  /** A job of a template batch: waits unqueued until the batch feeder queues it. */
  batch?: { id: string; row: number; name: string | null };
  /** Where its render events also go (src/webhooks/job-callbacks.ts). */
  webhookUrl?: string | null;
  /** The caller's object, echoed on the job and in its events (metadata.ts). */
  metadata?: Record<string, unknown> | null;
}

/**
 * The plan's concurrent-job limit, as a condition over the account row `u`. Batch jobs do not count: a batch
 * bounds its own queued jobs by the same limit (src/jobs/feed-batch.ts), so a big batch never makes the
 * account's single jobs answer 429 for hours.
 */
const UNDER_CONCURRENCY_LIMIT = `(SELECT count(*) FROM jobs WHERE jobs.user_id = u.id AND jobs.status IN (${inList(OPEN)})
    AND jobs.batch_id IS NULL)
  < (SELECT max_concurrent_jobs FROM plans WHERE plans.id = u.plan_id)`;

/** The reserve and the insert of one PENDING job; the insert runs only when the reserve did. */
const openStatements = (d1: D1Database, job: NewJob, condition?: string): D1PreparedStatement[] => {
  const at = job.createdAt;
  const held = {
    userId: job.userId,
    amount: job.reserve,
    refId: job.id,
    at,
    note: "estimate reserved at job creation",
  };
  return [
    ...ledger.reserve(d1, held, condition),
    d1
      .prepare(
        `INSERT INTO jobs (id, user_id, type, status, config, normalized_config, plan, input_file_ids, output_format,
           tokens_reserved, reserved_prepaid, tokens_used, priority, attempts, batch_id, batch_row, batch_name,
           webhook_url, metadata, created_at, updated_at)
         SELECT ?1, ?2, ?3, 'PENDING', ?4, ?13, ?14, ?5, ?6, ?7,
           (SELECT -prepaid_amount FROM token_ledger WHERE job_id = ?1 AND kind = 'reserve'), 0, ?8, 0,
           ?10, ?11, ?12, ?15, ?16, ?9, ?9
         WHERE changes() = 1`,
      )
      .bind(
        job.id,
        job.userId,
        job.type,
        JSON.stringify(job.config),
        JSON.stringify(job.inputFileIds),
        job.outputFormat,
        job.reserve,
        job.priority,
        at,
        job.batch?.id ?? null,
        job.batch?.row ?? null,
        job.batch?.name ?? null,
        JSON.stringify(job.normalizedConfig),
        job.plan === null ? null : JSON.stringify(job.plan),
        job.webhookUrl ?? null,
        job.metadata == null ? null : JSON.stringify(job.metadata),
      ),
  ];
};

/**
 * Opens the jobs of a batch in one D1 batch (one transaction): each reserved only when the balance covers it,
 * without the concurrent-job condition (see UNDER_CONCURRENCY_LIMIT). Returns the ids that opened; the caller
 * cancels them (finishJob) when not all did.
 */
export const openBatchJobs = async (ctx: Ctx, jobs: readonly NewJob[]): Promise<string[]> => {
  const groups = jobs.map((job) => openStatements(ctx.d1, job));
  const results = await ctx.d1.batch(groups.flat());
  const opened: string[] = [];
  let at = -1;
  groups.forEach((group, i) => {
    at += group.length;
    // A zero reserve has no ledger statements: its insert ran on changes() of the statement before it.
    if (results[at]?.meta.changes === 1) opened.push(jobs[i]!.id);
  });
  return opened;
};

/**
 * Reserves the tokens and inserts the PENDING job atomically, only if the balance covers the reserve, the
 * account is under its plan's concurrent-job limit and, for a video job, under its failed-render quota
 * (render-quota.ts). Throws InsufficientTokens, ConcurrencyLimit or FailedRenderQuota otherwise.
 */
export const openJob = async (ctx: Ctx, job: NewJob, retry = true): Promise<void> => {
  const { d1 } = ctx;
  const video = job.type === "VIDEO";
  const condition = video
    ? `${UNDER_CONCURRENCY_LIMIT} AND ${underFailedRenderQuota(job.createdAt)}`
    : UNDER_CONCURRENCY_LIMIT;
  const results = await d1.batch(openStatements(d1, job, condition));
  if (results.at(-1)?.meta.changes === 1) return;
  const state = await openState(d1, job.userId);
  const refusal =
    refusalOf(state, job.reserve) ??
    (video ? await failedRenderRefusal(d1, job.userId, job.createdAt) : null);
  if (refusal) throw refusal;
  // Refused a moment ago, fits now (a job finished in between): try once more rather than report a stale limit.
  if (retry) return openJob(ctx, job, false);
  throw new ConcurrencyLimit(state?.active ?? 0, state?.max ?? 0);
};

interface OpenState {
  balance: number;
  /** Tokens owed (src/ledger/ledger.ts): nothing opens while any are. */
  owed: number;
  max: number;
  active: number;
}

const openState = (d1: D1Database, userId: string) =>
  d1
    .prepare(
      `SELECT u.token_balance AS balance, u.token_debt AS owed, p.max_concurrent_jobs AS max,
         (SELECT count(*) FROM jobs WHERE user_id = u.id AND status IN (${inList(OPEN)})
           AND batch_id IS NULL) AS active
       FROM users u JOIN plans p ON p.id = u.plan_id WHERE u.id = ?1`,
    )
    .bind(userId)
    .first<OpenState>();

const refusalOf = (state: OpenState | null, reserve: number) => {
  if (state && state.owed > 0) return new InsufficientTokens(reserve, state.balance, state.owed);
  if (!state || state.balance < reserve) return new InsufficientTokens(reserve, state?.balance ?? 0);
  if (state.active >= state.max) return new ConcurrencyLimit(state.active, state.max);
  return null;
};

/**
 * Read-only pre-check of openJob's conditions, for work worth skipping when the job cannot open anyway
 * (importing public URLs). Not a guarantee: openJob's guarded batch decides.
 */
export const assertCanOpen = async (ctx: Ctx, userId: string, reserve: number): Promise<void> => {
  const refusal = refusalOf(await openState(ctx.d1, userId), reserve);
  if (refusal) throw refusal;
};

/**
 * PENDING|PROCESSING -> PROCESSING, recording progress (render.started on the first move). Returns false when
 * the job is not open.
 */
export const markProcessing = async (
  ctx: Ctx,
  jobId: string,
  progress: { percent?: number; stage?: string; countAttempt?: boolean } = {},
): Promise<boolean> => {
  const at = ctx.now();
  const results = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `UPDATE jobs SET status = 'PROCESSING', started_at = coalesce(started_at, ?2), updated_at = ?2,
           progress = coalesce(?3, progress, 0), stage = coalesce(?4, stage), attempts = attempts + ?5
         WHERE id = ?1 AND status IN (${inList(OPEN)})`,
      )
      .bind(jobId, at, progress.percent ?? null, progress.stage ?? null, progress.countAttempt ? 1 : 0),
    ...raiseEvent(ctx.d1, { jobId, type: "render.started", at }),
  ]);
  await handOver(ctx, deliveriesOf(results));
  return results[0]?.meta.changes === 1;
};

/**
 * PROCESSING -> PENDING: the render of hand-over `attempt` was lost to an infrastructure fault (its renderer died,
 * froze or was cut off; its encoder was killed), so the job goes back to its queue with its reserve still held.
 * Guarded by the attempt, so two notices of the same loss (a lapsed lease and a failure report) requeue it once.
 */
export const requeueJob = async (
  ctx: Ctx,
  jobId: string,
  attempt: number,
  /** Renderer time the lost render reported (0 when its renderer went silent). */
  renderMs = 0,
): Promise<boolean> => {
  const res = await ctx.d1
    .prepare(
      `UPDATE jobs SET status = 'PENDING', stage = 'queued', progress = 0, updated_at = ?2,
         render_ms = render_ms + ?4
       WHERE id = ?1 AND status = 'PROCESSING' AND attempts = ?3`,
    )
    .bind(jobId, ctx.now(), attempt, Math.max(0, Math.round(renderMs)))
    .run();
  return res.meta.changes === 1;
};

/**
 * How a job ends. `renderMs`: renderer time its last render reported (added to the job's `render_ms`, with its
 * chunks' times when it was split); a FAILED job whose failure was its own (`jobsFault`: a renderer's permanent
 * failure report) also records that time as `failed_render_ms`, which the account's failed-render quota counts
 * (render-quota.ts).
 */
export type Outcome =
  | { status: "COMPLETED"; outputFileId: string; cost: number; renderMs?: number }
  | { status: "FAILED"; error: string; renderMs?: number; jobsFault?: boolean }
  | { status: "CANCELLED"; reason?: string };

/**
 * Moves an open job to its final status and settles its tokens. `from` limits the source states
 * (a user may only cancel a PENDING job). Returns false when the guard did not match (already final,
 * or not in `from`): nothing is changed then.
 */
export const finishJob = async (
  ctx: Ctx,
  job: SettledJob,
  outcome: Outcome,
  from: readonly JobStatus[] = OPEN,
): Promise<boolean> => {
  const at = ctx.now();
  const results = await ctx.d1.batch([
    ...settlement(ctx.d1, job, outcome, from, at),
    ...raiseEvent(ctx.d1, { jobId: job.id, type: eventTypeOf(outcome.status)!, at }),
  ]);
  await handOver(ctx, deliveriesOf(results));
  return settled(ctx, job, results[0]?.meta.changes === 1, outcome.status);
};

/**
 * finishJob for many jobs in one D1 batch (each job's settlement still guarded by its own status, each raising
 * its render event); no batch hook runs (the caller, cancelling a batch, settles the batch itself). Returns how
 * many moved.
 */
export const finishJobs = async (
  ctx: Ctx,
  jobs: readonly SettledJob[],
  outcome: Outcome,
  from: readonly JobStatus[],
): Promise<number> => {
  if (!jobs.length) return 0;
  const at = ctx.now();
  const groups = jobs.map((job) => [
    ...settlement(ctx.d1, job, outcome, from, at),
    ...raiseEvent(ctx.d1, { jobId: job.id, type: eventTypeOf(outcome.status)!, at }),
  ]);
  const results = await ctx.d1.batch(groups.flat());
  let index = 0;
  let moved = 0;
  const deliveries = [];
  for (const group of groups) {
    if (results[index]?.meta.changes === 1) moved++;
    deliveries.push(...deliveriesOf(results.slice(index, index + group.length)));
    index += group.length;
  }
  await handOver(ctx, deliveries);
  return moved;
};

/**
 * finishJob(COMPLETED) and the insert of the output's media_files row (built by outputRowStatement) in
 * one batch: one D1 round trip instead of three (insert, read the id back, settle). The insert runs first
 * and is idempotent on the storage URL, so the job points at the row of whichever attempt stored it.
 */
export const completeWithOutput = async (
  ctx: Ctx,
  job: SettledJob,
  output: { statement: D1PreparedStatement; id: string; storageUrl: string },
  cost: number,
): Promise<boolean> => {
  const outcome = { status: "COMPLETED" as const, outputFileId: output.id, cost };
  const at = ctx.now();
  const results = await ctx.d1.batch([
    output.statement,
    ...settlement(ctx.d1, job, outcome, OPEN, at, output.storageUrl),
    ...raiseEvent(ctx.d1, { jobId: job.id, type: "render.completed", at }),
  ]);
  await handOver(ctx, deliveriesOf(results));
  return settled(ctx, job, results[1]?.meta.changes === 1, "COMPLETED");
};

/**
 * After a job settles: a completed job's outputs go to its destinations (src/destinations: a queue message each,
 * never failing the completion); a job of a batch lets the batch queue its next jobs and maybe end
 * (src/jobs/feed-batch.ts).
 */
const settled = async (ctx: Ctx, job: SettledJob, moved: boolean, status: JobStatus): Promise<boolean> => {
  if (moved && status === "COMPLETED") await jobCompleted(ctx, job.id);
  // The job's own settlement stands whatever happens here: a failed feed is retried by the cron.
  if (moved && job.batchId)
    await batchJobSettled(ctx, job.batchId).catch((e) =>
      console.error(
        JSON.stringify({ level: "error", msg: "batch feed failed", batchId: job.batchId, error: String(e) }),
      ),
    );
  return moved;
};

type SettledJob = {
  id: string;
  userId: string;
  tokensReserved: number;
  reservedPrepaid: number;
  batchId?: string | null;
};

/**
 * The renderer time of a split job's chunks (src/jobs/chunks.ts): each chunk's recorded hand-overs, and a chunk
 * still rendering as the job ends (stopped now) from its hand-over until now (?6). Counted once, as the job ends.
 */
const CHUNKS_MS = `(SELECT coalesce(sum(render_ms + CASE WHEN status = 'RENDERING' AND started_at IS NOT NULL
    THEN max(0, ?6 - started_at) ELSE 0 END), 0) FROM job_chunks WHERE job_id = ?1)`;

/** The statements of a settlement; the first is the guard the others depend on through changes(). */
const settlement = (
  d1: D1Database,
  job: SettledJob,
  outcome: Outcome,
  from: readonly JobStatus[],
  at: number,
  outputStorageUrl: string | null = null,
): D1PreparedStatement[] => {
  const charge = outcome.status === "COMPLETED" ? Math.min(outcome.cost, job.tokensReserved) : 0;
  const renderMs = outcome.status === "CANCELLED" ? 0 : Math.max(0, Math.round(outcome.renderMs ?? 0));
  const jobsFault = outcome.status === "FAILED" && outcome.jobsFault === true;
  return [
    d1
      .prepare(
        `UPDATE jobs SET status = ?2, tokens_used = ?3, tokens_reserved = 0, error_message = ?5,
           output_file_id = coalesce((SELECT id FROM media_files WHERE storage_url = ?8), ?4),
           progress = CASE WHEN ?2 = 'COMPLETED' THEN 100 ELSE progress END,
           stage = CASE WHEN ?2 = 'COMPLETED' THEN 'completed' ELSE stage END, completed_at = ?6, updated_at = ?6,
           render_ms = render_ms + ?9 + ${CHUNKS_MS},
           failed_render_ms = CASE WHEN ?10 THEN ?9 + ${CHUNKS_MS} ELSE 0 END
         WHERE id = ?1 AND status IN (${inList(from)}) AND tokens_reserved = ?7`,
      )
      .bind(
        job.id,
        outcome.status,
        charge,
        outcome.status === "COMPLETED" ? outcome.outputFileId : null,
        outcome.status === "FAILED" ? outcome.error.slice(0, 2000) : null,
        at,
        job.tokensReserved,
        outputStorageUrl,
        renderMs,
        jobsFault ? 1 : 0,
      ),
    // The reserve comes back whole, then the final cost goes out: two ledger rows, each after the one before.
    ...ledger.release(d1, {
      userId: job.userId,
      amount: job.tokensReserved,
      prepaid: job.reservedPrepaid,
      refId: job.id,
      note: `reserve released (${outcome.status.toLowerCase()})`,
      at,
    }),
    ...ledger.charge(d1, { userId: job.userId, amount: charge, refId: job.id, note: "final cost", at }),
  ];
};
