/**
 * A renewal grants the plan its invoice paid for (issue 42, finding 1). Stripe draws a renewal invoice when the
 * period ends, at the price the subscription bills then, and charges it later (much later while a card is
 * retried). The plan comes from that invoice's subscription line (its price, which names the plan), never from the
 * account or the subscription's metadata; and between the period's end and the renewal's payment the plan cannot be
 * changed, since the invoice being settled no longer follows it. Signed test events (the SDK's helper, the real
 * secret) through the real webhook; after each: the plan, the balance, the ledger and the plan history.
 */
import { env } from "cloudflare:workers";
import { createScheduledController } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import worker from "../../../src/index.ts";
import { priceOfPlan } from "../../../src/billing/plan-prices.ts";
import { getPlan } from "../../../src/billing/plans.ts";
import { call, json, testCtx } from "../helpers.ts";
import { bearer, body, signUp } from "./sign-up.ts";
import {
  accountRow,
  applied,
  DAY,
  endPaidPeriod,
  invoice,
  ledgerRows,
  MONTH,
  planHistory,
  priceOf,
  stripeRecorder,
  subscribe,
  subscription,
} from "./stripe-events.ts";

const postPlan = (token: string, planId: string) =>
  call("/api/v1/billing/plan", bearer(token, json("POST", { planId })));

/** The cron's renewal run alone (the monthly trigger), at `at`. */
const cron = (at: number) =>
  worker.scheduled(createScheduledController({ scheduledTime: at, cron: "0 0 1 * *" }), env);

/** A Business plan whose owner scheduled a downgrade to Pro: the subscription bills Pro from the next period. */
const businessGoingPro = async () => {
  const { token, userId } = await signUp();
  const sub = await subscribe(token, userId, "business");
  const down = await postPlan(token, "pro");
  expect(down.status).toBe(200);
  expect((await body(down)).data).toMatchObject({ status: "scheduled", pendingPlan: { id: "pro" } });
  return { token, userId, sub };
};

describe("a renewal grants the plan its invoice paid for", () => {
  it("cannot cancel a downgrade once the period has ended: the renewal drawn at Pro's price gives Pro", async () => {
    const { token, userId, sub } = await businessGoingPro();
    const end = await endPaidPeriod(userId);
    // The renewal was drawn at the period's end at Pro's price; it is not paid yet.
    const cancel = await postPlan(token, "business");
    expect(cancel.status).toBe(409);
    const refused = await body(cancel);
    expect(refused.error).toMatch(
      /^The period ended on .*: its renewal is not paid yet, and the plan it bills was set when it ended; the plan can change again once it is paid$/,
    );
    expect(refused.details).toMatchObject({ currentPeriodEnd: new Date(end).toISOString() });
    expect((await postPlan(token, "free")).status).toBe(409);
    expect(await accountRow(userId)).toMatchObject({
      plan: "business",
      pending: "pro",
      pendingReason: "requested",
    });

    const renewal = invoice({
      subscription: sub.subscriptionId,
      customer: sub.customer,
      start: end,
      plan: "pro",
    });
    expect(await applied("invoice.paid", renewal)).toBe(true);
    expect(await accountRow(userId)).toMatchObject({
      plan: "pro",
      pending: null,
      balance: 10000,
      periodEnd: end + MONTH,
    });
    expect((await planHistory(userId)).at(-1)).toEqual(["business", "pro", "requested"]);
    // Settled: the owner may change plans again (back to Business is a new purchase).
    expect((await body(await postPlan(token, "business"))).data).toMatchObject({
      status: "payment_required",
    });
  });

  it("takes the plan from the invoice's price, not the account's: Pro's price paid on a Business plan gives Pro", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "business");
    // The subscription's price was changed elsewhere (a dashboard, a race at the period's end): no pending move here.
    const renewal = invoice({
      subscription: sub.subscriptionId,
      customer: sub.customer,
      start: sub.end,
      plan: "pro",
    });
    expect(await applied("invoice.paid", renewal)).toBe(true);
    expect(await accountRow(userId)).toMatchObject({ plan: "pro", pending: null, balance: 10000 });
    expect((await ledgerRows(userId)).at(-1)).toEqual(["expire", -90000, 0]);
    expect((await planHistory(userId)).at(-1)).toEqual(["business", "pro", "billed"]);
    const usage = await body<{ lastPlanChange: { reason: string; message: string } }>(
      await call("/api/v1/billing/usage", bearer(token)),
    );
    expect(usage.data!.lastPlanChange).toMatchObject({
      reason: "billed",
      message: "the renewal invoice was for this plan",
    });
    expect(await applied("invoice.payment_succeeded", renewal)).toBe(false);
  });

  it("keeps a downgrade asked for after the invoice was drawn: the Business invoice gives Business, Pro comes next", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "business");
    expect((await postPlan(token, "pro")).status).toBe(200);
    const renewal = invoice({
      subscription: sub.subscriptionId,
      customer: sub.customer,
      start: sub.end,
      plan: "business",
    });
    expect(await applied("invoice.paid", renewal)).toBe(true);
    expect(await accountRow(userId)).toMatchObject({ plan: "business", pending: "pro", balance: 100000 });
    const next = invoice({
      subscription: sub.subscriptionId,
      customer: sub.customer,
      start: sub.end + MONTH,
    });
    expect(await applied("invoice.paid", next)).toBe(true);
    expect(await accountRow(userId)).toMatchObject({ plan: "pro", pending: null, balance: 10000 });
  });

  it("takes a new subscription's plan from its first invoice, not from the checkout's metadata", async () => {
    const { token, userId } = await signUp();
    const pro = await subscribe(token, userId, "pro");
    // Business bought, but its first invoice bills Pro's price: it is not an upgrade.
    const checkout = await body<{ checkout: { paymentId: string } }>(await postPlan(token, "business"));
    const metadata = { paymentId: checkout.data!.checkout.paymentId, userId, planId: "business" };
    const first = invoice({
      subscription: `sub_second_${userId}`,
      customer: pro.customer,
      metadata,
      start: Date.now(),
      plan: "pro",
    });
    expect(await applied("invoice.paid", { ...first, billing_reason: "subscription_create" })).toBe(false);
    expect(await accountRow(userId)).toMatchObject({
      plan: "pro",
      subscription: pro.subscriptionId,
      balance: 10000,
    });
  });

  it("reads the plan of a price it did not make from the provider: the price's or its product's metadata, else (prices made before plans had their own) its amount", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "business");
    const stripe = stripeRecorder({
      price_dashboard: {
        unit_amount: 19900,
        currency: "usd",
        metadata: {},
        product: { id: "prod_x", object: "product", metadata: { planId: "pro" } },
      },
      price_inline: {
        unit_amount: 2900,
        currency: "usd",
        metadata: {},
        product: { id: "prod_y", metadata: {} },
      },
      price_other: {
        unit_amount: 4200,
        currency: "usd",
        metadata: {},
        product: { id: "prod_z", metadata: {} },
      },
    });
    const renewal = (start: number, price: string) =>
      invoice({ subscription: sub.subscriptionId, customer: sub.customer, start, price });
    // The product names Pro (its amount is not what decides).
    expect(await stripe.deliverToStripe("invoice.paid", renewal(sub.end, "price_dashboard"))).toBe(true);
    expect(await accountRow(userId)).toMatchObject({ plan: "pro", balance: 10000 });
    // No metadata at all: Pro's amount.
    expect(await stripe.deliverToStripe("invoice.paid", renewal(sub.end + MONTH, "price_inline"))).toBe(true);
    // Neither: nothing.
    const other = renewal(sub.end + 2 * MONTH, "price_other");
    expect(await stripe.deliverToStripe("invoice.paid", other)).toBe(false);
    expect(stripe.sent.filter((r) => r.path.startsWith("/v1/prices/")).map((r) => r.path)).toEqual([
      "/v1/prices/price_dashboard",
      "/v1/prices/price_inline",
      "/v1/prices/price_other",
    ]);
    // What it read is recorded: the next invoice of that price asks nothing.
    const recorded = await env.DB.prepare(
      "SELECT price_id AS price, plan_id AS plan, origin FROM plan_prices WHERE price_id IN ('price_dashboard', 'price_inline', 'price_other') ORDER BY price_id",
    ).all();
    expect(recorded.results).toEqual([
      { price: "price_dashboard", plan: "pro", origin: "read" },
      { price: "price_inline", plan: "pro", origin: "read" },
    ]);
    // Never billed anew: Pro's checkouts and plan changes bill the price made for it.
    expect(await priceOfPlan(testCtx(), await getPlan(testCtx(), "pro"))).toBe(priceOf("pro"));
    const again = stripeRecorder();
    expect(await again.deliverToStripe("invoice.paid", renewal(sub.end + 3 * MONTH, "price_dashboard"))).toBe(
      true,
    );
    expect(again.sent.filter((r) => r.path.startsWith("/v1/prices/"))).toEqual([]);
  });

  it("grants nothing for an invoice whose line bills a price that names no plan", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "pro");
    const before = { account: await accountRow(userId), ledger: await ledgerRows(userId) };
    const unknown = invoice({
      subscription: sub.subscriptionId,
      customer: sub.customer,
      start: sub.end,
      price: "price_not_ours",
    });
    expect(await applied("invoice.paid", unknown)).toBe(false);
    expect({ account: await accountRow(userId), ledger: await ledgerRows(userId) }).toEqual(before);
    const recorded = await env.DB.prepare(
      "SELECT granted, plan_id AS plan FROM subscription_invoices WHERE id = ?",
    )
      .bind(unknown.id)
      .first();
    expect(recorded).toEqual({ granted: 0, plan: null });
  });
});

/** What happens in the window between the period's end and the renewal's payment, in any order. */
const STEPS = [
  "cancel downgrade",
  "ask for pro again",
  "payment failed, retry left",
  "invoice.paid",
  "invoice.payment_succeeded",
  "invoice_payment.paid",
  "subscription past_due",
  "subscription active",
  "cron",
] as const;
type Step = (typeof STEPS)[number];

describe("the renewal window, every order of its events", () => {
  it("ends on Pro with Pro's allowance whatever the order, replays included; Business is never granted for Pro's price", async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray([...STEPS], { minLength: STEPS.length }),
        fc.array(fc.constantFrom(...STEPS), { maxLength: 3 }),
        async (order, replays) => {
          runs++;
          const { token, userId, sub } = await businessGoingPro();
          const end = await endPaidPeriod(userId);
          const renewal = invoice({
            id: `in_renewal_${userId}`,
            subscription: sub.subscriptionId,
            customer: sub.customer,
            start: end,
            plan: "pro",
            paymentIntent: `pi_renewal_${userId}`,
          });
          let renewed = false;
          const step: Record<Step, () => Promise<void>> = {
            "cancel downgrade": async () => {
              // Refused until the renewal is paid; then it is a new purchase, never a way back to Business.
              const res = await postPlan(token, "business");
              const answer = await body<{ status: string }>(res);
              expect([res.status, answer.data?.status]).toEqual(
                renewed ? [200, "payment_required"] : [409, undefined],
              );
            },
            "ask for pro again": async () => {
              expect((await postPlan(token, "pro")).status).toBe(renewed ? 400 : 409);
            },
            "payment failed, retry left": async () => {
              const failed = { ...renewal, status: "open", amount_paid: 0 };
              const retry = { ...failed, next_payment_attempt: Math.floor((Date.now() + 3 * DAY) / 1000) };
              expect(await applied("invoice.payment_failed", retry)).toBe(false);
            },
            "invoice.paid": async () => {
              expect(await applied("invoice.paid", renewal)).toBe(!renewed);
              renewed = true;
            },
            "invoice.payment_succeeded": async () => {
              expect(await applied("invoice.payment_succeeded", renewal)).toBe(!renewed);
              renewed = true;
            },
            "invoice_payment.paid": async () => {
              await applied("invoice_payment.paid", {
                object: "invoice_payment",
                invoice: renewal.id,
                payment: { type: "payment_intent", payment_intent: `pi_renewal_${userId}` },
              });
            },
            "subscription past_due": async () => {
              const pastDue = subscription({
                id: sub.subscriptionId,
                customer: sub.customer,
                status: "past_due",
              });
              expect(await applied("customer.subscription.updated", pastDue)).toBe(false);
            },
            "subscription active": async () => {
              const active = subscription({
                id: sub.subscriptionId,
                customer: sub.customer,
                status: "active",
              });
              expect(await applied("customer.subscription.updated", active)).toBe(false);
            },
            cron: async () => {
              // The period's end: Business's leftover expires, the plan waits for its paid renewal.
              await cron(Date.now());
              expect(await accountRow(userId)).toMatchObject(
                renewed ? { plan: "pro", balance: 10000 } : { plan: "business", balance: 0 },
              );
            },
          };
          for (const s of [...order, ...replays]) await step[s]();
          expect(await accountRow(userId)).toMatchObject({
            plan: "pro",
            pending: null,
            subscription: sub.subscriptionId,
            balance: 10000,
            owed: 0,
            periodEnd: end + MONTH,
          });
          expect(await planHistory(userId)).toEqual([
            ["free", "business", "upgrade"],
            ["business", "pro", "requested"],
          ]);
          // Business's allowance came once, with its own paid invoice; nothing else granted more than Pro's.
          const grants = (await ledgerRows(userId)).filter(([kind]) => kind === "grant");
          expect(grants.slice(2).every(([, amount]) => (amount as number) <= 10000)).toBe(true);
        },
      ),
      { numRuns: 10 },
    );
    expect(runs).toBe(10);
    // About a second a run on an idle machine: room for one ten times slower.
  }, 120_000);
});
