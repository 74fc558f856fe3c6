/**
 * /api/v1/billing: plans (public), the current plan with usage and the usage history (a key or a session),
 * plan changes and token purchases (a session), payments, and the payment provider's signed webhook.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { callerCtx, requireKeyOrSession, requireSession } from "../auth/api-key";
import { ok } from "../lib/envelope";
import { readTextBounded } from "../lib/body";
import { jsonBody, queryParams } from "../lib/validate";
import { ChangePlanBody, changePlan } from "./change-plan";
import { LedgerQuery, listLedger } from "./ledger-history";
import { buyTokens, CheckoutBody, readPayment } from "./payments";
import { currentUsage } from "./plan-view";
import { listPlans } from "./plans";
import { handlePaymentWebhook } from "./webhook";
import { describe } from "../docs/describe";

/** Provider events are a few KB; anything larger is not one. */
const MAX_WEBHOOK_BYTES = 64 * 1024;

export const billingRoutes = new Hono<AppEnv>()
  .get(
    "/plans",
    describe({
      tag: "Billing",
      summary: "The plans and their prices",
      public: true,
      ok: { status: 200, description: "`plans`: id, name, price, monthly tokens, concurrent jobs" },
    }),
    async (c) => ok(c, await listPlans(c.var.ctx)),
  )
  .get(
    "/usage",
    requireKeyOrSession,
    describe({
      tag: "Billing",
      summary: "Your plan, balance and this period's usage",
      ok: { status: 200, description: "Plan, monthly allowance left, prepaid tokens, period dates" },
    }),
    async (c) => ok(c, await currentUsage(callerCtx(c))),
  )
  .get(
    "/ledger",
    requireKeyOrSession,
    describe({
      tag: "Billing",
      summary: "Your token ledger, newest first",
      query: LedgerQuery,
      ok: { status: 200, description: "`entries` (every token movement) and `pagination`" },
      errors: [400],
    }),
    async (c) => ok(c, await listLedger(callerCtx(c), queryParams(c, LedgerQuery))),
  )
  .post(
    "/plan",
    requireSession,
    describe({
      tag: "Billing",
      summary: "Change plan",
      description:
        "An upgrade answers a `checkoutUrl` and applies once paid; a downgrade applies at the period's end.",
      body: ChangePlanBody,
      ok: { status: 200, description: "The change: `checkoutUrl` or the scheduled downgrade" },
      errors: [400, 409],
    }),
    async (c) => ok(c, await changePlan(callerCtx(c), await jsonBody(c, ChangePlanBody))),
  )
  .post(
    "/checkout",
    requireSession,
    describe({
      tag: "Billing",
      summary: "Buy prepaid tokens",
      body: CheckoutBody,
      ok: {
        status: 201,
        description: "`paymentId`, `checkoutUrl`; the tokens arrive when the payment is confirmed",
      },
      errors: [400],
    }),
    async (c) => ok(c, await buyTokens(callerCtx(c), await jsonBody(c, CheckoutBody)), 201),
  )
  .get(
    "/payments/:id",
    requireKeyOrSession,
    describe({
      tag: "Billing",
      summary: "Read a payment",
      ok: { status: 200, description: "Status, amount, what it buys" },
      errors: [404],
    }),
    async (c) => ok(c, await readPayment(callerCtx(c), c.req.param("id"))),
  )
  .get(
    "/return",
    describe({
      tag: "Billing",
      summary: "Where checkout sends the browser back",
      public: true,
      ok: { status: 200, description: "`checkout` (success or cancelled) and what to do next" },
    }),
    (c) =>
      ok(c, {
        checkout: c.req.query("checkout") === "success" ? "success" : "cancelled",
        next: "GET /api/v1/billing/usage shows the tokens once the payment is confirmed (seconds)",
      }),
  )
  .post("/webhook", async (c) => {
    const raw = await readTextBounded(c.req.raw, MAX_WEBHOOK_BYTES);
    return ok(c, await handlePaymentWebhook(c.var.ctx, raw, c.req.header("stripe-signature")));
  });
