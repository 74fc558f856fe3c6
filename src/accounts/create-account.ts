/** Creates an account on a plan and grants the plan's first monthly allowance (one ledger row). */
import { eq } from "drizzle-orm";
import * as ledger from "../ledger/ledger.ts";
import { periodEnd } from "../ledger/periods.ts";
import type { Ctx } from "../context.ts";
import { plans, users } from "../db/schema.ts";
import { NotFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";

export interface NewAccount {
  email: string;
  name?: string | null;
  planId?: string;
  /** The first allowance; default: the plan's. */
  tokens?: number;
  consent?: { termsVersion: string; marketingAccepted: boolean };
}

export const createAccount = async (ctx: Ctx, input: NewAccount) => {
  const planId = input.planId ?? "free";
  const plan = await ctx.db.query.plans.findFirst({ where: eq(plans.id, planId) });
  if (!plan) throw new NotFound(`Plan ${planId}`);
  const at = ctx.now();
  const grant = input.tokens ?? plan.tokensPerMonth;
  const user = {
    id: newId("acc"),
    email: input.email.toLowerCase(),
    name: input.name ?? null,
    planId,
    tokenBalance: 0,
    prepaidBalance: 0,
    currentPeriodEnd: periodEnd(at),
    termsVersion: input.consent?.termsVersion ?? null,
    termsAcceptedAt: input.consent ? at : null,
    marketingAccepted: input.consent?.marketingAccepted ?? false,
    createdAt: at,
    updatedAt: at,
  };
  const { sql, params } = ctx.db.insert(users).values(user).toSQL();
  await ctx.d1.batch([
    ctx.d1.prepare(sql).bind(...params),
    ...ledger.grant(ctx.d1, {
      userId: user.id,
      amount: grant,
      note: `${plan.name} monthly allowance`,
      at,
    }),
  ]);
  return { ...user, tokenBalance: grant };
};
