/**
 * Paid plans follow the provider's subscription lifecycle, driven through the real webhook with events signed by
 * the Stripe SDK's test helper: a period's allowance comes only with its paid invoice (once per invoice), the
 * calendar renews only the free plan, upgrades start a new paid period, the provider's endings move the account to
 * the free plan at once with the reason recorded, and only a downgrade the owner asked for can be cancelled.
 * After each event: the plan, the balance and the ledger rows.
 */
import { env } from "cloudflare:workers";
import { createScheduledController } from "cloudflare:test";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import worker from "../../../src/index.ts";
import { periodEnd } from "../../../src/ledger/periods.ts";
import { CurrentPlan } from "../../../src/billing/schemas.ts";
import { finishJob } from "../../../src/jobs/lifecycle.ts";
import { call, json, testCtx } from "../helpers.ts";
import { openPending } from "../jobs-seed.ts";
import { bearer, body, signUp } from "./sign-up.ts";
import {
  accountRow,
  applied,
  DAY,
  invoice,
  ledgerRows,
  planHistory,
  subscribe,
  subscription,
} from "./stripe-events.ts";

const usage = async (token: string) =>
  v.parse(CurrentPlan, (await body(await call("/api/v1/billing/usage", bearer(token)))).data);

const cron = (at: number) =>
  worker.scheduled(createScheduledController({ scheduledTime: at, cron: "*/5 * * * *" }), env);

/** The monthly trigger: only the renewals (no sweep of stuck jobs, which would end a test's open job). */
const renewalCron = (at: number) =>
  worker.scheduled(createScheduledController({ scheduledTime: at, cron: "0 0 1 * *" }), env);

const postPlan = (token: string, planId: string) =>
  call("/api/v1/billing/plan", bearer(token, json("POST", { planId })));

/** Runs a job to completion at `cost` (its reserve released, its cost charged: the lifecycle's own settlement). */
const spend = async (userId: string, reserve: number, cost: number) => {
  const id = await openPending(userId, reserve);
  const job = (await testCtx().db.query.jobs.findFirst({ where: (j, { eq }) => eq(j.id, id) }))!;
  await finishJob(testCtx(), job, { status: "COMPLETED", outputFileId: "file_x", cost });
};

/** A pack of `tokens` prepaid tokens bought and paid. */
const buyPack = async (token: string, userId: string, tokens = 1000) => {
  const res = await call("/api/v1/billing/checkout", bearer(token, json("POST", { tokens })));
  const { sessionId } = (await body<{ sessionId: string }>(res)).data!;
  const completed = {
    id: sessionId,
    object: "checkout.session",
    mode: "payment",
    payment_status: "paid",
    customer: `cus_${userId}`,
    payment_intent: `pi_pack_${sessionId}`,
    metadata: {},
  };
  expect(await applied("checkout.session.completed", completed)).toBe(true);
};

const subscriptionStatus = async (id: string) =>
  env.DB.prepare("SELECT status, ended_reason AS reason FROM subscriptions WHERE id = ?")
    .bind(id)
    .first<{ status: string; reason: string | null }>();

describe("a paid period's allowance comes with its paid invoice", () => {
  it("applies a new plan with its first paid invoice: a new period, the plan's full allowance", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "pro");
    expect(await accountRow(userId)).toMatchObject({
      plan: "pro",
      subscription: sub.subscriptionId,
      balance: 10000,
      periodEnd: sub.end,
      owed: 0,
    });
    expect(await ledgerRows(userId)).toEqual([
      ["grant", 500, 0],
      ["grant", 9500, 0],
    ]);
    expect(await planHistory(userId)).toEqual([["free", "pro", "upgrade"]]);
    expect((await usage(token)).lastPlanChange).toMatchObject({ from: "free", to: "pro", reason: "upgrade" });
  });

  it("works whichever comes first: the first invoice or the checkout's own event", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "pro", { order: "invoice-first" });
    expect(await accountRow(userId)).toMatchObject({ plan: "pro", subscription: sub.subscriptionId });
    const customer = await env.DB.prepare("SELECT payment_customer_id AS c FROM users WHERE id = ?")
      .bind(userId)
      .first<{ c: string }>();
    expect(customer!.c).toBe(sub.customer);
    const payment = await body(await call(`/api/v1/billing/payments/${sub.paymentId}`, bearer(token)));
    expect(payment.data).toMatchObject({ status: "paid", kind: "plan", planId: "pro" });
    expect(await ledgerRows(userId)).toEqual([
      ["grant", 500, 0],
      ["grant", 9500, 0],
    ]);
  });

  it("renews with the next period's paid invoice, once: replays and its twin event change nothing", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "pro");
    await spend(userId, 3000, 2000);
    expect((await accountRow(userId))!.balance).toBe(8000);
    const next = invoice({ subscription: sub.subscriptionId, customer: sub.customer, start: sub.end });
    expect(await applied("invoice.paid", next)).toBe(true);
    const renewed = await accountRow(userId);
    expect(renewed).toMatchObject({
      plan: "pro",
      balance: 10000,
      periodEnd: next.lines.data[0]!.period.end * 1000,
    });
    const rows = await ledgerRows(userId);
    expect(rows.at(-1)).toEqual(["grant", 2000, 0]);
    // Stripe sends invoice.payment_succeeded for the same invoice; deliveries repeat; an older invoice comes late.
    expect(await applied("invoice.payment_succeeded", next)).toBe(false);
    expect(await applied("invoice.paid", next)).toBe(false);
    expect(
      await applied(
        "invoice.paid",
        invoice({ subscription: sub.subscriptionId, customer: sub.customer, start: Date.now() }),
      ),
    ).toBe(false);
    expect(await accountRow(userId)).toEqual(renewed);
    expect(await ledgerRows(userId)).toEqual(rows);
  });

  it("never renews a paid plan by the calendar: an upgrade mid-month gets no second allowance on the 1st", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "pro");
    await spend(userId, 1000, 1000);
    const rows = await ledgerRows(userId);
    // The calendar month ends (the free plan's renewal): nothing moves.
    await cron(Math.min(periodEnd(Date.now()), sub.end) - 60_000);
    expect(await accountRow(userId)).toMatchObject({ plan: "pro", balance: 9000, periodEnd: sub.end });
    expect(await ledgerRows(userId)).toEqual(rows);
    // The paid period itself ends with no paid invoice: nothing is granted (what was left expires, below).
    await cron(sub.end + 60_000);
    expect(await accountRow(userId)).toMatchObject({ plan: "pro", balance: 0, periodEnd: sub.end });
    expect((await ledgerRows(userId)).filter(([kind]) => kind === "grant")).toEqual(
      rows.filter(([kind]) => kind === "grant"),
    );
  });

  it("expires what is left of a paid period at its end while the renewal is unpaid; the paid renewal brings the new allowance", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "pro");
    await buyPack(token, userId);
    await spend(userId, 1000, 1000);
    // A job holds 500 of the period's allowance across its end.
    const running = await openPending(userId, 500);
    await renewalCron(sub.end - 60_000);
    expect(await accountRow(userId)).toMatchObject({ plan: "pro", balance: 9500, prepaid: 1000 });
    await renewalCron(sub.end + 60_000);
    // The 8500 left expire; prepaid tokens stay; the plan stays while the provider collects the renewal.
    expect(await accountRow(userId)).toMatchObject({
      plan: "pro",
      balance: 1000,
      prepaid: 1000,
      periodEnd: sub.end,
    });
    expect((await ledgerRows(userId)).at(-1)).toEqual(["expire", -8500, 0]);
    await renewalCron(sub.end + 120_000);
    expect((await ledgerRows(userId)).at(-1)).toEqual(["expire", -8500, 0]);
    // The job ends after the period (charged 100): what it gives back of the old period expires too.
    const job = (await testCtx().db.query.jobs.findFirst({ where: (j, { eq }) => eq(j.id, running) }))!;
    await finishJob(testCtx(), job, { status: "COMPLETED", outputFileId: "file_x", cost: 100 });
    expect(await accountRow(userId)).toMatchObject({ balance: 1400 });
    await renewalCron(sub.end + 180_000);
    expect(await accountRow(userId)).toMatchObject({ balance: 1000, prepaid: 1000 });
    // The renewal is paid: the new period starts with the full allowance.
    const next = invoice({ subscription: sub.subscriptionId, customer: sub.customer, start: sub.end });
    expect(await applied("invoice.paid", next)).toBe(true);
    expect(await accountRow(userId)).toMatchObject({ plan: "pro", balance: 11000, prepaid: 1000 });
    expect((await ledgerRows(userId)).at(-1)).toEqual(["grant", 10000, 0]);
  });

  it("keeps the free plan's calendar renewal", async () => {
    const { userId } = await signUp();
    await env.DB.prepare("UPDATE users SET current_period_end = ?2 WHERE id = ?1")
      .bind(userId, Date.now() - 1)
      .run();
    await spend(userId, 100, 100);
    const at = Date.now() + 1000;
    await cron(at);
    expect(await accountRow(userId)).toMatchObject({ plan: "free", balance: 500, periodEnd: periodEnd(at) });
    expect((await ledgerRows(userId)).at(-1)).toEqual(["grant", 100, 0]);
  });

  it("lets a paid plan with no paid invoice lapse to free 30 days after its period", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "pro");
    await cron(sub.end + 29 * DAY);
    expect(await accountRow(userId)).toMatchObject({ plan: "pro", balance: 0 });
    const at = sub.end + 31 * DAY;
    await cron(at);
    expect(await accountRow(userId)).toMatchObject({
      plan: "free",
      subscription: null,
      balance: 500,
      periodEnd: periodEnd(at),
    });
    expect((await ledgerRows(userId)).slice(-2)).toEqual([
      ["expire", -10000, 0],
      ["grant", 500, 0],
    ]);
    expect(await planHistory(userId)).toEqual([
      ["free", "pro", "upgrade"],
      ["pro", "free", "lapsed"],
    ]);
    expect(await subscriptionStatus(sub.subscriptionId)).toEqual({ status: "ended", reason: "lapsed" });
    // Its invoice paid after all, late: the subscription is over; nothing comes back.
    expect(
      await applied(
        "invoice.paid",
        invoice({ subscription: sub.subscriptionId, customer: sub.customer, start: sub.end }),
      ),
    ).toBe(false);
    expect((await accountRow(userId))!.plan).toBe("free");
  });
});

describe("upgrades and downgrades", () => {
  it("upgrades mid-period by starting a new paid period: the old subscription ends, its leftover expires", async () => {
    const { token, userId } = await signUp();
    const pro = await subscribe(token, userId, "pro");
    await spend(userId, 4000, 4000);
    const business = await subscribe(token, userId, "business", { customer: pro.customer });
    expect(await accountRow(userId)).toMatchObject({
      plan: "business",
      subscription: business.subscriptionId,
      balance: 100000,
      periodEnd: business.end,
    });
    // 6000 left of pro's allowance: the new period starts at business's 100000.
    expect((await ledgerRows(userId)).at(-1)).toEqual(["grant", 94000, 0]);
    expect(await subscriptionStatus(pro.subscriptionId)).toEqual({ status: "ended", reason: "replaced" });
    expect(await planHistory(userId)).toEqual([
      ["free", "pro", "upgrade"],
      ["pro", "business", "upgrade"],
    ]);
    // The old subscription's next invoice (if the provider billed it anyway) grants nothing.
    expect(
      await applied(
        "invoice.paid",
        invoice({ subscription: pro.subscriptionId, customer: pro.customer, start: pro.end }),
      ),
    ).toBe(false);
    expect(await accountRow(userId)).toMatchObject({ plan: "business", balance: 100000 });
  });

  it("applies a lower paid plan the owner asked for with the next paid invoice", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "business");
    const down = await body(await postPlan(token, "pro"));
    expect(down.data).toMatchObject({ status: "scheduled", pendingPlan: { id: "pro", reason: "requested" } });
    expect(await accountRow(userId)).toMatchObject({
      plan: "business",
      pending: "pro",
      pendingReason: "requested",
    });
    expect(
      await applied(
        "invoice.paid",
        invoice({ subscription: sub.subscriptionId, customer: sub.customer, start: sub.end }),
      ),
    ).toBe(true);
    expect(await accountRow(userId)).toMatchObject({ plan: "pro", pending: null, balance: 10000 });
    expect((await ledgerRows(userId)).at(-1)).toEqual(["expire", -90000, 0]);
    expect((await planHistory(userId)).at(-1)).toEqual(["business", "pro", "requested"]);
  });

  it("moves to free at the period's end when the owner asked; the provider's closing event then changes nothing", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "pro");
    expect((await postPlan(token, "free")).status).toBe(200);
    await cron(sub.end - 60_000);
    expect((await accountRow(userId))!.plan).toBe("pro");
    await cron(sub.end + 60_000);
    expect(await accountRow(userId)).toMatchObject({
      plan: "free",
      subscription: null,
      balance: 500,
      pending: null,
    });
    expect((await planHistory(userId)).at(-1)).toEqual(["pro", "free", "requested"]);
    expect(await subscriptionStatus(sub.subscriptionId)).toEqual({ status: "ended", reason: "requested" });
    const rows = await ledgerRows(userId);
    const deleted = subscription({ id: sub.subscriptionId, customer: sub.customer, status: "canceled" });
    expect(await applied("customer.subscription.deleted", deleted)).toBe(false);
    expect(await ledgerRows(userId)).toEqual(rows);
  });
});

describe("the provider ends a plan", () => {
  it("moves to free at once when the subscription is deleted, says why, and POST /plan cannot undo it", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "pro");
    const deleted = subscription({ id: sub.subscriptionId, customer: sub.customer, status: "canceled" });
    expect(await applied("customer.subscription.deleted", deleted)).toBe(true);
    const at = await accountRow(userId);
    expect(at).toMatchObject({ plan: "free", subscription: null, pending: null, balance: 500 });
    expect(at!.periodEnd).toBe(periodEnd(Date.now()));
    expect((await ledgerRows(userId)).at(-1)).toEqual(["expire", -9500, 0]);
    const u = await usage(token);
    expect(u.lastPlanChange).toMatchObject({
      from: "pro",
      to: "free",
      reason: "subscription_ended",
      message: "the subscription was ended at the payment provider",
    });
    // Asking for the old plan is a new purchase, never a way back.
    const again = await body<{ status: string }>(await postPlan(token, "pro"));
    expect(again.data!.status).toBe("payment_required");
    expect((await postPlan(token, "free")).status).toBe(400);
    expect(await applied("customer.subscription.deleted", deleted)).toBe(false);
    expect((await accountRow(userId))!.plan).toBe("free");
  });

  it("schedules the provider's cancel-at-period-end as the provider's: the owner cannot cancel or replace it", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "business");
    const cancelling = subscription({
      id: sub.subscriptionId,
      customer: sub.customer,
      status: "active",
      cancelAtPeriodEnd: true,
    });
    expect(await applied("customer.subscription.updated", cancelling)).toBe(true);
    expect((await usage(token)).pendingPlan).toMatchObject({
      id: "free",
      reason: "scheduled_cancel",
      cancellable: false,
    });
    for (const planId of ["business", "pro"]) {
      const res = await postPlan(token, planId);
      expect(res.status).toBe(409);
      expect((await body(res)).error).toMatch(/^The move to the free plan on .* was not requested here/);
    }
    expect(await accountRow(userId)).toMatchObject({ pending: "free", pendingReason: "scheduled_cancel" });
    // Resumed at the provider: the move goes away.
    expect(
      await applied("customer.subscription.updated", { ...cancelling, cancel_at_period_end: false }),
    ).toBe(true);
    expect(await accountRow(userId)).toMatchObject({ plan: "business", pending: null });
  });

  it("does not let the provider's schedule overwrite the owner's own downgrade", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "pro");
    expect((await postPlan(token, "free")).status).toBe(200);
    const echo = subscription({
      id: sub.subscriptionId,
      customer: sub.customer,
      status: "active",
      cancelAtPeriodEnd: true,
    });
    expect(await applied("customer.subscription.updated", echo)).toBe(false);
    expect(await accountRow(userId)).toMatchObject({ pending: "free", pendingReason: "requested" });
    expect((await body(await postPlan(token, "pro"))).data).toMatchObject({ status: "unchanged" });
  });

  it.each([
    ["unpaid", "subscription_unpaid"],
    ["canceled", "subscription_ended"],
    ["incomplete_expired", "subscription_unpaid"],
  ])("ends the plan when the subscription becomes %s; past_due changes nothing", async (status, reason) => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "pro");
    const updated = (s: string) =>
      subscription({ id: sub.subscriptionId, customer: sub.customer, status: s });
    expect(await applied("customer.subscription.updated", updated("past_due"))).toBe(false);
    expect(await accountRow(userId)).toMatchObject({ plan: "pro", balance: 10000 });
    expect(await applied("customer.subscription.updated", updated(status))).toBe(true);
    expect(await accountRow(userId)).toMatchObject({ plan: "free", balance: 500, subscription: null });
    expect((await planHistory(userId)).at(-1)).toEqual(["pro", "free", reason]);
    expect(await applied("customer.subscription.updated", updated(status))).toBe(false);
  });

  it("ends the plan when a renewal fails after the provider's last retry, not before", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "pro");
    const failed = (nextPaymentAttempt: number | null) =>
      invoice({
        id: "in_renewal_" + userId,
        subscription: sub.subscriptionId,
        customer: sub.customer,
        start: sub.end,
        nextPaymentAttempt,
      });
    expect(await applied("invoice.payment_failed", failed(Math.floor((Date.now() + 3 * DAY) / 1000)))).toBe(
      false,
    );
    expect(await accountRow(userId)).toMatchObject({ plan: "pro", balance: 10000, periodEnd: sub.end });
    expect(await applied("invoice.payment_failed", failed(null))).toBe(true);
    expect(await accountRow(userId)).toMatchObject({ plan: "free", balance: 500 });
    expect((await planHistory(userId)).at(-1)).toEqual(["pro", "free", "payment_failed"]);
    expect((await usage(token)).lastPlanChange!.message).toMatch(/last retry/);
    expect(await applied("invoice.payment_failed", failed(null))).toBe(false);
  });
});
