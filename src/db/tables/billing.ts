/** The token ledger: every movement of an account's tokens. */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { users } from "./accounts";

/**
 * grant (monthly allowance), purchase (prepaid tokens bought), reserve / release (a job's estimate held and given
 * back), charge (work paid for), expire (monthly tokens left at the end of a period), adjust (operator correction).
 */
export const LEDGER_KINDS = [
  "grant",
  "purchase",
  "reserve",
  "release",
  "charge",
  "expire",
  "adjust",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

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
    /** The part of `amount` that moved prepaid tokens (the rest moved the monthly allowance). */
    prepaidAmount: integer("prepaid_amount").notNull().default(0),
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
 * Payments through the provider (prepaid token packs, plan upgrades): one row per checkout session, created when
 * the session is, settled once by the provider's signed webhook (the status guard makes replays no-ops).
 */
export const payments = sqliteTable(
  "payments",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The provider's checkout session id. */
    sessionId: text("session_id").notNull(),
    kind: text("kind", { enum: ["tokens", "plan"] }).notNull(),
    /** Prepaid tokens bought (kind tokens) or the plan bought (kind plan). */
    tokens: integer("tokens"),
    planId: text("plan_id"),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    status: text("status", { enum: ["pending", "paid", "expired"] }).notNull(),
    createdAt: createdAt(),
    paidAt: integer("paid_at"),
  },
  (t) => [
    // The webhook finds the payment of a session.
    uniqueIndex("payments_session_unique").on(t.sessionId),
    // Payment history per owner.
    index("payments_user_created_idx").on(t.userId, t.createdAt),
  ],
);
