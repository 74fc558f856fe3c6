/**
 * /api/v1/billing on the real local bindings: plans, usage, the ledger history, token purchases settled by the
 * payment provider's webhook (events signed with the Stripe SDK's own test helper and verified by the SDK), plan
 * upgrades and downgrades, and the abuse cases (forged, replayed or foreign events; other accounts' payments).
 */
import { env } from "cloudflare:workers";
import Stripe from "stripe";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { CurrentPlan, Payment, PlanChangeResult, type PendingPlan } from "../../../src/billing/schemas.ts";
import { call, json } from "../helpers.ts";
import { openPending } from "../jobs-seed.ts";
import { bearer, body, signUp } from "./sign-up.ts";
import { invoice, subscribe } from "./stripe-events.ts";

/** GET /billing/usage, checked against its declared answer schema. */
const usage = async (token: string) =>
  v.parse(CurrentPlan, (await body(await call("/api/v1/billing/usage", bearer(token)))).data);

type Checkout = { paymentId: string; checkoutUrl: string; sessionId: string; amountCents: number };
const buy = async (token: string, tokens: number) => {
  const res = await call("/api/v1/billing/checkout", bearer(token, json("POST", { tokens })));
  expect(res.status).toBe(201);
  return (await body<Checkout>(res)).data!;
};

/** A provider delivery for `sessionId`, signed by the SDK's test helper with `secret`. */
const delivery = async (
  type: string,
  object: Record<string, unknown>,
  secret = env.STRIPE_WEBHOOK_SECRET!,
) => {
  const payload = JSON.stringify({
    id: `evt_${Math.random().toString(36).slice(2)}`,
    object: "event",
    type,
    data: { object },
  });
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret });
  return call("/api/v1/billing/webhook", {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body: payload,
  });
};
const paid = (sessionId: string, customer = "cus_test") => ({
  id: sessionId,
  object: "checkout.session",
  payment_status: "paid",
  customer,
  metadata: {},
});

describe("plans and usage", () => {
  it("lists the plans publicly, smallest first, in the spec's shape", async () => {
    const res = await call("/api/v1/billing/plans");
    expect(res.status).toBe(200);
    const { plans } = (await body<{ plans: Record<string, unknown>[] }>(res)).data!;
    expect(plans.map((p) => p.id)).toEqual(["free", "pro", "business"]);
    expect(plans[1]).toEqual({
      id: "pro",
      name: "pro",
      displayName: "Pro",
      description: "For production automations.",
      tokensPerMonth: 10000,
      pricePerMonth: 29,
      maxConcurrentJobs: 10,
      supportLevel: "email",
    });
  });

  it("shows a new account's plan and usage, with a session or with a key", async () => {
    const { token } = await signUp();
    const u = await usage(token);
    expect(u.plan).toMatchObject({ id: "free", tokensPerMonth: 500 });
    expect(u.usage).toMatchObject({
      monthlyUsed: 0,
      monthlyQuota: 500,
      monthlyRemaining: 500,
      prepaidBalance: 0,
      totalAvailable: 500,
      owedTokens: 0,
    });
    expect(u.pendingPlan).toBeNull();
    expect(u.lastPlanChange).toBeNull();
    expect(Date.parse(String(u.usage.currentPeriodEnd))).toBeGreaterThan(Date.now());
    const made = await body<{ key: string }>(
      await call(
        "/api/v1/api-keys",
        bearer(token, json("POST", { name: "reader", permissions: [{ resource: "jobs", action: "read" }] })),
      ),
    );
    expect((await call("/api/v1/billing/usage", { headers: { "x-api-key": made.data!.key } })).status).toBe(
      200,
    );
  });
});

describe("prepaid tokens", () => {
  it("buys tokens through checkout; the signed webhook grants them once; the monthly allowance is spent first", async () => {
    const { token, userId } = await signUp();
    const checkout = await buy(token, 2000);
    expect(checkout).toMatchObject({
      amountCents: 1000,
      checkoutUrl: expect.stringMatching(/\/dev\/checkout\/cs_local_/),
    });
    expect((await usage(token)).usage.prepaidBalance).toBe(0);

    const settled = await delivery("checkout.session.completed", paid(checkout.sessionId));
    expect(settled.status).toBe(200);
    expect((await body(settled)).data).toEqual({
      received: true,
      type: "checkout.session.completed",
      applied: true,
    });
    expect((await usage(token)).usage).toMatchObject({
      prepaidBalance: 2000,
      monthlyRemaining: 500,
      totalAvailable: 2500,
    });
    // Replays and duplicates change nothing.
    for (let i = 0; i < 3; i++) {
      const again = await delivery("checkout.session.completed", paid(checkout.sessionId));
      expect((await body(again)).data).toMatchObject({ applied: false });
    }
    expect((await usage(token)).usage.totalAvailable).toBe(2500);

    // A job of 600: 500 from the monthly allowance, 100 from prepaid.
    await openPending(userId, 600);
    expect((await usage(token)).usage).toMatchObject({
      monthlyRemaining: 0,
      monthlyUsed: 500,
      prepaidBalance: 1900,
    });
    const payment = await body(await call(`/api/v1/billing/payments/${checkout.paymentId}`, bearer(token)));
    expect(v.parse(Payment, payment.data)).toMatchObject({
      status: "paid",
      tokens: 2000,
      kind: "tokens",
      tokensRevoked: 0,
    });
    const history = await body<{ entries: { kind: string; amount: number; prepaidAmount: number }[] }>(
      await call("/api/v1/billing/ledger", bearer(token)),
    );
    expect(history.data!.entries.map((e) => [e.kind, e.amount, e.prepaidAmount])).toEqual([
      ["reserve", -600, -100],
      ["purchase", 2000, 2000],
      ["grant", 500, 0],
    ]);
  });

  it("pays from the local checkout page (the SDK signs and verifies the event)", async () => {
    const { token } = await signUp();
    const checkout = await buy(token, 1000);
    const page = await call(new URL(checkout.checkoutUrl).pathname);
    const html = await page.text();
    expect(html).toContain("1000 prepaid tokens");
    // Its cancel link goes back to the checkout's cancel URL.
    expect(html).toContain(`/console/billing?payment=${checkout.paymentId}&#38;checkout=cancelled`);
    const pay = await call(new URL(checkout.checkoutUrl).pathname, { method: "POST", redirect: "manual" });
    // Paid, the browser goes back to the checkout's success URL, as Stripe sends it: the console's billing page.
    expect(pay.status).toBe(303);
    expect(pay.headers.get("location")).toMatch(
      new RegExp(`/console/billing\\?payment=${checkout.paymentId}&checkout=success$`),
    );
    expect((await usage(token)).usage.prepaidBalance).toBe(1000);
  });

  it("pays a plan from the local checkout page (the provider's events, signed); the renew page pays the next period", async () => {
    const { token, userId } = await signUp();
    const change = await call("/api/v1/billing/plan", bearer(token, json("POST", { planId: "pro" })));
    const { checkout } = (await body<{ checkout: Checkout }>(change)).data!;
    const pay = await call(new URL(checkout.checkoutUrl).pathname, { method: "POST", redirect: "manual" });
    expect(pay.status).toBe(303);
    expect(pay.headers.get("location")).toMatch(`?payment=${checkout.paymentId}&checkout=success`);
    const first = await usage(token);
    expect(first.plan.id).toBe("pro");
    expect(first.usage.totalAvailable).toBe(10000);
    await openPending(userId, 1500);
    const renew = await call(`/dev/subscriptions/sub_local_${checkout.paymentId}/renew`, { method: "POST" });
    expect((await body(renew)).data).toMatchObject({ applied: true });
    const next = await usage(token);
    // The next period starts where the first ended, with the allowance less what the open job holds.
    expect(Date.parse(next.usage.currentPeriodEnd)).toBeGreaterThan(Date.parse(first.usage.currentPeriodEnd));
    expect(next.usage).toMatchObject({ monthlyRemaining: 8500, totalAvailable: 8500 });
    expect((await call("/dev/subscriptions/sub_nobody/renew", { method: "POST" })).status).toBe(404);
  });

  it.each([
    [{ tokens: 999 }, "tokens"],
    [{ tokens: 1500 }, "tokens"],
    [{ tokens: 2_000_000 }, "tokens"],
    [{ tokens: "1000" }, "tokens"],
    [{}, "tokens"],
  ])("refuses checkout %j", async (payload, field) => {
    const { token, userId } = await signUp();
    const res = await call("/api/v1/billing/checkout", bearer(token, json("POST", payload)));
    expect(res.status).toBe(400);
    expect(((await body(res)).details!.errors as { field: string }[])[0]!.field).toBe(field);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM payments WHERE user_id = ?")
      .bind(userId)
      .first<{ n: number }>();
    expect(count!.n).toBe(0);
  });
});

describe("the provider webhook", () => {
  it("refuses unsigned, forged and stale deliveries without changing anything", async () => {
    const { token } = await signUp();
    const { sessionId } = await buy(token, 1000);
    const payload = JSON.stringify({
      id: "evt_x",
      object: "event",
      type: "checkout.session.completed",
      data: { object: paid(sessionId) },
    });
    const post = (headers: Record<string, string>) =>
      call("/api/v1/billing/webhook", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: payload,
      });
    expect((await post({})).status).toBe(400);
    const forged = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: "whsec_not_ours" });
    const res = await post({ "stripe-signature": forged });
    expect(res.status).toBe(400);
    expect(await body(res)).toMatchObject({ success: false, error: "Invalid webhook signature" });
    const stale = await Stripe.webhooks.generateTestHeaderStringAsync({
      payload,
      secret: env.STRIPE_WEBHOOK_SECRET!,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect((await post({ "stripe-signature": stale })).status).toBe(400);
    expect((await usage(token)).usage.prepaidBalance).toBe(0);
  });

  it("ignores sessions it does not know and unpaid ones", async () => {
    const { token } = await signUp();
    const { sessionId } = await buy(token, 1000);
    expect(
      (await body(await delivery("checkout.session.completed", paid("cs_someone_else")))).data,
    ).toMatchObject({ applied: false });
    const unpaid = { ...paid(sessionId), payment_status: "unpaid" };
    expect((await body(await delivery("checkout.session.completed", unpaid))).data).toMatchObject({
      applied: false,
    });
    expect((await body(await delivery("checkout.session.expired", { ...unpaid }))).data).toMatchObject({
      applied: true,
    });
    // An expired session can no longer be paid.
    expect((await body(await delivery("checkout.session.completed", paid(sessionId)))).data).toMatchObject({
      applied: false,
    });
    expect((await usage(token)).usage.prepaidBalance).toBe(0);
  });

  it("refuses an oversized delivery with 413", async () => {
    const res = await call("/api/v1/billing/webhook", {
      method: "POST",
      headers: { "stripe-signature": "t=1,v1=x" },
      body: "x".repeat(70_000),
    });
    expect(res.status).toBe(413);
  });
});

describe("plan changes", () => {
  it("upgrades when the new subscription's first invoice is paid, not on the checkout's completion alone", async () => {
    const { token, userId } = await signUp();
    const change = await call("/api/v1/billing/plan", bearer(token, json("POST", { planId: "pro" })));
    const data = (await body<{ status: string; checkout: Checkout }>(change)).data!;
    expect(v.parse(PlanChangeResult, data).status).toBe("payment_required");
    expect(data.checkout.amountCents).toBe(2900);
    const metadata = { paymentId: data.checkout.paymentId, userId, planId: "pro" };
    const completed = await delivery("checkout.session.completed", {
      ...paid(data.checkout.sessionId, `cus_${userId}`),
      mode: "subscription",
      subscription: `sub_${userId}`,
      metadata,
    });
    expect((await body(completed)).data).toMatchObject({ applied: true });
    expect((await usage(token)).plan.id).toBe("free");
    const first = invoice({
      subscription: `sub_${userId}`,
      customer: `cus_${userId}`,
      metadata,
      start: Date.now(),
    });
    expect((await body(await delivery("invoice.paid", first))).data).toMatchObject({ applied: true });
    const u = await usage(token);
    expect(u.plan.id).toBe("pro");
    expect(u.usage).toMatchObject({ monthlyQuota: 10000, monthlyRemaining: 10000, totalAvailable: 10000 });
    expect(Date.parse(String(u.usage.currentPeriodEnd))).toBe(first.lines.data[0]!.period.end * 1000);
  });

  it("schedules a downgrade for the period's end; the owner may cancel their own", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "business");
    const down = await body<{ status: string; pendingPlan: PendingPlan }>(
      await call("/api/v1/billing/plan", bearer(token, json("POST", { planId: "free" }))),
    );
    expect(down.data).toMatchObject({
      status: "scheduled",
      pendingPlan: { id: "free", reason: "requested", cancellable: true },
    });
    expect(Date.parse(down.data!.pendingPlan.effectiveAt)).toBe(sub.end);
    expect((await usage(token)).plan.id).toBe("business");
    const keep = await body(
      await call("/api/v1/billing/plan", bearer(token, json("POST", { planId: "business" }))),
    );
    expect(keep.data).toMatchObject({ status: "unchanged", pendingPlan: null });
    expect((await usage(token)).pendingPlan).toBeNull();
  });

  it("refuses an unknown plan and the plan already held", async () => {
    const { token } = await signUp();
    const unknown = await call("/api/v1/billing/plan", bearer(token, json("POST", { planId: "platinum" })));
    expect(unknown.status).toBe(404);
    const same = await call("/api/v1/billing/plan", bearer(token, json("POST", { planId: "free" })));
    expect(same.status).toBe(400);
    expect((await body(same)).error).toBe("The account is already on the Free plan");
  });
});

describe("billing of other accounts", () => {
  it("hides payments and usage of another account (404 / own data only)", async () => {
    const a = await signUp();
    const b = await signUp();
    const { paymentId } = await buy(a.token, 1000);
    expect((await call(`/api/v1/billing/payments/${paymentId}`, bearer(b.token))).status).toBe(404);
    expect((await usage(b.token)).usage.prepaidBalance).toBe(0);
    const history = await body<{ entries: unknown[] }>(await call("/api/v1/billing/ledger", bearer(b.token)));
    expect(history.data!.entries).toHaveLength(1);
  });
});
