/** The answers of /api/v1/billing: plans, usage, the ledger, plan changes and payments. */
import * as v from "valibot";
import { LEDGER_KINDS } from "../db/schema";
import { Timestamp } from "../lib/envelope";

const Int = v.pipe(v.number(), v.integer());

export const Plan = v.object({
  id: v.string(),
  name: v.string(),
  displayName: v.string(),
  description: v.nullable(v.string()),
  tokensPerMonth: Int,
  pricePerMonth: v.pipe(v.nullable(v.number()), v.description("USD per month; null for free")),
  maxConcurrentJobs: Int,
  supportLevel: v.picklist(["community", "email", "priority"]),
});
export type Plan = v.InferOutput<typeof Plan>;

export const PlanList = v.object({ plans: v.array(Plan) });
export type PlanList = v.InferOutput<typeof PlanList>;

/** A downgrade waiting for the end of the period. */
const PendingPlan = v.object({ id: v.string(), effectiveAt: Timestamp });

/** The spec's token usage of an account. */
export const TokenUsage = v.object({
  monthlyUsed: Int,
  monthlyQuota: Int,
  monthlyRemaining: Int,
  prepaidBalance: Int,
  totalAvailable: Int,
  currentPeriodEnd: Timestamp,
});
export type TokenUsage = v.InferOutput<typeof TokenUsage>;

/** GET /api/v1/billing/usage. */
export const CurrentUsage = v.object({ plan: Plan, usage: TokenUsage, pendingPlan: v.nullable(PendingPlan) });
export type CurrentUsage = v.InferOutput<typeof CurrentUsage>;

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
  amountCents: Int,
  currency: v.string(),
  expiresAt: Timestamp,
});
export type Checkout = v.InferOutput<typeof Checkout>;

/** POST /api/v1/billing/plan: unchanged (a scheduled downgrade cancelled), scheduled, or to be paid. */
export const PlanChange = v.variant("status", [
  v.object({ status: v.literal("unchanged"), plan: Plan, pendingPlan: v.null() }),
  v.object({ status: v.literal("scheduled"), plan: Plan, pendingPlan: PendingPlan }),
  v.object({ status: v.literal("payment_required"), plan: Plan, checkout: Checkout }),
]);
export type PlanChange = v.InferOutput<typeof PlanChange>;

export const Payment = v.object({
  id: v.string(),
  kind: v.picklist(["tokens", "plan"]),
  tokens: v.nullable(Int),
  planId: v.nullable(v.string()),
  amountCents: Int,
  currency: v.string(),
  status: v.picklist(["pending", "paid", "expired"]),
  createdAt: Timestamp,
  paidAt: v.nullable(Timestamp),
});
export type Payment = v.InferOutput<typeof Payment>;

/** Where Checkout sends the browser back. */
export const CheckoutReturn = v.object({
  checkout: v.picklist(["success", "cancelled"]),
  next: v.string(),
});
export type CheckoutReturn = v.InferOutput<typeof CheckoutReturn>;
