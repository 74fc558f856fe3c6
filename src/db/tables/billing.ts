/**
 * Billing: the token ledger (every movement of an account's tokens), payments through the provider, the
 * provider's subscriptions and their paid invoices, and the history of plan changes with their reasons.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns.ts";
import { users } from "./accounts.ts";

/**
 * grant (monthly allowance), purchase (prepaid tokens bought), reserve / release (a job's estimate held and given
 * back), charge (work paid for), expire (monthly tokens left at the end of a period), adjust (operator correction),
 * revoke (tokens of a refunded or disputed purchase taken back, and later repayments of what was owed).
 */
export const LEDGER_KINDS = [
  "grant",
  "purchase",
  "reserve",
  "release",
  "charge",
  "expire",
  "adjust",
  "revoke",
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
  (table) => [
    // Usage history per owner; the balance audit sums by user.
    index("token_ledger_user_created_idx").on(table.userId, table.createdAt),
    // Settlement checks what a job already moved (idempotency).
    index("token_ledger_job_idx").on(table.jobId),
  ],
);

/**
 * Payments through the provider (prepaid token packs, plan subscriptions): one row per checkout session, created
 * when the session is, settled once by the provider's signed webhook (the status guard makes replays no-ops).
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
    /** refunded / disputed: a token pack paid back in full or contested (its tokens taken back). */
    status: text("status", { enum: ["pending", "paid", "expired", "refunded", "disputed"] }).notNull(),
    /** The provider's payment of a token pack (its refunds and disputes name it). */
    paymentIntentId: text("payment_intent_id"),
    /** Tokens of this pack taken back so far (refunds are cumulative, a dispute takes the rest). */
    tokensRevoked: integer("tokens_revoked").notNull().default(0),
    /** The subscription a plan checkout created. */
    subscriptionId: text("subscription_id"),
    createdAt: createdAt(),
    paidAt: integer("paid_at"),
  },
  (table) => [
    // The webhook finds the payment of a session.
    uniqueIndex("payments_session_unique").on(table.sessionId),
    // Refunds and disputes find the token pack they reverse.
    uniqueIndex("payments_payment_intent_unique").on(table.paymentIntentId),
    // Payment history per owner.
    index("payments_user_created_idx").on(table.userId, table.createdAt),
  ],
);

/**
 * Why an account's plan changed (`plan_changes.reason`), readable by the owner (GET /billing/usage) and operators:
 * upgrade (the first paid invoice of a new subscription), requested (a downgrade the owner asked for, at the end of
 * the period), subscription_ended (the provider ended the subscription), subscription_unpaid (the provider marked
 * it unpaid, canceled or expired), payment_failed (the provider's last retry of an invoice failed), refunded (the
 * plan's invoice was refunded in full), disputed (its payment was disputed), lapsed (no paid invoice within the
 * grace period after the paid period ended), billed (a renewal invoice billed another plan than the account had and
 * than the owner had asked for: the price of the subscription was changed outside this API, or after the invoice
 * was drawn).
 */
export const PLAN_CHANGE_REASONS = [
  "upgrade",
  "requested",
  "billed",
  "subscription_ended",
  "subscription_unpaid",
  "payment_failed",
  "refunded",
  "disputed",
  "lapsed",
] as const;
export type PlanChangeReason = (typeof PLAN_CHANGE_REASONS)[number];

/** Every change of an account's plan, with its reason and the provider object that caused it. */
export const planChanges = sqliteTable(
  "plan_changes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    fromPlanId: text("from_plan_id").notNull(),
    toPlanId: text("to_plan_id").notNull(),
    reason: text("reason", { enum: PLAN_CHANGE_REASONS }).notNull(),
    /** The provider's object behind it (subscription, invoice, charge, dispute), or null. */
    ref: text("ref"),
    createdAt: createdAt(),
  },
  (table) => [
    // The owner's latest plan change (GET /billing/usage).
    index("plan_changes_user_created_idx").on(table.userId, table.createdAt),
  ],
);

/**
 * The provider's subscriptions we know: created by a plan checkout, `active` until the provider ends it or the
 * account stops using it (`ended`, with the reason). An ended subscription's invoices grant nothing, whatever
 * order its events arrive in. `users.subscription_id` names the one paying for the account's plan.
 */
export const subscriptions = sqliteTable(
  "subscriptions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    paymentId: text("payment_id").notNull(),
    planId: text("plan_id").notNull(),
    status: text("status", { enum: ["active", "ended"] }).notNull(),
    /** A plan-change reason, or replaced (a newer subscription took over) / superseded (paid while a higher plan was). */
    endedReason: text("ended_reason"),
    /**
     * Replaced by an upgrade: what the customer was credited for its period (cents), no more than the unused share
     * of both its time and its allowance (src/billing/unused-credit.ts). Null otherwise.
     */
    creditedCents: integer("credited_cents"),
    createdAt: createdAt(),
    endedAt: integer("ended_at"),
  },
  (table) => [
    // Account deletion cascades; an owner's subscriptions.
    index("subscriptions_user_idx").on(table.userId),
  ],
);

/**
 * Paid invoices of known subscriptions, one row per provider invoice (replays insert nothing). `status` moves
 * to refunded / disputed when its payment is reversed.
 */
export const subscriptionInvoices = sqliteTable(
  "subscription_invoices",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subscriptionId: text("subscription_id").notNull(),
    periodStart: integer("period_start").notNull(),
    periodEnd: integer("period_end").notNull(),
    amountPaid: integer("amount_paid").notNull(),
    /** The plan its subscription line billed (its price's plan); null when the price names none of ours. */
    planId: text("plan_id"),
    /** Whether this invoice renewed the account's plan and allowance (false: stale, ended or superseded). */
    granted: integer("granted", { mode: "boolean" }).notNull(),
    status: text("status", { enum: ["paid", "refunded", "disputed"] }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    // Account deletion cascades; an owner's invoices.
    index("subscription_invoices_user_idx").on(table.userId),
  ],
);

/**
 * Which invoice a provider payment paid (from `invoice_payment.paid`, or the invoice's own `payments`): refunds
 * and disputes name only the payment. Written in whatever order the events come.
 */
export const invoicePayments = sqliteTable("invoice_payments", {
  paymentIntentId: text("payment_intent_id").primaryKey(),
  invoiceId: text("invoice_id").notNull(),
  createdAt: createdAt(),
});

/**
 * The provider's prices of our plans (a recurring monthly price per plan, amount and currency), the plan's id also
 * in the price's and its product's metadata at the provider. An invoice's subscription line names its price: this
 * is how a paid invoice says which plan it paid for (src/billing/plan-prices.ts).
 */
export const planPrices = sqliteTable(
  "plan_prices",
  {
    /** The provider's price id. */
    priceId: text("price_id").primaryKey(),
    planId: text("plan_id").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    /**
     * `made`: the service made it for the plan (checkouts and plan changes bill it); `read`: a price an invoice
     * named, whose plan was read from the provider (an older inline price, one made elsewhere): never billed anew.
     */
    origin: text("origin", { enum: ["made", "read"] }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    // A checkout or a plan change finds the price made for a plan at its current amount.
    index("plan_prices_plan_idx").on(table.planId, table.amountCents, table.currency, table.origin),
  ],
);
