/**
 * Output destinations (src/destinations): the S3-compatible buckets an account connects once (its storage
 * connections, the secret sealed), and one delivery per job and destination, its result per file.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns.ts";
import { users } from "./accounts.ts";
import { jobs } from "./jobs.ts";

export const ADDRESSING_STYLES = ["path", "virtual"] as const;
export type AddressingStyle = (typeof ADDRESSING_STYLES)[number];

/**
 * `waiting` for the job to complete; `pending` (due at `next_attempt_at`); `delivering` (an attempt holds it until
 * `lease_until`); then `delivered` or `failed`; `skipped` when the job ended without an output.
 */
export const DELIVERY_STATES = [
  "waiting",
  "pending",
  "delivering",
  "delivered",
  "failed",
  "skipped",
] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export const storageConnections = sqliteTable(
  "storage_connections",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The service's origin, e.g. `https://<account>.r2.cloudflarestorage.com` (no path). */
    endpoint: text("endpoint").notNull(),
    region: text("region").notNull(),
    bucket: text("bucket").notNull(),
    addressing: text("addressing", { enum: ADDRESSING_STYLES }).notNull(),
    accessKeyId: text("access_key_id").notNull(),
    /** The secret access key, sealed to this row (src/lib/sealed.ts); never answered. */
    secret: text("secret").notNull(),
    /** The object key of a job's output, e.g. `renders/{date}/{jobId}.{ext}` (src/destinations/key-template.ts). */
    keyTemplate: text("key_template").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // The connection list per owner, oldest first.
  (table) => [index("storage_connections_user_idx").on(table.userId, table.createdAt)],
);

/** One uploaded file of a delivery. */
export interface DeliveredFile {
  /** What the job made: `output`, or the suffix of a poster, thumbnail or captions file (`.poster.png`). */
  name: string;
  key: string;
  contentType: string;
  size: number;
  etag: string;
}

export const jobDeliveries = sqliteTable(
  "job_deliveries",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    /** The destination's place in the job's `destinations` list. */
    position: integer("position").notNull(),
    /** Null once the connection is deleted: the delivery then fails saying so. */
    connectionId: text("connection_id").references(() => storageConnections.id, { onDelete: "set null" }),
    /** The bucket as it was when the job was created (shown even after the connection is deleted). */
    bucket: text("bucket").notNull(),
    /** The output's object key, resolved at creation; the job's other files take it with their own suffix. */
    key: text("key").notNull(),
    status: text("status", { enum: DELIVERY_STATES }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** The files uploaded so far (a retry uploads only the others). */
    files: text("files", { mode: "json" }).notNull().$type<DeliveredFile[]>(),
    error: text("error"),
    nextAttemptAt: integer("next_attempt_at"),
    leaseUntil: integer("lease_until"),
    deliveredAt: integer("delivered_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // A job's deliveries in list order (the job's answer, the completion hook, the settlement's event).
    uniqueIndex("job_deliveries_job_idx").on(table.jobId, table.position),
    // The cron's hand-over of due deliveries whose queue message was lost.
    index("job_deliveries_status_idx").on(table.status, table.nextAttemptAt),
  ],
);
