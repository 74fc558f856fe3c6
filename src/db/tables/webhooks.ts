/**
 * v2 render webhooks: the endpoints customers register, the events their jobs raise, one delivery per (event,
 * endpoint) and one row per delivery attempt. D1 holds the log customers read; the endpoint's Durable Object
 * (src/webhooks/endpoint-object.ts) holds the schedule.
 */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns.ts";
import { users } from "./accounts.ts";

export const DELIVERY_STATUSES = ["pending", "delivered", "dead_letter"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * `endpoint`: registered by its owner (POST /api/v2/webhooks). `callback`: the account's one job-callback endpoint
 * (src/webhooks/job-callbacks.ts), created on first use, which sends each job's render events to the `webhookUrl`
 * the job named (stored on each delivery), signed with its secret.
 */
export const ENDPOINT_KINDS = ["endpoint", "callback"] as const;
export type EndpointKind = (typeof ENDPOINT_KINDS)[number];

export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ENDPOINT_KINDS }).notNull().default("endpoint"),
    name: text("name").notNull(),
    /** Where deliveries go; empty for the job-callback endpoint, whose deliveries carry their own URL. */
    url: text("url").notNull(),
    /** The subscribed event types (JSON array); the event inserts match on it with json_each. */
    eventTypes: text("event_types", { mode: "json" }).notNull().$type<string[]>(),
    active: integer("active", { mode: "boolean" }).notNull(),
    /** `whsec_<base64>`: needed in clear to sign, never answered after creation or rotation. */
    secret: text("secret").notNull(),
    /** The secret before the last rotation, which keeps signing beside the new one until it expires. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: integer("previous_secret_expires_at"),
    /** Why the service disabled the endpoint (null when active, or disabled by its owner). */
    disabledReason: text("disabled_reason"),
    /** Start of the current run of failed attempts (null after a success): the auto-disable clock. */
    failingSince: integer("failing_since"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // The endpoint list per owner, and the fan-out of an owner's event to its active endpoints.
    index("webhook_endpoints_user_idx").on(table.userId, table.createdAt),
    // At most one job-callback endpoint per account (created on first use, races included).
    uniqueIndex("webhook_endpoints_callback_idx")
      .on(table.userId)
      .where(sql`${table.kind} = 'callback'`),
  ],
);

export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    /** Also the `webhook-id` header of every delivery of the event (receivers deduplicate on it). */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The job whose transition raised it; null for test events. */
    jobId: text("job_id"),
    type: text("type").notNull(),
    /** The event's `data` as stored at the transition (dates in epoch ms; the delivery formats them). */
    data: text("data", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (table) => [
    // One event per job and type: a duplicate or late transition raises nothing twice (INSERT OR IGNORE).
    uniqueIndex("webhook_events_job_type_idx").on(table.jobId, table.type),
    // Retention pruning by age.
    index("webhook_events_created_idx").on(table.createdAt),
  ],
);

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    /** A job callback's target (the job's `webhookUrl`); null: the endpoint's own URL. */
    url: text("url"),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull(),
    /** Attempts made, across replays. */
    attempts: integer("attempts").notNull().default(0),
    responseStatus: integer("response_status"),
    lastError: text("last_error"),
    nextAttemptAt: integer("next_attempt_at"),
    /**
     * Set by the endpoint's object with its first record of the delivery; the cron hands a pending delivery still
     * without it after a minute to the object again (which ignores one it already holds).
     */
    handedOffAt: integer("handed_off_at"),
    createdAt: createdAt(),
    deliveredAt: integer("delivered_at"),
    updatedAt: updatedAt(),
  },
  (table) => [
    // One delivery per event and endpoint (the fan-out is INSERT OR IGNORE).
    uniqueIndex("webhook_deliveries_endpoint_event_idx").on(table.endpointId, table.eventId),
    // The deliveries list of an endpoint, newest first, optionally by status.
    index("webhook_deliveries_endpoint_created_idx").on(table.endpointId, table.createdAt),
    // The cron's hand-over of deliveries no object has taken.
    index("webhook_deliveries_handoff_idx").on(table.handedOffAt, table.createdAt),
  ],
);

export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    /** 1-based, across replays. */
    attempt: integer("attempt").notNull(),
    status: text("status", { enum: ["succeeded", "failed"] }).notNull(),
    responseStatus: integer("response_status"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
    /** The first bytes of the receiver's answer (shown on the single-delivery view only). */
    responseBody: text("response_body"),
    createdAt: createdAt(),
  },
  // A delivery's attempts in order.
  (table) => [index("webhook_attempts_delivery_idx").on(table.deliveryId, table.attempt)],
);
