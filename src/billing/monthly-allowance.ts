/**
 * The cron's side of periods. Paid plans are renewed only by their paid invoices (src/billing/paid-invoice.ts),
 * never by the calendar; here:
 * - an account whose next plan is free (the free plan, or a move to it that was scheduled) starts a new calendar
 *   month (UTC) when its period ends: the scheduled move takes effect (with its reason in the plan history), the
 *   monthly allowance starts again at the free plan's (ledger.renewPeriod: one `grant` or `expire` row of the
 *   difference; reserves of open jobs are counted, so nothing is granted twice); owed tokens are repaid first, from
 *   what is left before the reset and then from the new allowance;
 * - a paid plan that no paid invoice renewed within LAPSE_GRACE_MS of its period's end lapses to the free plan
 *   (reason `lapsed`: a missed or never-sent provider event cannot keep a paid plan alive), and its subscription,
 *   if any, is ended at the provider;
 * - until then, a paid period that ended unrenewed keeps its plan's features but not its tokens: what is left of its
 *   monthly allowance expires at the period's end (and what open jobs give back of it later, at the next run). The
 *   paid renewal brings the new period's allowance.
 * Prepaid tokens are untouched. Runs in bounded batches; each account is one D1 batch whose guard (the period is
 * due) makes a second run in the same period a no-op.
 */
import type { Ctx } from "../context.ts";
import { forceDowngrade } from "./downgrade.ts";
import * as ledger from "../ledger/ledger.ts";
import { planChangeRow } from "./plan-changes.ts";
import { periodEnd } from "../ledger/periods.ts";

/**
 * How long a paid plan outlives its paid period without a paid invoice before it lapses to the free plan (the
 * provider's retries of a failed renewal happen within it; Stripe's default schedule retries for up to 2 weeks).
 */
export const LAPSE_GRACE_MS = 30 * 24 * 3600_000;

const BATCH = 100;

interface Due {
  id: string;
  subscriptionId: string | null;
  nextPaid: number;
}

/** A free period starts: a scheduled move to the free plan applies, the allowance restarts. */
const renewFree = async (ctx: Ctx, userId: string, at: number) => {
  const { d1 } = ctx;
  // Owed tokens are repaid first from what is left (which the renewal would expire), then from the new allowance.
  const head = [
    ...ledger.repayDebt(d1, { userId, at }),
    planChangeRow(d1, {
      userId,
      toPlan: "u.pending_plan_id",
      reason: "requested",
      reasonSql: `CASE u.pending_plan_reason WHEN 'scheduled_cancel' THEN 'subscription_ended' ELSE ?5 END`,
      ref: null,
      at,
      where: "u.current_period_end <= ?4",
    }),
    d1
      .prepare(
        `UPDATE subscriptions SET status = 'ended', ended_reason = 'requested', ended_at = ?2
         WHERE id = (SELECT subscription_id FROM users WHERE id = ?1 AND current_period_end <= ?2)
           AND status = 'active'`,
      )
      .bind(userId, at),
  ];
  const results = await d1.batch([
    ...head,
    ...ledger.renewPeriod(d1, userId, at, periodEnd(at)),
    ...ledger.repayDebt(d1, { userId, at }),
  ]);
  return ledger.moved(results, head.length + 1);
};

/** A paid period ended, its renewal unpaid: owed tokens are repaid from what is left, then the rest expires. */
const expireUnrenewed = async (ctx: Ctx, userId: string, at: number) => {
  const { d1 } = ctx;
  const repay = ledger.repayDebt(d1, { userId, at });
  const results = await d1.batch([
    ...repay,
    ...ledger.expireAllowance(d1, {
      userId,
      at,
      note: "monthly allowance of a period whose renewal is not paid",
    }),
  ]);
  return ledger.moved(results, repay.length + 1);
};

/** Expires what is left of paid periods that ended unrenewed (within the grace: past it, the plan lapsed). */
const expireUnrenewedPeriods = async (ctx: Ctx, at: number, maxBatches: number) => {
  let expired = 0;
  for (let i = 0; i < maxBatches; i++) {
    const due = await ctx.d1
      .prepare(
        `SELECT u.id FROM users u JOIN plans np ON np.id = coalesce(u.pending_plan_id, u.plan_id)
         WHERE u.current_period_end <= ?1 AND np.paid = 1 AND u.token_balance > u.prepaid_balance LIMIT ?2`,
      )
      .bind(at, BATCH)
      .all<{ id: string }>();
    for (const account of due.results) if (await expireUnrenewed(ctx, account.id, at)) expired++;
    if (due.results.length < BATCH) break;
  }
  return expired;
};

/** The cron's run: free periods renewed, unpaid plans lapsed, unrenewed paid periods' allowances expired. */
export const renewAllowances = async (
  ctx: Ctx,
  maxBatches = 10,
): Promise<{ renewed: number; expired: number }> => {
  const at = ctx.now();
  let renewed = 0;
  for (let i = 0; i < maxBatches; i++) {
    // Due: a period that ended, of an account whose next plan is free, or of a paid plan past its grace.
    const due = await ctx.d1
      .prepare(
        `SELECT u.id, u.subscription_id AS subscriptionId, np.paid AS nextPaid
         FROM users u JOIN plans np ON np.id = coalesce(u.pending_plan_id, u.plan_id)
         WHERE u.current_period_end <= ?1 AND (np.paid = 0 OR u.current_period_end <= ?2) LIMIT ?3`,
      )
      .bind(at, at - LAPSE_GRACE_MS, BATCH)
      .all<Due>();
    for (const account of due.results) {
      const changed = account.nextPaid
        ? await forceDowngrade(ctx, {
            userId: account.id,
            subscriptionId: account.subscriptionId,
            reason: "lapsed",
            ref: account.subscriptionId,
            allowance: "free",
            cancelAtProvider: true,
          })
        : await renewFree(ctx, account.id, at);
      if (changed) renewed++;
    }
    if (due.results.length < BATCH) break;
  }
  return { renewed, expired: await expireUnrenewedPeriods(ctx, at, maxBatches) };
};
