/** Fetch-or-throw helpers and the public view of accounts. */
import { eq } from "drizzle-orm";
import type { Ctx } from "../context.ts";
import { plans, users } from "../db/schema.ts";
import { NotFound } from "../lib/errors.ts";
import { iso } from "../lib/time.ts";
import type { Account } from "./schemas.ts";

export type AccountRow = typeof users.$inferSelect;

export const findAccountByEmail = (ctx: Ctx, email: string) =>
  ctx.db.query.users.findFirst({ where: eq(users.email, email.toLowerCase()) });

export const getAccount = async (ctx: Ctx, userId: string): Promise<AccountRow> => {
  const row = await ctx.db.query.users.findFirst({ where: eq(users.id, userId) });
  if (!row) throw new NotFound("Account");
  return row;
};

/** The plan an account is on now (one indexed join). */
export const planOf = async (ctx: Ctx, userId: string): Promise<typeof plans.$inferSelect> => {
  const row = await ctx.db
    .select({ plan: plans })
    .from(users)
    .innerJoin(plans, eq(plans.id, users.planId))
    .where(eq(users.id, userId))
    .get();
  if (!row) throw new NotFound("Account");
  return row.plan;
};

/** The account as its owner sees it. */
export const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  email: row.email,
  name: row.name,
  planId: row.planId,
  pendingPlanId: row.pendingPlanId,
  marketingAccepted: row.marketingAccepted,
  termsVersion: row.termsVersion,
  termsAcceptedAt: iso(row.termsAcceptedAt),
  createdAt: iso(row.createdAt)!,
  updatedAt: iso(row.updatedAt)!,
});
