/** Sign-in: e-mailed one-time codes, sessions, and the local outbox. */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns.ts";
import { users } from "./accounts.ts";

export const CODE_PURPOSES = ["register", "login", "email-change"] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

/**
 * One-time codes. Only the code's HMAC is stored; a code is spent by the first correct try, burnt after a few wrong
 * ones, and dead after `expiresAt`. A new code for the same address and purpose replaces the open one.
 */
export const authCodes = sqliteTable(
  "auth_codes",
  {
    id: text("id").primaryKey(),
    /** The address the code was sent to (lower case). */
    email: text("email").notNull(),
    purpose: text("purpose", { enum: CODE_PURPOSES }).notNull(),
    codeHash: text("code_hash").notNull(),
    /** The account it signs in to or changes; null for a registration (the account is created at verify). */
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** Registration details kept until the address is verified (name, consent). */
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: integer("expires_at").notNull(),
    consumedAt: integer("consumed_at"),
    createdAt: createdAt(),
  },
  (table) => [
    // Verify looks up the open code of an address and purpose.
    index("auth_codes_email_purpose_idx").on(table.email, table.purpose, table.createdAt),
    // The cron deletes codes past their expiry.
    index("auth_codes_expires_idx").on(table.expiresAt),
  ],
);

/** Sessions: the bearer credential of account, key and billing operations. Only the token's SHA-256 is stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
    lastUsedAt: integer("last_used_at"),
    createdAt: createdAt(),
  },
  (table) => [
    // Authentication finds a session by its token's hash on every request.
    uniqueIndex("sessions_token_unique").on(table.tokenHash),
    // Logout everywhere / listing per owner; the cron deletes expired ones.
    index("sessions_user_idx").on(table.userId),
    index("sessions_expires_idx").on(table.expiresAt),
  ],
);

/**
 * Mail written locally instead of sent (ENVIRONMENT development): the developer reads sign-in codes at
 * GET /dev/outbox. Never written in production.
 */
export const outbox = sqliteTable(
  "outbox",
  {
    id: text("id").primaryKey(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    // GET /dev/outbox?email=..., newest first.
    index("outbox_to_created_idx").on(table.to, table.createdAt),
  ],
);
