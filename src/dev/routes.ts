/**
 * /dev: local helpers, only when ENVIRONMENT is development (404 otherwise, like any unknown path):
 * - GET /dev/outbox?email=... the mail the service "sent" (sign-in codes), newest first;
 * - GET /dev/checkout/{sessionId} a stand-in Checkout page, and POST to it pays: the page builds the provider's
 *   `checkout.session.completed` event, signs it with the provider SDK's test helper and hands it to the same
 *   webhook verb Stripe's deliveries reach (signature verified by the SDK).
 */
import { and, desc, eq } from "drizzle-orm";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../app-env";
import { outbox, payments } from "../db/schema";
import { isDevelopment } from "../env";
import { handlePaymentWebhook } from "../billing/payments";
import { signedCompletion } from "../billing/payment-provider";
import { ok } from "../lib/envelope";
import { NotFound } from "../lib/errors";
import { iso } from "../lib/time";
import { queryParams } from "../lib/validate";

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
      messages: rows.map((m) => ({
        to: m.to,
        subject: m.subject,
        text: m.text,
        createdAt: iso(m.createdAt),
      })),
    });
  })
  .get("/checkout/:sessionId", async (c) => {
    const row = await c.var.ctx.db.query.payments.findFirst({
      where: eq(payments.sessionId, c.req.param("sessionId")),
    });
    if (!row) throw new NotFound("Checkout session");
    const what = row.kind === "tokens" ? `${row.tokens} prepaid tokens` : `the ${row.planId} plan`;
    return c.html(
      `<!doctype html><meta charset="utf-8"><title>Local checkout</title><body style="font:16px system-ui;margin:3em">` +
        `<h1>Local checkout (no money moves)</h1><p>${esc(what)}: ${(row.amountCents / 100).toFixed(2)} ${esc(row.currency.toUpperCase())}` +
        ` &middot; status <b>${esc(row.status)}</b></p>` +
        `<form method="post"><button ${row.status === "pending" ? "" : "disabled"}>Pay (test mode)</button></form></body>`,
    );
  })
  .post("/checkout/:sessionId", async (c) => {
    const ctx = c.var.ctx;
    const row = await ctx.db.query.payments.findFirst({
      where: and(eq(payments.sessionId, c.req.param("sessionId"))),
    });
    if (!row) throw new NotFound("Checkout session");
    const { payload, signature } = await signedCompletion(ctx.env.STRIPE_WEBHOOK_SECRET ?? "", {
      id: row.sessionId,
      customer: `cus_local_${row.userId}`,
      metadata: { paymentId: row.id, userId: row.userId },
    });
    return ok(c, await handlePaymentWebhook(ctx, payload, signature));
  });
