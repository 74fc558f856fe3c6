/**
 * /api/v1/billing: plans (public), the current plan with usage and the usage history (a key or a session),
 * plan changes and token purchases (a session), payments, and the payment provider's signed webhook.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { callerCtx, requireKeyOrSession, requireSession } from "../auth/api-key.ts";
import { ok } from "../lib/envelope.ts";
import { readTextBounded } from "../lib/body.ts";
import { jsonBody, NoQuery, queryParams } from "../lib/validate.ts";
import { ChangePlanBody, changePlan } from "./change-plan.ts";
import { LedgerQuery, listLedger } from "./ledger-history.ts";
import { buyTokens, CheckoutBody, readPayment } from "./payments.ts";
import { currentUsage } from "./plan-view.ts";
import { listPlans } from "./plans.ts";
import { Checkout, CurrentPlan, LedgerPage, Payment, PlanChangeResult, PlanList } from "./schemas.ts";
import { handlePaymentWebhook } from "./webhook.ts";
import { describe } from "../lib/openapi-route.ts";

/** Provider events are a few KB; anything larger is not one. */
const MAX_WEBHOOK_BYTES = 64 * 1024;

export const billingRoutes = new Hono<AppEnv>()
  .get(
    "/plans",
    describe({
      operationId: "listPlans",
      tag: "Billing",
      summary: "The plans and their prices",
      public: true,
      query: NoQuery,
      ok: {
        status: 200,
        description: "`plans`: id, name, price, monthly tokens, concurrent jobs",
        data: PlanList,
      },
      mcp: false,
    }),
    async (c) => {
      queryParams(c, NoQuery);
      return ok(c, await listPlans(c.var.ctx));
    },
  )
  .get(
    "/usage",
    requireKeyOrSession,
    describe({
      operationId: "getUsage",
      tag: "Billing",
      summary: "Your plan, balance and this period's usage",
      description:
        "`totalAvailable` is 0 while the account owes tokens of a refunded or disputed purchase (`owedTokens`). " +
        "`pendingPlan`: a move to a lower plan at the period's end, who scheduled it and whether POST /plan may " +
        "cancel it; `lastPlanChange`: why the plan last changed (an upgrade paid, a downgrade, the subscription " +
        "ended or unpaid, a refund, a dispute, a lapse).",
      ok: {
        status: 200,
        description:
          "Plan, monthly allowance left, prepaid tokens, owed tokens, period end, pending and last change",
        data: CurrentPlan,
      },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await currentUsage(callerCtx(c))),
  )
  .get(
    "/ledger",
    requireKeyOrSession,
    describe({
      operationId: "listLedgerEntries",
      tag: "Billing",
      summary: "Your token ledger, newest first",
      query: LedgerQuery,
      ok: { status: 200, description: "`entries` (every token movement) and `pagination`", data: LedgerPage },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await listLedger(callerCtx(c), queryParams(c, LedgerQuery))),
  )
  .post(
    "/plan",
    requireSession,
    describe({
      operationId: "changePlan",
      tag: "Billing",
      summary: "Change plan",
      description:
        "An upgrade answers a `checkout` for a monthly subscription and applies when its first invoice is paid " +
        "(a new period with the plan's full allowance); a downgrade is scheduled for the period's end " +
        "(`pendingPlan`). Asking for the current plan cancels a downgrade you asked for; a move the payment " +
        "provider scheduled answers 409 saying why (`details.pendingPlan`). 400 when already on the plan.",
      body: ChangePlanBody,
      ok: {
        status: 200,
        description: "`unchanged`, `scheduled` (with `pendingPlan`) or `payment_required` (with `checkout`)",
        data: PlanChangeResult,
      },
      errors: [404, 409, 502],
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await changePlan(callerCtx(c), await jsonBody(c, ChangePlanBody))),
  )
  .post(
    "/checkout",
    requireSession,
    describe({
      operationId: "buyTokens",
      tag: "Billing",
      summary: "Buy prepaid tokens",
      body: CheckoutBody,
      ok: {
        status: 201,
        description: "`paymentId`, `checkoutUrl`; the tokens arrive when the payment is confirmed",
        data: Checkout,
      },
      errors: [502],
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await buyTokens(callerCtx(c), await jsonBody(c, CheckoutBody)), 201),
  )
  .get(
    "/payments/:id",
    requireKeyOrSession,
    describe({
      operationId: "getPayment",
      tag: "Billing",
      summary: "Read a payment",
      ok: {
        status: 200,
        description:
          "Status (`pending`, `paid`, `expired`, `refunded`, `disputed`), amount, what it buys, `tokensRevoked`",
        data: Payment,
      },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await readPayment(callerCtx(c), c.req.param("id"))),
  )
  .post("/webhook", async (c) => {
    const raw = await readTextBounded(c.req.raw, MAX_WEBHOOK_BYTES);
    return ok(c, await handlePaymentWebhook(c.var.ctx, raw, c.req.header("stripe-signature")));
  });
