/** Request counters of the rate limiters, and idempotency keys: request bookkeeping. */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Fixed-window counters of the sign-in attempt limits (src/lib/rate-limit.ts, `hit`): one row per bucket (limit
 * name + a hash of the address or IP) and window. API requests are counted in each credential's Durable Object, not
 * here. Rows of past windows are pruned by the cron.
 */
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    bucket: text("bucket").notNull(),
    /** Start of the window, epoch milliseconds (a multiple of the window length). */
    windowStart: integer("window_start").notNull(),
    count: integer("count").notNull(),
  },
  (table) => [
    // The per-request upsert finds its counter by (bucket, window).
    primaryKey({ columns: [table.bucket, table.windowStart] }),
    // The cron deletes windows that have ended.
    index("rate_limits_window_idx").on(table.windowStart),
  ],
);

/**
 * Idempotency keys of POST /api/v1/jobs and uploads (Stripe's convention): the first request with a key runs and its
 * answer is kept 24 hours; a retry with the same key and the same request gets that answer again, with another
 * request it is refused (409), and while the first is still running too (409).
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    userId: text("user_id").notNull(),
    /** The operation the key belongs to (`jobs.create`, `files.upload`). */
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the request as it matters (the JSON body; the file's bytes and fields of an upload). */
    fingerprint: text("fingerprint"),
    status: text("status", { enum: ["running", "done"] }).notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (table) => [
    // One row per account, operation and key.
    primaryKey({ columns: [table.userId, table.scope, table.key] }),
    // The cron deletes expired keys.
    index("idempotency_keys_expires_idx").on(table.expiresAt),
  ],
);
