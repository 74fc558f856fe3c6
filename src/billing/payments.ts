/**
 * Paying: prepaid token packs (Checkout in payment mode) and plan upgrades (subscription mode), and the provider's
 * signed webhook that settles them. A payment row is written once the provider has a session for it; the webhook
 * settles it once (a `pending` -> `paid` guard heads the batch that moves the tokens or the plan), so replayed and
 * duplicated deliveries change nothing.
 */
import { and, eq } from "drizzle-orm";
import * as v from "valibot";
import { getAccount } from "../accounts/internal";
import type { CallerCtx, Ctx } from "../context";
import { payments, users } from "../db/schema";
import { NotFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { iso } from "../lib/time";
import * as ledger from "./ledger";
import { paymentProviderFor, type PaymentEvent } from "./payment-provider";
import { getPlan, type PlanRow } from "./plans";

export const TOKENS_PER_PACK = 1000;
const DEFAULT_PACK_PRICE_CENTS = 500;
const CURRENCY = "usd";

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
  const n = Number(ctx.env.TOKEN_PACK_PRICE_CENTS);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_PACK_PRICE_CENTS;
};

/**
 * Where Checkout sends the browser back: the console's billing page, which follows the payment until it is settled
 * (GET /api/v1/billing/payments/{id}) and shows the new balance or plan.
 */
const returnUrls = (ctx: Ctx, paymentId: string) => {
  const base = `${ctx.env.PUBLIC_URL.replace(/\/+$/, "")}/console/billing?payment=${paymentId}`;
  return { successUrl: `${base}&checkout=success`, cancelUrl: `${base}&checkout=cancelled` };
};

const startCheckout = async (
  ctx: CallerCtx,
  p: { kind: "tokens" | "plan"; tokens?: number; plan?: PlanRow; name: string; amountCents: number },
) => {
  const account = await getAccount(ctx, ctx.caller.userId);
  const paymentId = newId("pay");
  // The provider's session first: if it fails, nothing of ours exists; a session whose row failed just expires.
  const session = await paymentProviderFor(ctx.env).createCheckout({
    paymentId,
    userId: account.id,
    email: account.email,
    customerId: account.paymentCustomerId,
    mode: p.kind === "plan" ? "subscription" : "payment",
    item: { name: p.name, amountCents: p.amountCents, currency: CURRENCY },
    ...returnUrls(ctx, paymentId),
  });
  await ctx.db
    .insert(payments)
    .values({
      id: paymentId,
      userId: account.id,
      sessionId: session.sessionId,
      kind: p.kind,
      tokens: p.tokens ?? null,
      planId: p.plan?.id ?? null,
      amountCents: p.amountCents,
      currency: CURRENCY,
      status: "pending",
      createdAt: ctx.now(),
    })
    .run();
  return {
    paymentId,
    checkoutUrl: session.url,
    sessionId: session.sessionId,
    amountCents: p.amountCents,
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

/** A Checkout for a paid plan (an upgrade; applied when paid). */
export const buyPlan = (ctx: CallerCtx, plan: PlanRow) =>
  startCheckout(ctx, {
    kind: "plan",
    plan,
    name: `${plan.displayName} plan (monthly)`,
    amountCents: Math.round((plan.pricePerMonth ?? 0) * 100),
  });

/** GET /api/v1/billing/payments/{id}: the caller's payment (also where Checkout returns to). */
export const readPayment = async (ctx: CallerCtx, id: string) => {
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
    createdAt: iso(row.createdAt)!,
    paidAt: iso(row.paidAt),
  };
};

/** The guard that heads a settlement: the payment moves from pending to paid exactly once. */
const markPaid = (ctx: Ctx, sessionId: string, at: number) =>
  ctx.d1
    .prepare("UPDATE payments SET status = 'paid', paid_at = ?2 WHERE session_id = ?1 AND status = 'pending'")
    .bind(sessionId, at);

const settle = async (ctx: Ctx, event: PaymentEvent): Promise<boolean> => {
  const row = event.sessionId
    ? await ctx.db.query.payments.findFirst({ where: eq(payments.sessionId, event.sessionId) })
    : undefined;
  if (!row || row.status !== "pending") return false;
  const at = ctx.now();
  const { d1 } = ctx;
  const customer = event.customerId
    ? [
        d1
          .prepare("UPDATE users SET payment_customer_id = ?2 WHERE id = ?1")
          .bind(row.userId, event.customerId),
      ]
    : [];
  if (row.kind === "tokens") {
    const results = await d1.batch([
      markPaid(ctx, row.sessionId, at),
      ...ledger.purchase(
        d1,
        { userId: row.userId, amount: row.tokens ?? 0, refId: row.id, note: "prepaid tokens bought", at },
        { when: "after-guard" },
      ),
      ...customer,
    ]);
    return ledger.moved(results, 2);
  }
  // A plan upgrade: at once, with the difference of the monthly allowance for the rest of this period.
  const account = await getAccount(ctx, row.userId);
  const [from, to] = await Promise.all([getPlan(ctx, account.planId), getPlan(ctx, row.planId!)]);
  const results = await d1.batch([
    markPaid(ctx, row.sessionId, at),
    d1
      .prepare(
        `UPDATE users SET plan_id = ?2, pending_plan_id = NULL, updated_at = ?4
         WHERE id = ?1 AND plan_id = ?3 AND changes() = 1`,
      )
      .bind(row.userId, to.id, from.id, at),
    ...ledger.grant(
      d1,
      {
        userId: row.userId,
        amount: Math.max(0, to.tokensPerMonth - from.tokensPerMonth),
        refId: row.id,
        note: `upgrade to ${to.name}`,
        at,
      },
      { when: "after-guard" },
    ),
    ...customer,
  ]);
  return results[1]?.meta.changes === 1;
};

/**
 * POST /api/v1/billing/webhook: one signed provider event. Paid checkouts settle their payment; expired ones are
 * marked; a cancelled subscription schedules the move back to the free plan at the end of the period.
 */
export const handlePaymentWebhook = async (ctx: Ctx, rawBody: string, signature: string | undefined) => {
  const event = await paymentProviderFor(ctx.env).verifyEvent(rawBody, signature);
  let applied = false;
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      if (event.paid) applied = await settle(ctx, event);
      break;
    case "checkout.session.expired":
      if (event.sessionId)
        applied =
          (
            await ctx.db
              .update(payments)
              .set({ status: "expired" })
              .where(and(eq(payments.sessionId, event.sessionId), eq(payments.status, "pending")))
              .returning({ id: payments.id })
          ).length === 1;
      break;
    case "customer.subscription.deleted":
      if (event.customerId)
        applied =
          (
            await ctx.db
              .update(users)
              .set({ pendingPlanId: "free", updatedAt: ctx.now() })
              .where(eq(users.paymentCustomerId, event.customerId))
              .returning({ id: users.id })
          ).length > 0;
      break;
  }
  return { received: true, type: event.type, applied };
};
