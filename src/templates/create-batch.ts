/**
 * POST /api/v2/templates/{id}/batches: rows merged into the template and validated one by one (variables, the
 * config grammar, file references) before anything is charged. `all-or-nothing` refuses the whole batch if any
 * row is bad; `valid-only` opens jobs for the good rows and reports the others. Jobs are opened through the
 * lifecycle (each reserved through the ledger like a single job), then the feeder queues them fairly.
 */
import { getAccount } from "../accounts/lookup.ts";
import { validateJobConfig, type ImageConfig, type VideoConfig } from "@media-render/contract/config";
import type { CallerCtx } from "../context.ts";
import { batches } from "../db/schema.ts";
import { catalogueOnline } from "../fonts/online.ts";
import { DEFAULT_PRIORITY } from "../jobs/create-job.ts";
import { finishJobs, openBatchJobs, type NewJob } from "../jobs/lifecycle.ts";
import { videoLengthCap } from "../jobs/plan-features.ts";
import { plannedVideo, type VideoPlan } from "../jobs/planned-length.ts";
import { failedRenderRefusal } from "../jobs/render-quota.ts";
import {
  fileReferences,
  isStoragePath,
  lookupStoredFiles,
  missingFileErrors,
} from "../jobs/resolve-inputs.ts";
import { InsufficientTokens, ValidationFailed, type FieldError } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { iso } from "../lib/time.ts";
import { feedBatch } from "../jobs/feed-batch.ts";
import { getOwnedTemplate } from "./lookup.ts";
import { MAX_BATCH_COLUMNS, type BatchLimits } from "./limits.ts";
import { rejectedRows, rejectRow, refusalErrors, type RowErrors } from "./row-errors.ts";
import type { BatchCreated, BatchMode } from "./schemas.ts";
import { mergeRow } from "@media-render/contract/config/template-variables";

/** Jobs opened per D1 batch (each job is three statements). */
const OPEN_CHUNK = 50;

export interface BatchInput {
  templateId: string;
  rows: Record<string, unknown>[];
  mode: BatchMode;
  nameColumn?: string;
}

interface Accepted {
  row: number;
  name: string | null;
  /** As merged (stored on the job, like a single job's config as submitted). */
  config: Record<string, unknown>;
  /** In the grammar's normal form (stored on the job: what everything downstream reads). */
  parsed: ImageConfig | VideoConfig;
  /** The same, typed, when the row is a video (for its plan). */
  video?: VideoConfig;
  /** A video row's plan, once its files' lengths are known. */
  plan?: VideoPlan;
  outputFormat: string;
  reserve: number;
  refs: ReturnType<typeof fileReferences>;
}

export const createBatch = async (
  ctx: CallerCtx,
  input: BatchInput,
  limits: BatchLimits & { maxConcurrentJobs: number },
): Promise<BatchCreated> => {
  const template = await getOwnedTemplate(ctx, input.templateId);
  checkRowCount(input.rows.length, limits.rows);
  const { accepted, rejected } = judgeRows(ctx, template, input);
  const { good, stored } = await withStoredFiles(ctx, accepted, rejected);
  rejected.sort((a, b) => a.row - b.row);
  if (rejected.length && (input.mode === "all-or-nothing" || !good.length))
    throw new ValidationFailed(
      refusalErrors(rejected),
      `${rejected.length} of ${input.rows.length} rows are not valid; nothing was charged`,
    );
  const kept = rejectedRows(rejected);

  const jobs = planJobs(ctx, template.type, good, stored);
  const total = jobs.reduce((sum, j) => sum + j.reserve, 0);
  const account = await getAccount(ctx, ctx.caller.userId);
  if (account.tokenBalance < total || account.tokenDebt > 0)
    throw new InsufficientTokens(total, account.tokenBalance, account.tokenDebt);
  // A video batch is refused like a single video job while the account's failed renders are over their quota.
  if (template.type === "VIDEO") {
    const refusal = await failedRenderRefusal(ctx.d1, ctx.caller.userId, ctx.now());
    if (refusal) throw refusal;
  }
  await openAll(ctx, jobs, total);

  const at = ctx.now();
  const batchId = jobs[0]!.batch!.id;
  await ctx.db
    .insert(batches)
    .values({
      id: batchId,
      userId: ctx.caller.userId,
      templateId: template.id,
      status: "RUNNING",
      mode: input.mode,
      nameColumn: input.nameColumn ?? null,
      totalRows: input.rows.length,
      feedWindow: Math.max(1, limits.maxConcurrentJobs),
      rejected: kept,
      createdAt: at,
      updatedAt: at,
    })
    .run();
  // A failed send is retried by the next settlement or the cron; the batch exists either way.
  await feedBatch(ctx, batchId).catch((e) =>
    console.error(JSON.stringify({ level: "error", msg: "batch feed failed", batchId, error: String(e) })),
  );
  return {
    batchId,
    templateId: template.id,
    status: "RUNNING",
    mode: input.mode,
    totalRows: input.rows.length,
    accepted: jobs.length,
    rejected: kept.map((r) => ({ row: r.row, errors: r.errors })),
    estimatedTokens: total,
    createdAt: iso(at)!,
  };
};

const checkRowCount = (rows: number, max: number) => {
  if (rows === 0)
    throw new ValidationFailed([{ field: "rows", message: "The batch has no rows", code: "EMPTY_BATCH" }]);
  if (rows > max)
    throw new ValidationFailed(
      [{ field: "rows", message: `At most ${max} rows per batch on your plan`, code: "TOO_MANY_ROWS" }],
      "Too many rows",
    );
};

type Template = Awaited<ReturnType<typeof getOwnedTemplate>>;

/**
 * Each row merged into the template and validated as a job would be (no I/O): the rows that pass, with their file
 * references still to look up, and the errors of the others.
 */
const judgeRows = (ctx: CallerCtx, template: Template, input: BatchInput) => {
  const type = template.type === "IMAGE" ? "image" : "video";
  const extra = new Set(input.nameColumn ? [input.nameColumn] : []);
  const options = { catalogueOnline: catalogueOnline(ctx.env) };
  const rejected: RowErrors[] = [];
  const accepted: Accepted[] = [];
  input.rows.forEach((row, i) => {
    const number = i + 1;
    const name = nameOf(row, input.nameColumn);
    const columns = Object.keys(row).length;
    // A JSON row is held to a CSV header's column limit: one error, not one per key.
    const merged =
      columns > MAX_BATCH_COLUMNS
        ? { errors: [tooManyColumns(columns)] }
        : mergeRow(template.config, template.variables, row, extra);
    let errors: FieldError[];
    if ("errors" in merged) errors = merged.errors;
    else {
      const checked = validateJobConfig(type, merged.config, options);
      if (checked.valid) {
        const refs = fileReferences(checked.type, checked.config);
        const remote = refs.filter((ref) => !isStoragePath(ref.url));
        errors = remote.map((ref) => ({
          field: ref.field,
          message:
            "Batch rows take uploaded files (their storageUrl); upload the file or run a single job for a public URL",
          code: "REMOTE_INPUT_IN_BATCH",
        }));
        if (!errors.length)
          accepted.push({
            row: number,
            name,
            config: merged.config as Record<string, unknown>,
            parsed: checked.config,
            ...(checked.type === "video" && { video: checked.config }),
            outputFormat: checked.outputFormat,
            reserve: checked.estimatedTokens,
            refs,
          });
      } else errors = checked.errors;
    }
    if (errors.length) rejected.push(rejectRow(number, name, errors));
  });
  return { accepted, rejected };
};

/**
 * The accepted rows whose files are all stored (looked up for every row at once, 90 paths per query), a video row
 * planned by its files' real lengths; the others join `rejected`.
 */
const withStoredFiles = async (ctx: CallerCtx, accepted: Accepted[], rejected: RowErrors[]) => {
  const stored = await lookupStoredFiles(
    ctx,
    accepted.flatMap((a) => a.refs),
  );
  const cap = await videoLengthCap(ctx);
  const good = accepted.filter((entry) => {
    const missing = missingFileErrors(entry.refs, stored);
    if (missing.length) rejected.push(rejectRow(entry.row, entry.name, missing));
    else if (entry.video) {
      // A video row is sized by its files' real lengths, as a single job is: a row too long is refused alone.
      try {
        entry.plan = plannedVideo(entry.video, (ref) => stored.get(ref)?.duration ?? null, cap);
      } catch (e) {
        if (!(e instanceof ValidationFailed)) throw e;
        rejected.push(rejectRow(entry.row, entry.name, e.errors));
        return false;
      }
    }
    return !missing.length;
  });
  return { good, stored };
};

const tooManyColumns = (count: number): FieldError => ({
  field: "row",
  message: `${count} columns; at most ${MAX_BATCH_COLUMNS}`,
  code: "TOO_MANY_COLUMNS",
});

const nameOf = (row: Record<string, unknown>, column: string | undefined): string | null => {
  const value = column === undefined ? undefined : row[column];
  return value === undefined || value === null || value === "" ? null : String(value).slice(0, 200);
};

const planJobs = (
  ctx: CallerCtx,
  type: "IMAGE" | "VIDEO",
  good: readonly Accepted[],
  stored: Awaited<ReturnType<typeof lookupStoredFiles>>,
): NewJob[] => {
  const batchId = newId("bat");
  const at = ctx.now();
  return good.map((entry) => {
    const inputFileIds = [...new Set(entry.refs.map((r) => stored.get(r.url)?.id))].filter(
      (id): id is string => id !== undefined,
    );
    return {
      id: newId("job"),
      userId: ctx.caller.userId,
      type,
      config: entry.config,
      normalizedConfig: entry.parsed,
      plan: entry.plan ?? null,
      inputFileIds,
      outputFormat: entry.outputFormat,
      reserve: entry.plan?.estimatedTokens ?? entry.reserve,
      priority: DEFAULT_PRIORITY,
      createdAt: at,
      batch: { id: batchId, row: entry.row, name: entry.name },
    };
  });
};

/** Opens every job, or none: when the balance ran out half-way (a race), the opened ones are cancelled. */
const openAll = async (ctx: CallerCtx, jobs: readonly NewJob[], total: number) => {
  const opened: NewJob[] = [];
  for (let i = 0; i < jobs.length; i += OPEN_CHUNK) {
    const chunk = jobs.slice(i, i + OPEN_CHUNK);
    const ids = new Set(await openBatchJobs(ctx, chunk));
    opened.push(...chunk.filter((j) => ids.has(j.id)));
    if (ids.size === chunk.length) continue;
    // The rows say how each reserve split between the monthly allowance and prepaid tokens.
    const rows = await ctx.d1
      .prepare(
        `SELECT id, user_id AS userId, tokens_reserved AS tokensReserved, reserved_prepaid AS reservedPrepaid
         FROM jobs WHERE user_id = ?1 AND id IN (SELECT value FROM json_each(?2))`,
      )
      .bind(ctx.caller.userId, JSON.stringify(opened.map((j) => j.id)))
      .all<{ id: string; userId: string; tokensReserved: number; reservedPrepaid: number }>();
    await finishJobs(
      ctx,
      rows.results,
      { status: "CANCELLED", reason: "the batch could not be opened whole" },
      ["PENDING"],
    );
    const account = await getAccount(ctx, ctx.caller.userId);
    throw new InsufficientTokens(total, account.tokenBalance);
  }
};
