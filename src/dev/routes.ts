/**
 * /dev: local helpers, only when ENVIRONMENT is development (404 otherwise, like any unknown path):
 * - GET /dev/outbox?email=... the mail the service "sent" (sign-in codes), newest first;
 * - GET /dev/checkout/{sessionId} a stand-in Checkout page, and POST to it pays: the page builds the events the
 *   provider would send (a plan's: the session completed, its first invoice paid; src/billing/local-provider.ts),
 *   signs them with the provider SDK's test helper and hands them to the same webhook verb Stripe's deliveries
 *   reach (signatures verified by the SDK), then sends the browser to the checkout's success URL (303) as Stripe
 *   does; its "Cancel" link goes to the cancel URL;
 * - POST /dev/subscriptions/{id}/renew: the provider's paid invoice of a subscription's next period, the same way.
 */
import { desc, eq } from "drizzle-orm";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../app-env.ts";
import { outbox, payments, subscriptions, users } from "../db/schema.ts";
import { isDevelopment } from "../env.ts";
import { handlePaymentWebhook } from "../billing/webhook.ts";
import { localCheckoutEvents, localInvoice, signedEvent } from "../billing/local-provider.ts";
import { checkoutReturnUrls } from "../billing/payments.ts";
import { planItem, priceOfPlan } from "../billing/plan-prices.ts";
import { getPlan } from "../billing/plans.ts";
import type { Ctx } from "../context.ts";
import { ok } from "../lib/envelope.ts";
import { NotFound } from "../lib/errors.ts";
import { iso } from "../lib/time.ts";
import { queryParams } from "../lib/validate.ts";

const OutboxQuery = v.object({
  email: v.pipe(v.string("email is required"), v.email("email must be an e-mail address"), v.toLowerCase()),
});

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export const devRoutes = new Hono<AppEnv>()
  .use(async (c, next) => {
    if (!isDevelopment(c.env)) throw new NotFound("Route");
    await next();
  })
  .get("/outbox", async (c) => {
    const { email } = queryParams(c, OutboxQuery);
    const rows = await c.var.ctx.db.query.outbox.findMany({
      where: eq(outbox.to, email),
      orderBy: desc(outbox.createdAt),
      limit: 20,
    });
    return ok(c, {
      messages: rows.map((message) => ({
        to: message.to,
        subject: message.subject,
        text: message.text,
        createdAt: iso(message.createdAt),
      })),
    });
  })
  .get("/checkout/:sessionId", async (c) => {
    const row = await c.var.ctx.db.query.payments.findFirst({
      where: eq(payments.sessionId, c.req.param("sessionId")),
    });
    if (!row) throw new NotFound("Checkout session");
    const what = row.kind === "tokens" ? `${row.tokens} prepaid tokens` : `the ${row.planId} plan`;
    const { cancelUrl } = checkoutReturnUrls(c.var.ctx, row.id);
    return c.html(
      `<!doctype html><meta charset="utf-8"><title>Local checkout</title><body style="font:16px system-ui;margin:3em">` +
        `<h1>Local checkout (no money moves)</h1><p>${esc(what)}: ${(row.amountCents / 100).toFixed(2)} ${esc(row.currency.toUpperCase())}` +
        ` &middot; status <b>${esc(row.status)}</b></p>` +
        `<form method="post"><button ${row.status === "pending" ? "" : "disabled"}>Pay (test mode)</button></form>` +
        `<p><a href="${esc(cancelUrl)}">Cancel and go back</a></p></body>`,
    );
  })
  .post("/checkout/:sessionId", async (c) => {
    const ctx = c.var.ctx;
    const row = await ctx.db.query.payments.findFirst({
      where: eq(payments.sessionId, c.req.param("sessionId")),
    });
    if (!row) throw new NotFound("Checkout session");
    const events = await localCheckoutEvents(ctx.env.STRIPE_WEBHOOK_SECRET ?? "", row, ctx.now());
    await deliverAll(ctx, events);
    // As Stripe does once paid: back to the checkout's success URL (the console's billing page follows the payment).
    return c.redirect(checkoutReturnUrls(ctx, row.id).successUrl, 303);
  })
  .post("/subscriptions/:id/renew", async (c) => {
    const ctx = c.var.ctx;
    const sub = await ctx.db.query.subscriptions.findFirst({
      where: eq(subscriptions.id, c.req.param("id")),
    });
    const account = sub && (await ctx.db.query.users.findFirst({ where: eq(users.id, sub.userId) }));
    if (!sub || !account) throw new NotFound("Subscription");
    // What the subscription bills next, as Stripe would have it: the lower plan the owner asked for, else the plan.
    const own = account.subscriptionId === sub.id;
    const pending = own && account.pendingPlanId ? await getPlan(ctx, account.pendingPlanId) : null;
    const plan = pending?.paid ? pending : await getPlan(ctx, own ? account.planId : sub.planId);
    const item = planItem(plan);
    const invoice = localInvoice({
      subscriptionId: sub.id,
      customerId: account.paymentCustomerId ?? `cus_local_${account.id}`,
      metadata: { paymentId: sub.paymentId, userId: sub.userId, planId: plan.id },
      priceId: await priceOfPlan(ctx, plan),
      amountCents: item.amountCents,
      currency: item.currency,
      start: account.currentPeriodEnd,
      billingReason: "subscription_cycle",
    });
    const secret = ctx.env.STRIPE_WEBHOOK_SECRET ?? "";
    return ok(c, await deliverAll(ctx, [await signedEvent(secret, "invoice.paid", invoice)]));
  });

/** Hands signed deliveries to the webhook verb in order; the answer of each, as Stripe would receive it. */
const deliverAll = async (ctx: Ctx, events: { payload: string; signature: string }[]) => {
  const receipts = [];
  for (const event of events) receipts.push(await handlePaymentWebhook(ctx, event.payload, event.signature));
  return { applied: receipts.some((r) => r.applied), events: receipts };
};
