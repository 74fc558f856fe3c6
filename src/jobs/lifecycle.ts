/**
 * The job state machine: the only module that changes a job's status or moves its tokens.
 *
 * PENDING -> PROCESSING -> COMPLETED | FAILED | CANCELLED, and PENDING -> CANCELLED | FAILED.
 * Each transition is one D1 batch (one transaction) whose first statement is a guarded UPDATE
 * (`WHERE status IN (...)`); the balance and ledger statements that follow only run when that guard
 * matched (`changes() = 1`). So a duplicate, late or out-of-order event never moves a finished job
 * and never charges twice, even when two arrive at once.
 *
 * Tokens: the estimate is reserved at creation (balance - reserve, ledger `reserve`). Settlement gives the
 * reserve back (`release`) and charges the final cost (`charge`), capped at the reserve so a job never costs
 * more than the estimate the caller accepted. Failed and cancelled jobs are charged nothing.
 */
import type { JobStatus, JobType } from "../db/schema";
import { ConcurrencyLimit, InsufficientTokens } from "../lib/errors";
import { newId } from "../lib/ids";

const OPEN: readonly JobStatus[] = ["PENDING", "PROCESSING"];
const inList = (statuses: readonly JobStatus[]) => statuses.map((s) => `'${s}'`).join(",");

export interface NewJob {
  id: string;
  userId: string;
  type: JobType;
  config: unknown;
  inputFileIds: string[];
  outputFormat: string;
  reserve: number;
  priority: number;
}

/**
 * Reserves the tokens and inserts the PENDING job atomically, only if the balance covers the reserve and the
 * account is under its plan's concurrent-job limit. Throws InsufficientTokens or ConcurrencyLimit otherwise.
 */
export const openJob = async (d1: D1Database, job: NewJob, at = Date.now(), retry = true): Promise<void> => {
  const [, inserted] = await d1.batch([
    d1
      .prepare(
        `UPDATE users SET token_balance = token_balance - ?1, updated_at = ?2
         WHERE id = ?3 AND token_balance >= ?1
           AND (SELECT count(*) FROM jobs WHERE jobs.user_id = ?3 AND jobs.status IN (${inList(OPEN)}))
             < (SELECT max_concurrent_jobs FROM plans WHERE plans.id = users.plan_id)`,
      )
      .bind(job.reserve, at, job.userId),
    d1
      .prepare(
        `INSERT INTO jobs (id, user_id, type, status, config, input_file_ids, output_format, tokens_reserved, tokens_used,
           priority, attempts, created_at, updated_at)
         SELECT ?1, ?2, ?3, 'PENDING', ?4, ?5, ?6, ?7, 0, ?8, 0, ?9, ?9 WHERE changes() = 1`,
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
      ),
    d1
      .prepare(
        `INSERT INTO token_ledger (id, user_id, job_id, kind, amount, note, created_at) SELECT ?1, ?2, ?3, 'reserve', ?4, ?5, ?6 WHERE changes() = 1`,
      )
      .bind(newId("txn"), job.userId, job.id, -job.reserve, "estimate reserved at job creation", at),
  ]);
  if (inserted?.meta.changes === 1) return;
  const state = await openState(d1, job.userId);
  const refusal = refusalOf(state, job.reserve);
  if (refusal) throw refusal;
  // Refused a moment ago, fits now (a job finished in between): try once more rather than report a stale limit.
  if (retry) return openJob(d1, job, at, false);
  throw new ConcurrencyLimit(state?.active ?? 0, state?.max ?? 0);
};

interface OpenState {
  balance: number;
  max: number;
  active: number;
}

const openState = (d1: D1Database, userId: string) =>
  d1
    .prepare(
      `SELECT u.token_balance AS balance, p.max_concurrent_jobs AS max,
         (SELECT count(*) FROM jobs WHERE user_id = u.id AND status IN (${inList(OPEN)})) AS active
       FROM users u JOIN plans p ON p.id = u.plan_id WHERE u.id = ?1`,
    )
    .bind(userId)
    .first<OpenState>();

const refusalOf = (state: OpenState | null, reserve: number) => {
  if (!state || state.balance < reserve) return new InsufficientTokens(reserve, state?.balance ?? 0);
  if (state.active >= state.max) return new ConcurrencyLimit(state.active, state.max);
  return null;
};

/**
 * Read-only pre-check of openJob's conditions, for work worth skipping when the job cannot open anyway
 * (importing public URLs). Not a guarantee: openJob's guarded batch decides.
 */
export const assertCanOpen = async (d1: D1Database, userId: string, reserve: number): Promise<void> => {
  const refusal = refusalOf(await openState(d1, userId), reserve);
  if (refusal) throw refusal;
};

/** PENDING|PROCESSING -> PROCESSING, recording progress. Returns false when the job is not open. */
export const markProcessing = async (
  d1: D1Database,
  jobId: string,
  progress: { percent?: number; stage?: string; countAttempt?: boolean } = {},
  at = Date.now(),
): Promise<boolean> => {
  const res = await d1
    .prepare(
      `UPDATE jobs SET status = 'PROCESSING', started_at = coalesce(started_at, ?2), updated_at = ?2,
         progress = coalesce(?3, progress, 0), stage = coalesce(?4, stage), attempts = attempts + ?5
       WHERE id = ?1 AND status IN (${inList(OPEN)})`,
    )
    .bind(jobId, at, progress.percent ?? null, progress.stage ?? null, progress.countAttempt ? 1 : 0)
    .run();
  return res.meta.changes === 1;
};

export type Outcome =
  | { status: "COMPLETED"; outputFileId: string; cost: number }
  | { status: "FAILED"; error: string }
  | { status: "CANCELLED"; reason?: string };

/**
 * Moves an open job to its final status and settles its tokens. `from` limits the source states
 * (a user may only cancel a PENDING job). Returns false when the guard did not match (already final,
 * or not in `from`): nothing is changed then.
 */
export const finishJob = async (
  d1: D1Database,
  job: SettledJob,
  outcome: Outcome,
  from: readonly JobStatus[] = OPEN,
  at = Date.now(),
): Promise<boolean> => {
  const results = await d1.batch(settlement(d1, job, outcome, from, at));
  return results[0]?.meta.changes === 1;
};

/**
 * finishJob(COMPLETED) and the insert of the output's media_files row (built by outputRowStatement) in
 * one batch: one D1 round trip instead of three (insert, read the id back, settle). The insert runs first
 * and is idempotent on the storage URL, so the job points at the row of whichever attempt stored it.
 */
export const completeWithOutput = async (
  d1: D1Database,
  job: SettledJob,
  output: { statement: D1PreparedStatement; id: string; storageUrl: string },
  cost: number,
  at = Date.now(),
): Promise<boolean> => {
  const outcome = { status: "COMPLETED" as const, outputFileId: output.id, cost };
  const results = await d1.batch([
    output.statement,
    ...settlement(d1, job, outcome, OPEN, at, output.storageUrl),
  ]);
  return results[1]?.meta.changes === 1;
};

type SettledJob = { id: string; userId: string; tokensReserved: number };

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
  return [
    d1
      .prepare(
        `UPDATE jobs SET status = ?2, tokens_used = ?3, tokens_reserved = 0, error_message = ?5,
           output_file_id = coalesce((SELECT id FROM media_files WHERE storage_url = ?8), ?4),
           progress = CASE WHEN ?2 = 'COMPLETED' THEN 100 ELSE progress END, completed_at = ?6, updated_at = ?6
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
      ),
    d1
      .prepare(
        `UPDATE users SET token_balance = token_balance + ?2, updated_at = ?3 WHERE id = ?1 AND changes() = 1`,
      )
      .bind(job.userId, job.tokensReserved - charge, at),
    d1
      .prepare(
        `INSERT INTO token_ledger (id, user_id, job_id, kind, amount, note, created_at) SELECT ?1, ?2, ?3, 'release', ?4, ?5, ?6 WHERE changes() = 1`,
      )
      .bind(
        newId("txn"),
        job.userId,
        job.id,
        job.tokensReserved,
        `reserve released (${outcome.status.toLowerCase()})`,
        at,
      ),
    d1
      .prepare(
        `INSERT INTO token_ledger (id, user_id, job_id, kind, amount, note, created_at) SELECT ?1, ?2, ?3, 'charge', ?4, ?5, ?6 WHERE changes() = 1 AND ?4 < 0`,
      )
      .bind(newId("txn"), job.userId, job.id, -charge, "final cost", at),
  ];
};
