import { env } from "cloudflare:workers";
import { createScheduledController } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index.ts";
import { finishJob } from "../../src/jobs/lifecycle.ts";
import { newAccount, testCtx } from "./helpers.ts";
import { openPending } from "./jobs-seed.ts";

/** Settles a job as COMPLETED with `cost` tokens (the lifecycle's own settlement). */
const completeWithCost = (job: Parameters<typeof finishJob>[1], cost: number) =>
  finishJob(testCtx(), job, { status: "COMPLETED", outputFileId: "file_x", cost });

const account = (id: string) =>
  env.DB.prepare(
    "SELECT token_balance AS balance, current_period_end AS periodEnd, (SELECT sum(amount) FROM token_ledger WHERE user_id = ?1) AS ledger FROM users WHERE id = ?1",
  )
    .bind(id)
    .first<{ balance: number; periodEnd: number; ledger: number }>();

/** Sets an account's monthly and prepaid buckets (with an `adjust` ledger row, so the ledger still matches). */
const setState = (id: string, monthly: number, periodEnd: number, prepaid = 0) =>
  env.DB.batch([
    env.DB.prepare(
      `INSERT INTO token_ledger (id, user_id, kind, amount, prepaid_amount, note, created_at)
       SELECT 'adj_' || ?1 || '_' || ?4, ?1, 'adjust', ?2 + ?3 - token_balance, ?3 - prepaid_balance, 'test', 0
       FROM users WHERE id = ?1`,
    ).bind(id, monthly, prepaid, Math.random().toString(36).slice(2)),
    env.DB.prepare(
      "UPDATE users SET token_balance = ?2 + ?3, prepaid_balance = ?3, current_period_end = ?4 WHERE id = ?1",
    ).bind(id, monthly, prepaid, periodEnd),
  ]);

const cron = (at: number) =>
  worker.scheduled(createScheduledController({ scheduledTime: at, cron: "0 0 1 * *" }), env);

describe("monthly allowance", () => {
  it("tops a due account up to the plan's allowance and starts the next period", async () => {
    const { userId } = await newAccount({ planId: "free" });
    const at = Date.UTC(2027, 0, 1, 0, 0, 5);
    await setState(userId, 120, Date.UTC(2027, 0, 1));
    await cron(at);
    const after = await account(userId);
    expect(after).toEqual({ balance: 500, periodEnd: Date.UTC(2027, 1, 1), ledger: 500 });
    const grant = await env.DB.prepare(
      "SELECT amount FROM token_ledger WHERE user_id = ? AND kind = 'grant' AND created_at = ?",
    )
      .bind(userId, at)
      .first<{ amount: number }>();
    expect(grant!.amount).toBe(380);
  });

  it("renews once per period: a second run changes nothing", async () => {
    const { userId } = await newAccount({ planId: "free" });
    const at = Date.UTC(2027, 0, 1, 0, 0, 5);
    await setState(userId, 10, Date.UTC(2027, 0, 1));
    await cron(at);
    await cron(at + 300_000);
    expect(await account(userId)).toMatchObject({ balance: 500, ledger: 500 });
  });

  it("starts each period at the allowance: unused monthly tokens expire, prepaid tokens stay", async () => {
    const { userId } = await newAccount({ planId: "free" });
    await setState(userId, 650, Date.UTC(2027, 0, 1), 300);
    await cron(Date.UTC(2027, 0, 1, 0, 1));
    expect(await account(userId)).toEqual({ balance: 800, periodEnd: Date.UTC(2027, 1, 1), ledger: 800 });
    const rows = await env.DB.prepare(
      "SELECT kind, amount, prepaid_amount AS prepaid FROM token_ledger WHERE user_id = ? AND created_at > 0",
    )
      .bind(userId)
      .all();
    expect(rows.results).toContainEqual({ kind: "expire", amount: -150, prepaid: 0 });
  });

  it("never grants twice when a job holds its reserve across the period end", async () => {
    const { userId } = await newAccount({ planId: "free" });
    await setState(userId, 100, Date.UTC(2027, 0, 1));
    // A job reserves 40 of the old period's allowance and is still running at the end of the month.
    const jobId = await openPending(userId, 40, "IMAGE", Date.UTC(2026, 11, 31));
    await cron(Date.UTC(2027, 0, 1, 0, 1));
    // The new period: 500 minus the 40 still held.
    expect(await account(userId)).toMatchObject({ balance: 460 });
    // It finishes in the new period costing 3: the period has had 500, spent 3.
    const job = (await testCtx().db.query.jobs.findFirst({ where: (j, { eq }) => eq(j.id, jobId) }))!;
    await completeWithCost(job, 3);
    expect(await account(userId)).toMatchObject({ balance: 497, ledger: 497 });
    // Before the fix, the top-up ignored the reserve: 500 - 60 + 40 back = 540 - 3.
  });

  it("never renews a paid plan (its paid invoices do); one with none lapses to free 30 days after its period", async () => {
    const { userId } = await newAccount({ planId: "pro" });
    await setState(userId, 700, Date.UTC(2027, 0, 1), 50);
    await cron(Date.UTC(2026, 11, 31, 23, 59));
    expect(await account(userId)).toMatchObject({ balance: 750 });
    // The period ends unpaid: what was left of it expires (prepaid tokens stay); nothing is granted.
    await cron(Date.UTC(2027, 0, 1, 0, 1));
    await cron(Date.UTC(2027, 0, 30));
    expect(await account(userId)).toEqual({ balance: 50, periodEnd: Date.UTC(2027, 0, 1), ledger: 50 });
    await cron(Date.UTC(2027, 1, 1));
    expect(await account(userId)).toEqual({ balance: 550, periodEnd: Date.UTC(2027, 2, 1), ledger: 550 });
    const change = await env.DB.prepare(
      "SELECT from_plan_id AS f, to_plan_id AS t, reason FROM plan_changes WHERE user_id = ?",
    )
      .bind(userId)
      .first();
    expect(change).toEqual({ f: "pro", t: "free", reason: "lapsed" });
  });

  it("leaves accounts whose period has not ended", async () => {
    const { userId } = await newAccount({ planId: "free" });
    await setState(userId, 42, Date.UTC(2027, 5, 1));
    await cron(Date.UTC(2027, 0, 1, 0, 1));
    expect(await account(userId)).toMatchObject({ balance: 42, periodEnd: Date.UTC(2027, 5, 1) });
  });
});
