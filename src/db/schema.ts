/**
 * D1 schema (drizzle). Dates are epoch milliseconds. Every owned table carries `user_id`, and every
 * query of an owned table filters by it: another account's row is a 404, never a 403.
 * Each index names the query it serves. Migrations: `npm run db:generate` (drizzle-kit), committed.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const createdAt = () => integer("created_at").notNull();
const updatedAt = () => integer("updated_at").notNull();

/** Plans are seeded by a migration; `maxConcurrentJobs` and `bulkDurationMax` are enforced in code. */
export const plans = sqliteTable("plans", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  displayName: text("display_name").notNull(),
  description: text("description"),
  tokensPerMonth: integer("tokens_per_month").notNull(),
  pricePerMonth: real("price_per_month"),
  maxConcurrentJobs: integer("max_concurrent_jobs").notNull(),
  /** Most files one bulk duration request may carry (5 free, 300 paid). */
  bulkDurationMax: integer("bulk_duration_max").notNull(),
  supportLevel: text("support_level", { enum: ["community", "email", "priority"] }).notNull(),
});

/**
 * Accounts. `tokenBalance` is what the account can spend now (monthly allowance left plus prepaid);
 * it only ever moves together with a `token_ledger` row, so the ledger's sum always equals it.
 */
export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name"),
    planId: text("plan_id")
      .notNull()
      .references(() => plans.id),
    tokenBalance: integer("token_balance").notNull().default(0),
    prepaidBalance: integer("prepaid_balance").notNull().default(0),
    currentPeriodEnd: integer("current_period_end").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Login and `npm run key` look accounts up by e-mail.
    uniqueIndex("users_email_unique").on(t.email),
  ],
);

/** API keys: only the SHA-256 of the key is stored; `prefix` lets owners recognise a key in listings. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull(),
    prefix: text("prefix").notNull(),
    /** JSON array of `{ resource: "media" | "jobs", action: "read" | "full" }`. */
    permissions: text("permissions", { mode: "json" })
      .notNull()
      .$type<{ resource: string; action: string }[]>(),
    /** JSON array of v2 scopes (`renders:create`, ...). */
    scopes: text("scopes", { mode: "json" })
      .notNull()
      .$type<string[]>()
      .default(sql`'[]'`),
    expiresAt: integer("expires_at"),
    lastUsedAt: integer("last_used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // Authentication looks a key up by its hash on every request.
    uniqueIndex("api_keys_hash_unique").on(t.keyHash),
    // Key listing per owner.
    index("api_keys_user_idx").on(t.userId),
  ],
);

export const FILE_CATEGORIES = ["image", "video", "audio", "font", "unknown"] as const;
export type FileCategory = (typeof FILE_CATEGORIES)[number];

/** Every stored file: uploads, files imported from public URLs for a job, and job outputs. */
export const mediaFiles = sqliteTable(
  "media_files",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    originalName: text("original_name").notNull(),
    mimeType: text("mime_type").notNull(),
    size: integer("size").notNull(),
    width: integer("width"),
    height: integer("height"),
    duration: real("duration"),
    /** Key of the R2 object. */
    storageKey: text("storage_key").notNull(),
    /** Relative path used in job configs, e.g. `/image/2026-11-21/<user>/<file>.png`. */
    storageUrl: text("storage_url").notNull(),
    category: text("category", { enum: FILE_CATEGORIES }).notNull(),
    /** JSON: `{ category, validationResult, ... }` as shown to clients. */
    metadata: text("metadata", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    source: text("source", { enum: ["upload", "url", "output"] }).notNull(),
    /** For outputs: the job that produced the file. For URL imports: the public URL. */
    jobId: text("job_id"),
    sourceUrl: text("source_url"),
    expiresAt: integer("expires_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // File listing, newest first, per owner (optionally by category).
    index("media_files_user_created_idx").on(t.userId, t.createdAt),
    index("media_files_user_category_idx").on(t.userId, t.category),
    // Resolving `path` references in job configs and duration tools.
    uniqueIndex("media_files_storage_url_unique").on(t.storageUrl),
    // The expiry cron scans due rows.
    index("media_files_expires_idx").on(t.expiresAt),
  ],
);

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
    /** The config as submitted. */
    config: text("config", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    inputFileIds: text("input_file_ids", { mode: "json" }).notNull().$type<string[]>(),
    outputFormat: text("output_format").notNull(),
    outputFileId: text("output_file_id"),
    /** Tokens held back from the balance while the job is open; 0 once settled. */
    tokensReserved: integer("tokens_reserved").notNull(),
    tokensUsed: integer("tokens_used").notNull().default(0),
    errorMessage: text("error_message"),
    /** Progress while PROCESSING: percent 0..100 and a stage name reported by the renderer. */
    progress: integer("progress"),
    stage: text("stage"),
    priority: integer("priority").notNull().default(5),
    /** Deliveries of the job to a renderer (queue attempts). */
    attempts: integer("attempts").notNull().default(0),
    startedAt: integer("started_at"),
    completedAt: integer("completed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Job listing per owner, sorted by creation (the default sort).
    index("jobs_user_created_idx").on(t.userId, t.createdAt),
    // Concurrent-job count (PENDING + PROCESSING) per owner, and status filters.
    index("jobs_user_status_idx").on(t.userId, t.status),
    // The stuck-job sweep finds open jobs not updated for a while.
    index("jobs_status_updated_idx").on(t.status, t.updatedAt),
  ],
);

export const LEDGER_KINDS = ["grant", "reserve", "release", "charge", "refund", "adjust"] as const;

/**
 * Every movement of an account's tokens. `amount` is the signed change of `users.token_balance`;
 * sum(amount) per user equals the balance.
 */
export const tokenLedger = sqliteTable(
  "token_ledger",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    jobId: text("job_id"),
    kind: text("kind", { enum: LEDGER_KINDS }).notNull(),
    amount: integer("amount").notNull(),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [
    // Usage history per owner; the balance audit sums by user.
    index("token_ledger_user_created_idx").on(t.userId, t.createdAt),
    // Settlement checks what a job already moved (idempotency).
    index("token_ledger_job_idx").on(t.jobId),
  ],
);

/**
 * Fixed-window request counters of the API rate limiter (src/lib/rate-limit.ts): one row per bucket
 * (limit name + SHA-256 of the API key) and window. Rows of past windows are pruned by the cron.
 */
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    bucket: text("bucket").notNull(),
    /** Start of the window, epoch milliseconds (a multiple of the window length). */
    windowStart: integer("window_start").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [
    // The per-request upsert finds its counter by (bucket, window).
    primaryKey({ columns: [t.bucket, t.windowStart] }),
    // The cron deletes windows that have ended.
    index("rate_limits_window_idx").on(t.windowStart),
  ],
);
