/** Templates (stored configs with variables) and batches (one template, many rows, one job per valid row). */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { FieldError } from "@media-render/contract/field-errors";
import type { VariableDecl } from "@media-render/contract/config/template-variables";
import { createdAt, updatedAt } from "./columns.ts";
import { users } from "./accounts.ts";
import { JOB_TYPES } from "./jobs.ts";

/** A declared template variable (packages/contract/src/config/template-variables.ts validates and applies them). */
export type { VariableDecl };

export const templates = sqliteTable(
  "templates",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    type: text("type", { enum: JOB_TYPES }).notNull(),
    /** The config with `{{variable}}` placeholders, as submitted. */
    config: text("config", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    /** Every variable the config uses: declared ones as declared, the others derived (string, required). */
    variables: text("variables", { mode: "json" }).notNull().$type<VariableDecl[]>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // Template listing per owner, newest first.
    index("templates_user_created_idx").on(table.userId, table.createdAt),
  ],
);

export const BATCH_STATUSES = ["RUNNING", "COMPLETED", "CANCELLED"] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** A row refused at submission, kept for the manifest. */
export interface RejectedRow {
  row: number;
  name: string | null;
  errors: FieldError[];
}

/**
 * Batches. Their jobs are ordinary jobs carrying `batch_id` (the lifecycle and ledger treat them like any other);
 * rows refused at submission (valid-only mode) are kept in `rejected` for the manifest.
 */
export const batches = sqliteTable(
  "batches",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    templateId: text("template_id").notNull(),
    status: text("status", { enum: BATCH_STATUSES }).notNull(),
    mode: text("mode", { enum: ["valid-only", "all-or-nothing"] }).notNull(),
    /** The row column that names each output in the ZIP (else the row number). */
    nameColumn: text("name_column"),
    totalRows: integer("total_rows").notNull(),
    /** How many of the batch's jobs may be queued at once (the plan's concurrent-job limit). */
    feedWindow: integer("feed_window").notNull(),
    rejected: text("rejected", { mode: "json" }).notNull().$type<RejectedRow[]>(),
    endedAt: integer("ended_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // The cron re-feeds running batches.
    index("batches_status_idx").on(table.status),
    // The batch list per owner, newest first (GET /api/v2/batches).
    index("batches_user_created_idx").on(table.userId, table.createdAt),
  ],
);
