import { env } from "cloudflare:workers";
import { createScheduledController } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { newAccount } from "./helpers";

const account = (id: string) =>
  env.DB.prepare(
    "SELECT token_balance AS balance, current_period_end AS periodEnd, (SELECT sum(amount) FROM token_ledger WHERE user_id = ?1) AS ledger FROM users WHERE id = ?1",
  )
    .bind(id)
    .first<{ balance: number; periodEnd: number; ledger: number }>();

const setState = (id: string, balance: number, periodEnd: number) =>
  env.DB.batch([
    // Keep the ledger equal to the balance while moving the balance for the test.
    env.DB.prepare(
      "INSERT INTO token_ledger (id, user_id, kind, amount, note, created_at) SELECT 'adj_' || ?1, ?1, 'adjust', ?2 - token_balance, 'test', 0 FROM users WHERE id = ?1",
    ).bind(id, balance),
    env.DB.prepare("UPDATE users SET token_balance = ?2, current_period_end = ?3 WHERE id = ?1").bind(
      id,
      balance,
      periodEnd,
    ),
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

  it("never takes tokens away from a balance above the allowance", async () => {
    const { userId } = await newAccount({ planId: "free" });
    await setState(userId, 800, Date.UTC(2027, 0, 1));
    await cron(Date.UTC(2027, 0, 1, 0, 1));
    expect(await account(userId)).toEqual({ balance: 800, periodEnd: Date.UTC(2027, 1, 1), ledger: 800 });
  });

  it("leaves accounts whose period has not ended", async () => {
    const { userId } = await newAccount({ planId: "free" });
    await setState(userId, 42, Date.UTC(2027, 5, 1));
    await cron(Date.UTC(2027, 0, 1, 0, 1));
    expect(await account(userId)).toMatchObject({ balance: 42, periodEnd: Date.UTC(2027, 5, 1) });
  });
});
