/** Render jobs. */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns.ts";
import { users } from "./accounts.ts";

export const JOB_STATUSES = ["PENDING", "PROCESSING", "COMPLETED", "FAILED", "CANCELLED"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JOB_TYPES = ["IMAGE", "VIDEO"] as const;
export type JobType = (typeof JOB_TYPES)[number];

export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type", { enum: JOB_TYPES }).notNull(),
    status: text("status", { enum: JOB_STATUSES }).notNull(),
    /** The config as submitted (GET /jobs/{id} echoes it); nothing downstream of creation reads it. */
    config: text("config", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    /**
     * The config in the grammar's normal form, as creation's parse gave it back (packages/contract/src/config/
     * normal-form.ts): what dispatch, pricing and the renderer read (src/jobs/stored-config.ts). Null only on
     * rows written before it existed.
     */
    normalizedConfig: text("normalized_config", { mode: "json" }).$type<Record<string, unknown>>(),
    /**
     * A video job's plan, computed once at creation: its timeline with the files' real lengths, the seconds it
     * renders, the tokens reserved and its render deadline (src/jobs/planned-length.ts VideoPlan). Null for image
     * jobs and rows written before it existed.
     */
    plan: text("plan", { mode: "json" }).$type<Record<string, unknown>>(),
    inputFileIds: text("input_file_ids", { mode: "json" }).notNull().$type<string[]>(),
    /**
     * Where the job's render events also go (`webhookUrl` at creation), through the account's job-callback endpoint
     * (src/webhooks/job-callbacks.ts); null: only the account's subscribed endpoints.
     */
    webhookUrl: text("webhook_url"),
    /** The caller's own JSON object (`metadata` at creation, bounded): echoed on the job and in its events. */
    metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown>>(),
    outputFormat: text("output_format").notNull(),
    outputFileId: text("output_file_id"),
    /** Tokens held back from the balance while the job is open; 0 once settled. */
    tokensReserved: integer("tokens_reserved").notNull(),
    /** The part of the reserve taken from prepaid tokens (the rest came from the monthly allowance). */
    reservedPrepaid: integer("reserved_prepaid").notNull().default(0),
    tokensUsed: integer("tokens_used").notNull().default(0),
    errorMessage: text("error_message"),
    /** Progress while PROCESSING: percent 0..100 and a stage name reported by the renderer. */
    progress: integer("progress"),
    stage: text("stage"),
    priority: integer("priority").notNull().default(5),
    /** Deliveries of the job to a renderer (queue attempts). */
    attempts: integer("attempts").notNull().default(0),
    /**
     * Renderer time the job's renders took, every hand-over counted (as their renderers reported it): a job handed
     * over again gets what is left of its deadline (src/queues/dispatch-video.ts).
     */
    renderMs: integer("render_ms").notNull().default(0),
    /**
     * Renderer time of the render that failed by the job's own fault (a deadline overrun, its memory share, bad
     * media): an account's failed render time over the last day is capped (src/jobs/render-quota.ts).
     */
    failedRenderMs: integer("failed_render_ms").notNull().default(0),
    /** A job of a template batch: the batch, the row (1-based) and the row's output name. */
    batchId: text("batch_id"),
    batchRow: integer("batch_row"),
    batchName: text("batch_name"),
    /** When the batch feeder queued the job (batch jobs wait, unqueued, for their turn). */
    queuedAt: integer("queued_at"),
    startedAt: integer("started_at"),
    completedAt: integer("completed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // Job listing per owner, sorted by creation (the default sort).
    index("jobs_user_created_idx").on(table.userId, table.createdAt),
    // Concurrent-job count (PENDING + PROCESSING) per owner, and status filters.
    index("jobs_user_status_idx").on(table.userId, table.status),
    // The stuck-job sweep finds open jobs not updated for a while.
    index("jobs_status_updated_idx").on(table.status, table.updatedAt),
    // A batch's jobs in row order (status, feeder, manifest, ZIP).
    index("jobs_batch_row_idx").on(table.batchId, table.batchRow),
  ],
);
