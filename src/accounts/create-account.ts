/** Creates an account on a plan and grants the plan's first monthly allowance (one ledger row). */
import { eq } from "drizzle-orm";
import { getDb } from "../db/client";
import { plans, tokenLedger, users } from "../db/schema";
import { NotFound } from "../lib/errors";
import { newId } from "../lib/ids";

/** End of the calendar month (UTC) containing `at`, when the monthly allowance resets. */
export const periodEnd = (at: number): number => {
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};

export const createAccount = async ({
  d1,
  input,
}: {
  d1: D1Database;
  input: { email: string; name?: string; planId?: string; tokens?: number };
}) => {
  const db = getDb(d1);
  const planId = input.planId ?? "free";
  const plan = await db.query.plans.findFirst({ where: eq(plans.id, planId) });
  if (!plan) throw new NotFound(`Plan ${planId}`);
  const at = Date.now();
  const grant = input.tokens ?? plan.tokensPerMonth;
  const user = {
    id: newId("acc"),
    email: input.email.toLowerCase(),
    name: input.name ?? null,
    planId,
    tokenBalance: grant,
    prepaidBalance: 0,
    currentPeriodEnd: periodEnd(at),
    createdAt: at,
    updatedAt: at,
  };
  await db.batch([
    db.insert(users).values(user),
    db.insert(tokenLedger).values({
      id: newId("txn"),
      userId: user.id,
      kind: "grant",
      amount: grant,
      note: `${plan.name} monthly allowance`,
      createdAt: at,
    }),
  ]);
  return user;
};
