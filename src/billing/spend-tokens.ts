/**
 * Charges outside the job lifecycle (bulk duration tools, and anything else priced per call): a ledger
 * `charge` that runs only when the balance covers it, so the balance never goes negative and the ledger's sum
 * still equals it.
 */
import type { Ctx } from "../context.ts";
import { InsufficientTokens } from "../lib/errors.ts";
import * as ledger from "../ledger/ledger.ts";

export interface Spend {
  userId: string;
  amount: number;
  /** Shown in usage history, e.g. "bulk video duration: 12 files". */
  note: string;
  /** Optional reference stored in the ledger's job_id column (a job id, a request id). */
  refId?: string | null;
}

/**
 * Takes `amount` tokens from the balance atomically, or throws InsufficientTokens (also while tokens are owed) and
 * changes nothing.
 */
export const spendTokens = async (ctx: Ctx, spend: Spend): Promise<void> => {
  const statements = ledger.charge(ctx.d1, { ...spend, at: ctx.now() }, { when: "covered" });
  if (statements.length === 0) return;
  const results = await ctx.d1.batch(statements);
  if (ledger.moved(results, 1)) return;
  const row = await ctx.d1
    .prepare("SELECT token_balance AS balance, token_debt AS owed FROM users WHERE id = ?1")
    .bind(spend.userId)
    .first<{ balance: number; owed: number }>();
  throw new InsufficientTokens(spend.amount, row?.balance ?? 0, row?.owed ?? 0);
};
