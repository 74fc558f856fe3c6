/**
 * An upgrade credits no more of the old plan than was left of it (issue 42, finding 2): the old subscription ends
 * without the provider's proration, and the customer is credited the old period's payment times the smaller of the
 * unused share of its time and of its allowance. A Pro allowance spent and upgraded the same day credits nothing.
 * The upgrade's first invoice is handed to the webhook verb with the Stripe provider over a recorded network, so
 * the test reads the requests Stripe's API would receive; the rest of the story goes through the real webhook.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { finishJob } from "../../../src/jobs/lifecycle.ts";
import { call, json, testCtx } from "../helpers.ts";
import { openPending } from "../jobs-seed.ts";
import { bearer, body, signUp } from "./sign-up.ts";
import {
  accountRow,
  applied,
  DAY,
  endPaidPeriod,
  invoice,
  MONTH,
  planHistory,
  startUpgrade,
  stripeRecorder,
  subscribe,
  type StripeRequest,
} from "./stripe-events.ts";

/** Runs a job to completion at `cost` (the lifecycle's own settlement). */
const spend = async (userId: string, cost: number) => {
  const id = await openPending(userId, cost);
  const job = (await testCtx().db.query.jobs.findFirst({ where: (j, { eq }) => eq(j.id, id) }))!;
  await finishJob(testCtx(), job, { status: "COMPLETED", outputFileId: "file_x", cost });
};

/** A plan bought while another is paid: its checkout, then its first invoice handed to the Stripe provider. */
const upgradeThroughStripe = async (token: string, userId: string, planId: string, customer: string) => {
  const checkout = await startUpgrade(token, planId);
  const subscriptionId = `sub_${planId}_${Math.random().toString(36).slice(2, 10)}`;
  const metadata = { paymentId: checkout.paymentId, userId, planId };
  const first = invoice({
    subscription: subscriptionId,
    customer,
    metadata,
    start: Date.now(),
    plan: planId,
  });
  const stripe = stripeRecorder();
  expect(
    await stripe.deliverToStripe("invoice.paid", { ...first, billing_reason: "subscription_create" }),
  ).toBe(true);
  return { subscriptionId, customer, end: first.lines.data[0]!.period.end * 1000, sent: stripe.sent };
};

const credited = async (subscriptionId: string) =>
  (await env.DB.prepare(
    "SELECT status, ended_reason AS reason, credited_cents AS cents FROM subscriptions WHERE id = ?",
  )
    .bind(subscriptionId)
    .first<{ status: string; reason: string; cents: number | null }>())!;

/** The requests that end `subscriptionId` and credit `customer`, in the order sent. */
const endingOf = (sent: StripeRequest[], subscriptionId: string, customer: string) =>
  sent
    .filter(
      (r) =>
        r.path === `/v1/subscriptions/${subscriptionId}` ||
        r.path === `/v1/customers/${customer}/balance_transactions`,
    )
    .map((r) => ({ method: r.method, path: r.path, form: r.form }));

describe("an upgrade credits only what was left of the old plan", () => {
  it("credits nothing for a Pro allowance spent before upgrading the same day", async () => {
    const { token, userId } = await signUp();
    const pro = await subscribe(token, userId, "pro");
    await spend(userId, 10000);
    const business = await upgradeThroughStripe(token, userId, "business", pro.customer);
    expect(await accountRow(userId)).toMatchObject({ plan: "business", balance: 100000 });
    expect(endingOf(business.sent, pro.subscriptionId, pro.customer)).toEqual([
      {
        method: "DELETE",
        path: `/v1/subscriptions/${pro.subscriptionId}`,
        form: { invoice_now: "false", prorate: "false" },
      },
    ]);
    expect(await credited(pro.subscriptionId)).toEqual({ status: "ended", reason: "replaced", cents: 0 });
  });

  it("credits the unused share of the allowance when less of it is left than of the time", async () => {
    const { token, userId } = await signUp();
    const pro = await subscribe(token, userId, "pro");
    // A quarter spent, a job holding another 1000 (it is charged to the new plan's period when it ends).
    await spend(userId, 2500);
    await openPending(userId, 1000);
    const business = await upgradeThroughStripe(token, userId, "business", pro.customer);
    // 7500 of 10000 unused (the open job's 1000 included), the period all but whole: 75 % of 29.00.
    const credit = Math.floor((2900 * 7500) / 10000);
    expect(endingOf(business.sent, pro.subscriptionId, pro.customer)).toEqual([
      {
        method: "DELETE",
        path: `/v1/subscriptions/${pro.subscriptionId}`,
        form: { invoice_now: "false", prorate: "false" },
      },
      {
        method: "POST",
        path: `/v1/customers/${pro.customer}/balance_transactions`,
        form: expect.objectContaining({
          amount: String(-credit),
          currency: "usd",
          "metadata[subscriptionId]": pro.subscriptionId,
        }),
      },
    ]);
    expect(await credited(pro.subscriptionId)).toMatchObject({ cents: credit });
    // The open job holds 1000 of the new period's allowance.
    expect(await accountRow(userId)).toMatchObject({ plan: "business", balance: 99000 });
  });

  it("credits the unused share of the time when less of it is left than of the allowance", async () => {
    const { token, userId } = await signUp();
    // Paid 20 days ago for 30 days, nothing spent: a third of the period is left.
    const pro = await subscribe(token, userId, "pro", { start: Date.now() - 20 * DAY });
    const before = Date.now();
    const business = await upgradeThroughStripe(token, userId, "business", pro.customer);
    const after = Date.now();
    const cents = (await credited(pro.subscriptionId)).cents!;
    expect(cents).toBeGreaterThanOrEqual(Math.floor((2900 * (pro.end - after)) / MONTH));
    expect(cents).toBeLessThanOrEqual(Math.floor((2900 * (pro.end - before)) / MONTH));
    expect(cents).toBeLessThan(2900 / 3 + 1);
    const creditRequest = business.sent.find((r) => r.path.endsWith("/balance_transactions"));
    expect(creditRequest?.form.amount).toBe(String(-cents));
  });

  it("credits nothing while the old period's renewal is unpaid: its time is over", async () => {
    const { token, userId } = await signUp();
    const pro = await subscribe(token, userId, "pro");
    await endPaidPeriod(userId);
    const business = await upgradeThroughStripe(token, userId, "business", pro.customer);
    expect(await accountRow(userId)).toMatchObject({ plan: "business", balance: 100000 });
    expect(endingOf(business.sent, pro.subscriptionId, pro.customer)).toEqual([
      expect.objectContaining({ method: "DELETE", form: { invoice_now: "false", prorate: "false" } }),
    ]);
    expect(await credited(pro.subscriptionId)).toMatchObject({ cents: 0 });
  });

  it("credits each cycle of downgrade and upgrade by what its own period left", async () => {
    const { token, userId } = await signUp();
    const pro = await subscribe(token, userId, "pro");
    await spend(userId, 10000);
    // Up to Business with Pro spent: nothing credited.
    const business = await upgradeThroughStripe(token, userId, "business", pro.customer);
    expect(await credited(pro.subscriptionId)).toMatchObject({ cents: 0 });
    // Down to Pro: the renewal bills Pro (the period ended an hour ago; its invoice was drawn then).
    const down = await call("/api/v1/billing/plan", bearer(token, json("POST", { planId: "pro" })));
    expect((await body(down)).data).toMatchObject({ status: "scheduled" });
    const end = await endPaidPeriod(userId);
    const renewal = invoice({
      subscription: business.subscriptionId,
      customer: pro.customer,
      start: end,
      plan: "pro",
    });
    expect(await applied("invoice.paid", renewal)).toBe(true);
    expect(await accountRow(userId)).toMatchObject({ plan: "pro", balance: 10000 });
    // 40 % of the renewed Pro period spent, then up again: 60 % of what that renewal paid, not of Business's price.
    await spend(userId, 4000);
    const again = await upgradeThroughStripe(token, userId, "business", pro.customer);
    const credit = Math.floor((2900 * 6000) / 10000);
    expect(await credited(business.subscriptionId)).toEqual({
      status: "ended",
      reason: "replaced",
      cents: credit,
    });
    expect(endingOf(again.sent, business.subscriptionId, pro.customer).map((r) => r.form.amount)).toEqual([
      undefined,
      String(-credit),
    ]);
    expect(await accountRow(userId)).toMatchObject({ plan: "business", balance: 100000 });
    expect(await planHistory(userId)).toEqual([
      ["free", "pro", "upgrade"],
      ["pro", "business", "upgrade"],
      ["business", "pro", "requested"],
      ["pro", "business", "upgrade"],
    ]);
  });
});
