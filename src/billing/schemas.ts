/**
 * The answers of the billing routes whose shape this area defines (valibot, so the OpenAPI document and clients can
 * type them): the current plan (GET /usage), a plan change (POST /plan), a payment (GET /payments/{id}) and the
 * provider webhook's acknowledgement.
 */
import * as v from "valibot";
import { PLAN_CHANGE_REASONS } from "../db/schema";

const IsoTime = v.pipe(v.string(), v.isoTimestamp());
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const Plan = v.object({
  id: v.string(),
  name: v.string(),
  displayName: v.string(),
  description: v.nullable(v.string()),
  tokensPerMonth: Count,
  pricePerMonth: v.nullable(v.number()),
  maxConcurrentJobs: Count,
  supportLevel: v.picklist(["community", "email", "priority"]),
});

export const Usage = v.object({
  monthlyUsed: Count,
  monthlyQuota: Count,
  monthlyRemaining: Count,
  prepaidBalance: Count,
  /** What work may spend now: 0 while tokens are owed. */
  totalAvailable: Count,
  /** Tokens of a refunded or disputed purchase that were already spent; repaid first from later credits. */
  owedTokens: Count,
  currentPeriodEnd: IsoTime,
});

/** A move to a lower plan at the end of the period, who scheduled it and whether the owner may cancel it. */
export const PendingPlan = v.object({
  id: v.string(),
  effectiveAt: IsoTime,
  reason: v.picklist(["requested", "scheduled_cancel", "unknown"]),
  message: v.string(),
  /** Whether POST /plan with the current plan cancels it (only a move the owner asked for). */
  cancellable: v.boolean(),
});

/** The account's latest plan change and why. */
export const PlanChange = v.object({
  from: v.string(),
  to: v.string(),
  reason: v.picklist(PLAN_CHANGE_REASONS),
  message: v.string(),
  at: IsoTime,
});

/** GET /api/v1/billing/usage. */
export const CurrentPlan = v.object({
  plan: Plan,
  usage: Usage,
  pendingPlan: v.nullable(PendingPlan),
  lastPlanChange: v.nullable(PlanChange),
});

/** POST /api/v1/billing/plan. */
export const PlanChangeResult = v.variant("status", [
  v.object({ status: v.literal("unchanged"), plan: Plan, pendingPlan: v.null() }),
  v.object({ status: v.literal("scheduled"), plan: Plan, pendingPlan: PendingPlan }),
  v.object({
    status: v.literal("payment_required"),
    plan: Plan,
    checkout: v.object({
      paymentId: v.string(),
      checkoutUrl: v.string(),
      sessionId: v.string(),
      amountCents: Count,
      currency: v.string(),
      expiresAt: IsoTime,
    }),
  }),
]);

/** GET /api/v1/billing/payments/{id}. */
export const Payment = v.object({
  id: v.string(),
  kind: v.picklist(["tokens", "plan"]),
  tokens: v.nullable(Count),
  planId: v.nullable(v.string()),
  amountCents: Count,
  currency: v.string(),
  status: v.picklist(["pending", "paid", "expired", "refunded", "disputed"]),
  /** Tokens of a pack taken back after a refund or dispute. */
  tokensRevoked: Count,
  createdAt: IsoTime,
  paidAt: v.nullable(IsoTime),
});

/** POST /api/v1/billing/webhook: `applied` says whether the event changed anything (false for replays). */
export const WebhookReceipt = v.object({ received: v.literal(true), type: v.string(), applied: v.boolean() });

export type CurrentPlan = v.InferOutput<typeof CurrentPlan>;
export type PendingPlan = v.InferOutput<typeof PendingPlan>;
