/**
 * Paying: prepaid token packs (Checkout in payment mode) and plans (subscription mode). A payment row is written
 * once the provider has a session for it; the provider's signed webhook settles it (src/billing/webhook.ts).
 */
import { and, eq } from "drizzle-orm";
import * as v from "valibot";
import { getAccount } from "../accounts/lookup.ts";
import type { CallerCtx, Ctx } from "../context.ts";
import { payments } from "../db/schema.ts";
import { NotFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { iso } from "../lib/time.ts";
import { CURRENCY, planItem, priceOfPlan } from "./plan-prices.ts";
import type { PlanRow } from "./plans.ts";
import { paymentProviderFor } from "./provider.ts";
import type { Checkout, Payment } from "./schemas.ts";

export const TOKENS_PER_PACK = 1000;
const DEFAULT_PACK_PRICE_CENTS = 500;

export const CheckoutBody = v.strictObject({
  tokens: v.pipe(
    v.number("tokens must be a number"),
    v.integer("tokens must be a whole number"),
    v.minValue(TOKENS_PER_PACK, `tokens must be at least ${TOKENS_PER_PACK}`),
    v.maxValue(1_000_000, "tokens must be at most 1000000"),
    v.multipleOf(TOKENS_PER_PACK, `tokens must be a multiple of ${TOKENS_PER_PACK}`),
  ),
});

const packPrice = (ctx: Ctx) => {
  const cents = Number(ctx.env.TOKEN_PACK_PRICE_CENTS);
  return Number.isInteger(cents) && cents > 0 ? cents : DEFAULT_PACK_PRICE_CENTS;
};

/**
 * Where Checkout sends the browser back: the console's billing page, which follows the payment until it is settled
 * (GET /api/v1/billing/payments/{id}) and shows the new balance or plan. The local stand-in's page sends it there too.
 */
export const checkoutReturnUrls = (ctx: Ctx, paymentId: string) => {
  const base = `${ctx.env.PUBLIC_URL.replace(/\/+$/, "")}/console/billing?payment=${paymentId}`;
  return { successUrl: `${base}&checkout=success`, cancelUrl: `${base}&checkout=cancelled` };
};

const startCheckout = async (
  ctx: CallerCtx,
  checkout: {
    kind: "tokens" | "plan";
    tokens?: number;
    plan?: PlanRow;
    priceId?: string;
    name: string;
    amountCents: number;
  },
): Promise<Checkout> => {
  const account = await getAccount(ctx, ctx.caller.userId);
  const paymentId = newId("pay");
  // The provider's session first: if it fails, nothing of ours exists; a session whose row failed just expires.
  const session = await paymentProviderFor(ctx.env).createCheckout({
    paymentId,
    userId: account.id,
    email: account.email,
    customerId: account.paymentCustomerId,
    mode: checkout.kind === "plan" ? "subscription" : "payment",
    planId: checkout.plan?.id,
    item: { name: checkout.name, amountCents: checkout.amountCents, currency: CURRENCY },
    priceId: checkout.priceId,
    ...checkoutReturnUrls(ctx, paymentId),
  });
  await ctx.db
    .insert(payments)
    .values({
      id: paymentId,
      userId: account.id,
      sessionId: session.sessionId,
      kind: checkout.kind,
      tokens: checkout.tokens ?? null,
      planId: checkout.plan?.id ?? null,
      amountCents: checkout.amountCents,
      currency: CURRENCY,
      status: "pending",
      createdAt: ctx.now(),
    })
    .run();
  return {
    paymentId,
    checkoutUrl: session.url,
    sessionId: session.sessionId,
    amountCents: checkout.amountCents,
    currency: CURRENCY,
    expiresAt: iso(session.expiresAt)!,
  };
};

/** POST /api/v1/billing/checkout: a Checkout for `tokens` prepaid tokens. */
export const buyTokens = (ctx: CallerCtx, input: { tokens: number }) =>
  startCheckout(ctx, {
    kind: "tokens",
    tokens: input.tokens,
    name: `${input.tokens} prepaid tokens`,
    amountCents: (input.tokens / TOKENS_PER_PACK) * packPrice(ctx),
  });

/**
 * A Checkout for a paid plan (an upgrade: a new subscription, applied when its first invoice is paid), at the plan's
 * own price at the provider.
 */
export const buyPlan = async (ctx: CallerCtx, plan: PlanRow) => {
  const item = planItem(plan);
  return startCheckout(ctx, {
    kind: "plan",
    plan,
    priceId: await priceOfPlan(ctx, plan),
    name: item.name,
    amountCents: item.amountCents,
  });
};

/** GET /api/v1/billing/payments/{id}: the caller's payment (also where Checkout returns to). */
export const readPayment = async (ctx: CallerCtx, id: string): Promise<Payment> => {
  const row = await ctx.db.query.payments.findFirst({
    where: and(eq(payments.id, id), eq(payments.userId, ctx.caller.userId)),
  });
  if (!row) throw new NotFound("Payment");
  return {
    id: row.id,
    kind: row.kind,
    tokens: row.tokens,
    planId: row.planId,
    amountCents: row.amountCents,
    currency: row.currency,
    status: row.status,
    tokensRevoked: row.tokensRevoked,
    createdAt: iso(row.createdAt)!,
    paidAt: iso(row.paidAt),
  };
};
