/** GET /api/v1/billing/ledger: the account's token movements, newest first (usage history). */
import { count, desc, eq } from "drizzle-orm";
import * as v from "valibot";
import type { CallerCtx } from "../context.ts";
import { queryInt } from "../lib/validate.ts";
import { tokenLedger } from "../db/schema.ts";
import { iso } from "../lib/time.ts";
import type { LedgerPage } from "./schemas.ts";

export const LedgerQuery = v.object({
  page: queryInt("page", 1, 1_000_000, 1),
  limit: queryInt("limit", 1, 100, 50),
});

export const listLedger = async (
  ctx: CallerCtx,
  query: v.InferOutput<typeof LedgerQuery>,
): Promise<LedgerPage> => {
  const where = eq(tokenLedger.userId, ctx.caller.userId);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(tokenLedger)
      .where(where)
      .orderBy(desc(tokenLedger.createdAt), desc(tokenLedger.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    ctx.db.select({ n: count() }).from(tokenLedger).where(where),
  ]);
  const totalCount = total?.n ?? 0;
  return {
    entries: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      amount: row.amount,
      prepaidAmount: row.prepaidAmount,
      monthlyAmount: row.amount - row.prepaidAmount,
      jobId: row.jobId,
      note: row.note,
      createdAt: iso(row.createdAt)!,
    })),
    pagination: {
      page: query.page,
      limit: query.limit,
      totalCount,
      totalPages: Math.ceil(totalCount / query.limit),
    },
  };
};
