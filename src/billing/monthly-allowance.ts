/**
 * The monthly allowance: when an account's period ends, its balance is topped up to the plan's
 * `tokensPerMonth` (a `grant` ledger row of the difference; nothing is taken away, so prepaid tokens and a
 * balance above the allowance stay) and the next period starts at the following calendar month (UTC).
 *
 * Each account is one D1 batch: the ledger row is computed from the current balance and inserted only when
 * the period is due, and the balance moves by exactly that row's amount, so the ledger still sums to the
 * balance and a second run in the same period changes nothing. Runs from the cron in bounded batches.
 */
import { periodEnd } from "../accounts/create-account";
import { newId } from "../lib/ids";

const BATCH = 100;

export const renewAllowances = async (d1: D1Database, at = Date.now(), maxBatches = 10): Promise<number> => {
  let renewed = 0;
  for (let i = 0; i < maxBatches; i++) {
    const due = await d1
      .prepare("SELECT id FROM users WHERE current_period_end <= ?1 LIMIT ?2")
      .bind(at, BATCH)
      .all<{ id: string }>();
    if (due.results.length === 0) break;
    for (const { id } of due.results) {
      const txn = newId("txn");
      const results = await d1.batch([
        d1
          .prepare(
            `INSERT INTO token_ledger (id, user_id, job_id, kind, amount, note, created_at)
             SELECT ?1, u.id, NULL, 'grant', max(0, p.tokens_per_month - u.token_balance), p.name || ' monthly allowance', ?2
             FROM users u JOIN plans p ON p.id = u.plan_id WHERE u.id = ?3 AND u.current_period_end <= ?2`,
          )
          .bind(txn, at, id),
        d1
          .prepare(
            `UPDATE users SET token_balance = token_balance + (SELECT amount FROM token_ledger WHERE id = ?1),
               current_period_end = ?2, updated_at = ?3
             WHERE id = ?4 AND EXISTS (SELECT 1 FROM token_ledger WHERE id = ?1)`,
          )
          .bind(txn, periodEnd(at), at, id),
      ]);
      if (results[1]?.meta.changes === 1) renewed++;
    }
    if (due.results.length < BATCH) break;
  }
  return renewed;
};
