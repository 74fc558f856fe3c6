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
import { buyTokens, CheckoutBody, handlePaymentWebhook, readPayment } from "./payments";
import { currentUsage, listPlans } from "./plans";

/** Provider events are a few KB; anything larger is not one. */
const MAX_WEBHOOK_BYTES = 64 * 1024;

export const billingRoutes = new Hono<AppEnv>()
  .get("/plans", async (c) => ok(c, await listPlans(c.var.ctx)))
  .get("/usage", requireKeyOrSession, async (c) => ok(c, await currentUsage(callerCtx(c))))
  .get("/ledger", requireKeyOrSession, async (c) =>
    ok(c, await listLedger(callerCtx(c), queryParams(c, LedgerQuery))),
  )
  .post("/plan", requireSession, async (c) =>
    ok(c, await changePlan(callerCtx(c), await jsonBody(c, ChangePlanBody))),
  )
  .post("/checkout", requireSession, async (c) =>
    ok(c, await buyTokens(callerCtx(c), await jsonBody(c, CheckoutBody)), 201),
  )
  .get("/payments/:id", requireKeyOrSession, async (c) =>
    ok(c, await readPayment(callerCtx(c), c.req.param("id"))),
  )
  .get("/return", (c) =>
    ok(c, {
      checkout: c.req.query("checkout") === "success" ? "success" : "cancelled",
      next: "GET /api/v1/billing/usage shows the tokens once the payment is confirmed (seconds)",
    }),
  )
  .post("/webhook", async (c) => {
    const raw = await readTextBounded(c.req.raw, MAX_WEBHOOK_BYTES);
    return ok(c, await handlePaymentWebhook(c.var.ctx, raw, c.req.header("stripe-signature")));
  });
