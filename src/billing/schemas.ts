/**
 * The answers of /api/v1/billing (valibot, so the verbs are typed by them and the OpenAPI document, the generated
 * client and the tests take them from here): plans, the current plan with its usage, a pending move and the last
 * change, the ledger, plan changes, checkouts, payments, the checkout's return page and the provider webhook's
 * acknowledgement.
 */
import * as v from "valibot";
import { LEDGER_KINDS, PLAN_CHANGE_REASONS } from "../db/schema.ts";
import { Timestamp } from "../lib/envelope.ts";

const Int = v.pipe(v.number(), v.integer());
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const Plan = v.object({
  id: v.string(),
  name: v.string(),
  displayName: v.string(),
  description: v.nullable(v.string()),
  tokensPerMonth: Count,
  pricePerMonth: v.pipe(v.nullable(v.number()), v.description("USD per month; null for free")),
  maxConcurrentJobs: Count,
  supportLevel: v.picklist(["community", "email", "priority"]),
});
export type Plan = v.InferOutput<typeof Plan>;

export const PlanList = v.object({ plans: v.array(Plan) });
export type PlanList = v.InferOutput<typeof PlanList>;

/** The spec's token usage of an account, with the tokens it owes. */
export const TokenUsage = v.object({
  monthlyUsed: Count,
  monthlyQuota: Count,
  monthlyRemaining: Count,
  prepaidBalance: Count,
  totalAvailable: v.pipe(Count, v.description("What work may spend now: 0 while tokens are owed")),
  owedTokens: v.pipe(
    Count,
    v.description(
      "Tokens of a refunded or disputed purchase that were already spent; repaid first from later credits",
    ),
  ),
  currentPeriodEnd: Timestamp,
});
export type TokenUsage = v.InferOutput<typeof TokenUsage>;

/** A move to a lower plan at the end of the period, who scheduled it and whether the owner may cancel it. */
export const PendingPlan = v.object({
  id: v.string(),
  effectiveAt: Timestamp,
  reason: v.pipe(
    v.picklist(["requested", "scheduled_cancel", "unknown"]),
    v.description(
      "`requested`: the owner asked for it; `scheduled_cancel`: the subscription ends at the provider",
    ),
  ),
  message: v.pipe(v.string(), v.description("Why, in a sentence")),
  cancellable: v.pipe(
    v.boolean(),
    v.description(
      "Whether POST /api/v1/billing/plan with the current plan cancels it (only a move the owner asked for)",
    ),
  ),
});
export type PendingPlan = v.InferOutput<typeof PendingPlan>;

/** The account's latest plan change and why. */
export const PlanChangeRecord = v.object({
  from: v.string(),
  to: v.string(),
  reason: v.picklist(PLAN_CHANGE_REASONS),
  message: v.pipe(v.string(), v.description("Why, in a sentence")),
  at: Timestamp,
});
export type PlanChangeRecord = v.InferOutput<typeof PlanChangeRecord>;

/** GET /api/v1/billing/usage: the plan, its usage, a pending move and the last change. */
export const CurrentPlan = v.object({
  plan: Plan,
  usage: TokenUsage,
  pendingPlan: v.nullable(PendingPlan),
  lastPlanChange: v.pipe(
    v.nullable(PlanChangeRecord),
    v.description("Why the plan last changed; null while it never has"),
  ),
});
export type CurrentPlan = v.InferOutput<typeof CurrentPlan>;

export const LedgerPage = v.object({
  entries: v.array(
    v.object({
      id: v.string(),
      kind: v.picklist(LEDGER_KINDS),
      amount: v.pipe(Int, v.description("The signed change of the balance")),
      prepaidAmount: v.pipe(Int, v.description("The part that moved prepaid tokens")),
      monthlyAmount: v.pipe(Int, v.description("The part that moved the monthly allowance")),
      jobId: v.nullable(v.string()),
      note: v.nullable(v.string()),
      createdAt: Timestamp,
    }),
  ),
  pagination: v.object({ page: Int, limit: Int, totalCount: Int, totalPages: Int }),
});
export type LedgerPage = v.InferOutput<typeof LedgerPage>;

/** A Checkout started: pay at `checkoutUrl`; what it buys arrives when the payment is confirmed. */
export const Checkout = v.object({
  paymentId: v.string(),
  checkoutUrl: v.string(),
  sessionId: v.string(),
  amountCents: Count,
  currency: v.string(),
  expiresAt: Timestamp,
});
export type Checkout = v.InferOutput<typeof Checkout>;

/**
 * POST /api/v1/billing/plan: `unchanged` (the owner's downgrade cancelled), `scheduled` (a downgrade at the end of
 * the period), or `payment_required` (an upgrade: pay its Checkout).
 */
export const PlanChangeResult = v.variant("status", [
  v.object({ status: v.literal("unchanged"), plan: Plan, pendingPlan: v.null() }),
  v.object({ status: v.literal("scheduled"), plan: Plan, pendingPlan: PendingPlan }),
  v.object({ status: v.literal("payment_required"), plan: Plan, checkout: Checkout }),
]);
export type PlanChangeResult = v.InferOutput<typeof PlanChangeResult>;

/** GET /api/v1/billing/payments/{id}. */
export const Payment = v.object({
  id: v.string(),
  kind: v.picklist(["tokens", "plan"]),
  tokens: v.nullable(Count),
  planId: v.nullable(v.string()),
  amountCents: Count,
  currency: v.string(),
  status: v.picklist(["pending", "paid", "expired", "refunded", "disputed"]),
  tokensRevoked: v.pipe(Count, v.description("Tokens of a pack taken back after a refund or dispute")),
  createdAt: Timestamp,
  paidAt: v.nullable(Timestamp),
});
export type Payment = v.InferOutput<typeof Payment>;

/**
 * POST /api/v1/billing/webhook (the provider's, left out of the document): `applied` says whether the event changed
 * anything (false for replays).
 */
export const WebhookReceipt = v.object({ received: v.literal(true), type: v.string(), applied: v.boolean() });
export type WebhookReceipt = v.InferOutput<typeof WebhookReceipt>;
