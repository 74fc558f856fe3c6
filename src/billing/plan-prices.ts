/**
 * Which plan a paid invoice paid for. A plan is billed at its own recurring monthly price at the provider (one per
 * plan, amount and currency), made the first time a checkout or a plan change needs it, the plan's id in the
 * metadata of the price and of its product, and recorded here (`plan_prices`). A renewal invoice is drawn when the
 * period ends, with the price the subscription has then; its subscription line names that price, so the price, not
 * the account or the subscription's metadata (which may have changed since), says which plan the invoice bought.
 */
import { and, eq } from "drizzle-orm";
import type { Ctx } from "../context.ts";
import { planPrices, plans } from "../db/schema.ts";
import type { PlanRow } from "./plans.ts";
import { paymentProviderFor } from "./provider.ts";

/** The currency of every price (plans and token packs). */
export const CURRENCY = "usd";

/** A plan's monthly price in cents. */
export const planCents = (plan: PlanRow) => Math.round((plan.pricePerMonth ?? 0) * 100);

/** What a checkout or a subscription bills for `plan` each month. */
export const planItem = (plan: PlanRow) => ({
  planId: plan.id,
  name: `${plan.displayName} plan (monthly)`,
  amountCents: planCents(plan),
  currency: CURRENCY,
});

/** The provider's price of `plan` at its current amount (made there, and recorded, the first time). */
export const priceOfPlan = async (ctx: Ctx, plan: PlanRow): Promise<string> => {
  const item = planItem(plan);
  const known = await ctx.db.query.planPrices.findFirst({
    where: and(
      eq(planPrices.planId, plan.id),
      eq(planPrices.amountCents, item.amountCents),
      eq(planPrices.currency, item.currency),
      eq(planPrices.origin, "made"),
    ),
  });
  if (known) return known.priceId;
  const priceId = await paymentProviderFor(ctx.env).planPrice(item);
  await record(
    ctx,
    { priceId, planId: plan.id, amountCents: item.amountCents, currency: item.currency },
    "made",
  );
  return priceId;
};

const record = (
  ctx: Ctx,
  price: { priceId: string; planId: string; amountCents: number; currency: string },
  origin: "made" | "read",
) =>
  ctx.db
    .insert(planPrices)
    .values({ ...price, origin, createdAt: ctx.now() })
    .onConflictDoNothing()
    .run();

/**
 * The paid plan a price of the provider bills: ours as recorded; else the plan its metadata (or its product's)
 * names; else, for a price that names none (subscriptions made before plans had prices of their own billed inline
 * prices), the paid plan whose monthly price it is. Null: none of these.
 */
const planOfPrice = async (ctx: Ctx, priceId: string): Promise<PlanRow | null> => {
  const known = await ctx.db.query.planPrices.findFirst({ where: eq(planPrices.priceId, priceId) });
  const paidPlans = await ctx.db.query.plans.findMany({ where: eq(plans.paid, true) });
  if (known) return paidPlans.find((p) => p.id === known.planId) ?? null;
  const facts = await paymentProviderFor(ctx.env).readPrice(priceId);
  if (!facts) return null;
  const plan = facts.planId
    ? paidPlans.find((p) => p.id === facts.planId)
    : paidPlans.find((p) => facts.currency === CURRENCY && planCents(p) === facts.amountCents);
  if (!plan) return null;
  const amountCents = facts.amountCents ?? planCents(plan);
  await record(ctx, { priceId, planId: plan.id, amountCents, currency: facts.currency }, "read");
  return plan;
};

/**
 * The plan a paid invoice paid for, from the prices on its subscription lines (`priceIds`, prorations left out):
 * the lowest of their plans. Null when it has no such line, or one whose price bills no paid plan of ours: such an
 * invoice grants nothing.
 */
export const planOfInvoice = async (ctx: Ctx, priceIds: string[]): Promise<PlanRow | null> => {
  if (!priceIds.length) return null;
  const billed = await Promise.all([...new Set(priceIds)].map((id) => planOfPrice(ctx, id)));
  if (billed.some((p) => !p)) return null;
  return (billed as PlanRow[]).reduce((low, p) => (p.rank < low.rank ? p : low));
};
