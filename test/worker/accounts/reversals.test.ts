/**
 * Refunds and disputes (`charge.refunded`, `charge.dispute.created`, signed by the Stripe SDK's test helper): a
 * token pack's tokens are taken back, never below zero: what was already spent is owed, blocks new work (402 saying
 * so) and is repaid first from the next purchase or allowance; a plan invoice refunded in full or disputed ends the
 * plan at once with its allowance. After each event: the ledger rows, balances and plan; replays change nothing.
 */
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { CurrentPlan, Payment } from "../../../src/billing/schemas.ts";
import { finishJob } from "../../../src/jobs/lifecycle.ts";
import { call, json, testCtx } from "../helpers.ts";
import { openPending } from "../jobs-seed.ts";
import { bearer, body, signUp } from "./sign-up.ts";
import { accountRow, applied, charge, dispute, ledgerRows, planHistory, subscribe } from "./stripe-events.ts";

/** A token pack bought and paid (the provider names its payment `pi`). */
const buyPack = async (token: string, userId: string, tokens: number, pi = `pi_pack_${Math.random()}`) => {
  const res = await call("/api/v1/billing/checkout", bearer(token, json("POST", { tokens })));
  const { paymentId, sessionId } = (await body<{ paymentId: string; sessionId: string }>(res)).data!;
  const completed = {
    id: sessionId,
    object: "checkout.session",
    mode: "payment",
    payment_status: "paid",
    customer: `cus_${userId}`,
    payment_intent: pi,
    metadata: {},
  };
  expect(await applied("checkout.session.completed", completed)).toBe(true);
  return { paymentId, pi, cents: (tokens / 1000) * 500 };
};

const payment = async (token: string, id: string) =>
  v.parse(Payment, (await body(await call(`/api/v1/billing/payments/${id}`, bearer(token)))).data);

const jobRow = (id: string) => testCtx().db.query.jobs.findFirst({ where: (j, { eq }) => eq(j.id, id) });

const usage = async (token: string) =>
  v.parse(CurrentPlan, (await body(await call("/api/v1/billing/usage", bearer(token)))).data);

/** A key that may create jobs, for the account behind `token`. */
const jobsKey = async (token: string) =>
  (
    await body<{ key: string }>(
      await call(
        "/api/v1/api-keys",
        bearer(token, json("POST", { name: "jobs", permissions: [{ resource: "jobs", action: "full" }] })),
      ),
    )
  ).data!.key;

const createImageJob = (key: string) =>
  call(
    "/api/v1/jobs",
    json(
      "POST",
      { type: "image", config: { width: 8, height: 8, layers: [{ type: "rectangle", fill: "#f00" }] } },
      key,
    ),
  );

describe("a refunded or disputed token pack", () => {
  it("takes its tokens back in proportion to each refund, once", async () => {
    const { token, userId } = await signUp();
    const pack = await buyPack(token, userId, 2000);
    expect(await accountRow(userId)).toMatchObject({ balance: 2500, prepaid: 2000 });
    const half = charge({
      paymentIntent: pack.pi,
      customer: `cus_${userId}`,
      amount: pack.cents,
      amountRefunded: pack.cents / 2,
    });
    expect(await applied("charge.refunded", half)).toBe(true);
    expect(await accountRow(userId)).toMatchObject({ balance: 1500, prepaid: 1000, owed: 0 });
    expect((await ledgerRows(userId)).at(-1)).toEqual(["revoke", -1000, -1000]);
    expect(await applied("charge.refunded", half)).toBe(false);
    expect(await payment(token, pack.paymentId)).toMatchObject({ status: "paid", tokensRevoked: 1000 });
    const full = { ...half, amount_refunded: pack.cents, refunded: true };
    expect(await applied("charge.refunded", full)).toBe(true);
    expect(await accountRow(userId)).toMatchObject({ balance: 500, prepaid: 0, owed: 0 });
    expect(await payment(token, pack.paymentId)).toMatchObject({ status: "refunded", tokensRevoked: 2000 });
    // Refunded in full: a replay or a later dispute takes nothing more.
    expect(await applied("charge.refunded", full)).toBe(false);
    expect(await applied("charge.dispute.created", dispute(pack.pi))).toBe(false);
    expect(await ledgerRows(userId)).toEqual([
      ["grant", 500, 0],
      ["purchase", 2000, 2000],
      ["revoke", -1000, -1000],
      ["revoke", -1000, -1000],
    ]);
  });

  it("owes what was already spent: no new work until a purchase repays it", async () => {
    const { token, userId } = await signUp();
    const key = await jobsKey(token);
    const pack = await buyPack(token, userId, 1000);
    // A job holds 1200: the 500 monthly tokens and 700 prepaid. 300 prepaid are left when the payment is disputed.
    const jobId = await openPending(userId, 1200);
    expect(await applied("charge.dispute.created", dispute(pack.pi))).toBe(true);
    expect(await accountRow(userId)).toMatchObject({ balance: 0, prepaid: 0, owed: 700 });
    const revoked = await body<{ entries: { kind: string; amount: number; note: string }[] }>(
      await call("/api/v1/billing/ledger", bearer(token)),
    );
    expect(revoked.data!.entries[0]).toMatchObject({
      kind: "revoke",
      amount: -300,
      note: "1000 prepaid tokens taken back (payment disputed); 700 already spent, owed",
    });
    expect((await usage(token)).usage).toMatchObject({ owedTokens: 700, totalAvailable: 0 });
    expect(await payment(token, pack.paymentId)).toMatchObject({ status: "disputed", tokensRevoked: 1000 });

    // The running job finishes (its 1200 come back, 100 are charged): the balance is there, but owed first.
    const job = (await testCtx().db.query.jobs.findFirst({ where: (j, { eq }) => eq(j.id, jobId) }))!;
    await finishJob(testCtx(), job, { status: "COMPLETED", outputFileId: "file_x", cost: 100 });
    expect(await accountRow(userId)).toMatchObject({ balance: 1100, owed: 700 });
    const refused = await createImageJob(key);
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({
      success: false,
      error: expect.stringMatching(/owes 700 tokens of a refunded or disputed purchase/),
      details: { owed: 700, available: 0 },
    });
    // Per-call charges too (the bulk duration tool spends a token per file).
    const tools = await call(
      "/api/v1/tools/video/duration/bulk",
      json("POST", { files: ["https://example.com/a.mp4"] }, key),
    );
    expect(tools.status).toBe(402);
    expect(await tools.json()).toMatchObject({ details: { owed: 700 } });

    // A new purchase repays what is owed first (the 400 monthly tokens left, then 300 prepaid); work starts again.
    await buyPack(token, userId, 1000);
    expect(await accountRow(userId)).toMatchObject({ balance: 1400, owed: 0 });
    expect((await ledgerRows(userId)).slice(-2)).toEqual([
      ["purchase", 1000, 1000],
      ["revoke", -700, -300],
    ]);
    expect((await createImageJob(key)).status).toBe(201);
  });
});

describe("a refunded or disputed plan payment", () => {
  it("ends the plan at once when the invoice is refunded in full, taking its allowance back; a partial refund does not", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "pro");
    await openPending(userId, 2000);
    const partial = charge({
      paymentIntent: sub.paymentIntent,
      customer: sub.customer,
      amount: 2900,
      amountRefunded: 900,
    });
    expect(await applied("charge.refunded", partial)).toBe(false);
    expect(await accountRow(userId)).toMatchObject({ plan: "pro", balance: 8000 });
    const full = { ...partial, amount_refunded: 2900, refunded: true };
    expect(await applied("charge.refunded", full)).toBe(true);
    // The 8000 left expire; the 2000 the open job holds come back when it ends, so they are owed.
    expect(await accountRow(userId)).toMatchObject({
      plan: "free",
      subscription: null,
      balance: 0,
      owed: 2000,
      periodEnd: sub.end,
    });
    expect((await ledgerRows(userId)).at(-1)).toEqual(["revoke", -8000, 0]);
    expect((await planHistory(userId)).at(-1)).toEqual(["pro", "free", "refunded"]);
    expect((await usage(token)).lastPlanChange).toMatchObject({
      reason: "refunded",
      message: "the plan's payment was refunded",
    });
    expect(await applied("charge.refunded", full)).toBe(false);
  });

  it("owes what was spent of a refunded plan's allowance, as for a pack: repaid from prepaid tokens first, the rest blocks work", async () => {
    const { token, userId } = await signUp();
    const key = await jobsKey(token);
    const sub = await subscribe(token, userId, "pro");
    await buyPack(token, userId, 1000);
    // 6000 of Pro's 10000 spent and a job holding 1000 more: 3000 left, beside 1000 prepaid tokens.
    const spent = await openPending(userId, 6000);
    await finishJob(testCtx(), (await jobRow(spent))!, {
      status: "COMPLETED",
      outputFileId: "file_x",
      cost: 6000,
    });
    const running = await openPending(userId, 1000);
    expect(await accountRow(userId)).toMatchObject({ balance: 4000, prepaid: 1000, owed: 0 });
    const full = charge({
      paymentIntent: sub.paymentIntent,
      customer: sub.customer,
      amount: 2900,
      amountRefunded: 2900,
    });
    expect(await applied("charge.refunded", full)).toBe(true);
    // The 3000 left are taken back; the 7000 spent or held are owed, 1000 of them repaid at once from prepaid.
    expect(await accountRow(userId)).toMatchObject({ plan: "free", balance: 0, prepaid: 0, owed: 6000 });
    expect((await ledgerRows(userId)).slice(-2)).toEqual([
      ["revoke", -3000, 0],
      ["revoke", -1000, -1000],
    ]);
    const entries = await body<{ entries: { kind: string; amount: number; note: string }[] }>(
      await call("/api/v1/billing/ledger", bearer(token)),
    );
    expect(entries.data!.entries.find((e) => e.amount === -3000)).toMatchObject({
      kind: "revoke",
      note: "monthly tokens taken back (plan payment refunded); 7000 already spent or held by running jobs, owed",
    });
    const refused = await createImageJob(key);
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ details: { owed: 6000 } });
    // The running job ends, charged 400: what it gives back stays owed until a purchase or an allowance repays it.
    await finishJob(testCtx(), (await jobRow(running))!, {
      status: "COMPLETED",
      outputFileId: "file_x",
      cost: 400,
    });
    expect(await accountRow(userId)).toMatchObject({ balance: 600, owed: 6000 });
    await buyPack(token, userId, 6000);
    expect(await accountRow(userId)).toMatchObject({ balance: 600, owed: 0 });
    expect(await applied("charge.refunded", full)).toBe(false);
  });

  it("ends the plan at once when its payment is disputed; buying the plan again is a new checkout", async () => {
    const { token, userId } = await signUp();
    const sub = await subscribe(token, userId, "business");
    expect(await applied("charge.dispute.created", dispute(sub.paymentIntent))).toBe(true);
    expect(await accountRow(userId)).toMatchObject({ plan: "free", balance: 0, owed: 0 });
    expect((await planHistory(userId)).at(-1)).toEqual(["business", "free", "disputed"]);
    expect(await applied("charge.dispute.created", dispute(sub.paymentIntent))).toBe(false);
    const again = await body<{ status: string }>(
      await call("/api/v1/billing/plan", bearer(token, json("POST", { planId: "business" }))),
    );
    expect(again.data!.status).toBe("payment_required");
  });
});
