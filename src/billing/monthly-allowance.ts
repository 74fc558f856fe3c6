/**
 * The monthly allowance: when an account's period ends (calendar months, UTC), a pending downgrade takes effect
 * and the monthly allowance starts again at the plan's `tokensPerMonth` (ledger.renewPeriod: one `grant` or
 * `expire` row of the difference; reserves of jobs still open are counted, so nothing is granted twice).
 * Prepaid tokens are untouched. Runs from the cron in bounded batches; each account is one D1 batch whose guard
 * (the period is due) makes a second run in the same period a no-op.
 */
import type { Ctx } from "../context";
import * as ledger from "./ledger";

const BATCH = 100;

/** End of the calendar month (UTC) containing `at`, when the monthly allowance resets. */
export const periodEnd = (at: number): number => {
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};

export const renewAllowances = async (ctx: Ctx, maxBatches = 10): Promise<number> => {
  const at = ctx.now();
  let renewed = 0;
  for (let i = 0; i < maxBatches; i++) {
    const due = await ctx.d1
      .prepare("SELECT id FROM users WHERE current_period_end <= ?1 LIMIT ?2")
      .bind(at, BATCH)
      .all<{ id: string }>();
    for (const { id } of due.results) {
      const results = await ctx.d1.batch(ledger.renewPeriod(ctx.d1, id, at, periodEnd(at)));
      if (ledger.moved(results, 1)) renewed++;
    }
    if (due.results.length < BATCH) break;
  }
  return renewed;
};
