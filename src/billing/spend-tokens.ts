/**
 * Charges outside the job lifecycle (bulk duration tools, and anything else priced per call). Like
 * `openJob`, the balance moves only through a conditional UPDATE (`WHERE token_balance >= n`, never negative)
 * and the ledger row is inserted in the same D1 batch (one transaction) only when that UPDATE matched,
 * so the ledger's sum always equals the balance.
 */
import { InsufficientTokens } from "../lib/errors";
import { newId } from "../lib/ids";

export interface Spend {
  userId: string;
  amount: number;
  /** Shown in usage history, e.g. "bulk video duration: 12 files". */
  note: string;
  /** Optional reference stored in the ledger's job_id column (a job id, a request id). */
  refId?: string | null;
}

/** Takes `amount` tokens from the balance atomically, or throws InsufficientTokens and changes nothing. */
export const spendTokens = async (d1: D1Database, spend: Spend, at = Date.now()): Promise<void> => {
  if (!Number.isInteger(spend.amount) || spend.amount < 0)
    throw new RangeError("amount must be a whole number >= 0");
  if (spend.amount === 0) return;
  const [charged] = await d1.batch([
    d1
      .prepare(
        `UPDATE users SET token_balance = token_balance - ?1, updated_at = ?2 WHERE id = ?3 AND token_balance >= ?1`,
      )
      .bind(spend.amount, at, spend.userId),
    d1
      .prepare(
        `INSERT INTO token_ledger (id, user_id, job_id, kind, amount, note, created_at)
         SELECT ?1, ?2, ?3, 'charge', ?4, ?5, ?6 WHERE changes() = 1`,
      )
      .bind(newId("txn"), spend.userId, spend.refId ?? null, -spend.amount, spend.note, at),
  ]);
  if (charged?.meta.changes === 1) return;
  const row = await d1
    .prepare("SELECT token_balance AS balance FROM users WHERE id = ?1")
    .bind(spend.userId)
    .first<{ balance: number }>();
  throw new InsufficientTokens(spend.amount, row?.balance ?? 0);
};

/** Gives tokens back (a ledger `refund` row), e.g. for work that could not be done after a charge. */
export const refundTokens = async (d1: D1Database, spend: Spend, at = Date.now()): Promise<void> => {
  if (spend.amount <= 0) return;
  await d1.batch([
    d1
      .prepare(`UPDATE users SET token_balance = token_balance + ?1, updated_at = ?2 WHERE id = ?3`)
      .bind(spend.amount, at, spend.userId),
    d1
      .prepare(
        `INSERT INTO token_ledger (id, user_id, job_id, kind, amount, note, created_at)
         SELECT ?1, ?2, ?3, 'refund', ?4, ?5, ?6 WHERE changes() = 1`,
      )
      .bind(newId("txn"), spend.userId, spend.refId ?? null, spend.amount, spend.note, at),
  ]);
};
