/** Plans, accounts and API keys. */
import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns.ts";

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
  /** Plans that offer auto subtitles and other paid-only features. */
  paid: integer("paid", { mode: "boolean" }).notNull().default(false),
  /** Order of the plans from the smallest: an upgrade moves to a higher rank (at once), a downgrade lower (at period end). */
  rank: integer("rank").notNull().default(0),
});

/**
 * Accounts. `tokenBalance` is what the account can spend now: the monthly allowance left plus `prepaidBalance`
 * (purchased tokens, which never expire). Both move only together with a `token_ledger` row
 * (src/ledger/ledger.ts), so sum(amount) = tokenBalance and sum(prepaid_amount) = prepaidBalance always.
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
    /** A downgrade waiting for the end of the period. */
    pendingPlanId: text("pending_plan_id").references(() => plans.id),
    /**
     * Who scheduled `pendingPlanId`: `requested` (the owner, through the API: only this one may be cancelled
     * there) or `scheduled_cancel` (the payment provider's subscription ends at the period's end). NULL with a
     * pending plan: scheduled before reasons were recorded; treated as not the owner's to cancel.
     */
    pendingPlanReason: text("pending_plan_reason", { enum: ["requested", "scheduled_cancel"] }),
    /** The provider subscription whose paid invoices renew the current paid plan (src/billing/subscriptions.ts). */
    subscriptionId: text("subscription_id"),
    /**
     * Tokens owed: a refunded or disputed purchase whose tokens were already spent. Not part of the balance
     * (which is never negative); while above 0 the account can start no work, and every later credit repays it
     * first (src/ledger/ledger.ts).
     */
    tokenDebt: integer("token_debt").notNull().default(0),
    /** Consent given at registration (spec: Account requests). */
    termsVersion: text("terms_version"),
    termsAcceptedAt: integer("terms_accepted_at"),
    marketingAccepted: integer("marketing_accepted", { mode: "boolean" }).notNull().default(false),
    /** The payment provider's customer id, once the account has paid. */
    paymentCustomerId: text("payment_customer_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // Login and `npm run key` look accounts up by e-mail.
    uniqueIndex("users_email_unique").on(table.email),
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
  (table) => [
    // Authentication looks a key up by its hash on every request.
    uniqueIndex("api_keys_hash_unique").on(table.keyHash),
    // Key listing per owner.
    index("api_keys_user_idx").on(table.userId),
  ],
);
