/**
 * The provider's subscriptions and the events about them. A subscription is known from its plan checkout
 * (`checkout.session.completed`) or, if its events come first, from the metadata our checkout gave it (the payment
 * it belongs to); an event about a subscription we cannot tie to one of our payments changes nothing.
 *
 * - `customer.subscription.deleted`, or `updated` to `unpaid` / `canceled` / `incomplete_expired`: the account
 *   moves to the free plan at once (src/billing/downgrade.ts) and the subscription is ended for good;
 * - `updated` with `cancel_at_period_end`: the move to the free plan is scheduled for the period's end, as the
 *   provider's (`scheduled_cancel`), which the owner cannot cancel through our API; cleared when it is resumed.
 * `past_due` changes nothing: the provider is retrying, and no allowance comes before a paid invoice.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Ctx } from "../context.ts";
import { payments, subscriptions, users } from "../db/schema.ts";
import type { AccountRow } from "../accounts/lookup.ts";
import { forceDowngrade } from "./downgrade.ts";
import { FREE_PLAN } from "./plans.ts";
import type { ProviderEvent } from "./provider-events.ts";

export type SubscriptionRow = typeof subscriptions.$inferSelect;
type SubscriptionEvent = Extract<ProviderEvent, { kind: "subscription" }>;

/** Statuses in which the provider will not collect again: the plan ends now. */
const ENDED_STATUSES = new Set(["unpaid", "canceled", "incomplete_expired"]);

/**
 * The subscription `id`, known already or tied now to the plan payment its metadata names (which must be a plan
 * checkout of the same account, not tied to another subscription). Null: not one of ours.
 */
export const knownSubscription = async (
  ctx: Ctx,
  id: string,
  metadata: Record<string, string>,
): Promise<SubscriptionRow | null> => {
  const known = await ctx.db.query.subscriptions.findFirst({ where: eq(subscriptions.id, id) });
  if (known) return known;
  if (!metadata.paymentId) return null;
  const payment = await ctx.db.query.payments.findFirst({
    where: and(eq(payments.id, metadata.paymentId), eq(payments.kind, "plan")),
  });
  if (!payment?.planId || (payment.subscriptionId && payment.subscriptionId !== id)) return null;
  if (metadata.userId && metadata.userId !== payment.userId) return null;
  await linkSubscription(ctx, { id, userId: payment.userId, paymentId: payment.id, planId: payment.planId });
  return (await ctx.db.query.subscriptions.findFirst({ where: eq(subscriptions.id, id) })) ?? null;
};

/** Records a plan checkout's subscription (once) and ties the payment to it. */
export const linkSubscription = async (
  ctx: Ctx,
  subscription: { id: string; userId: string; paymentId: string; planId: string },
) => {
  await ctx.db.batch([
    ctx.db
      .insert(subscriptions)
      .values({ ...subscription, status: "active", createdAt: ctx.now() })
      .onConflictDoNothing(),
    ctx.db
      .update(payments)
      .set({ subscriptionId: subscription.id })
      .where(and(eq(payments.id, subscription.paymentId), isNull(payments.subscriptionId))),
  ]);
};

/**
 * Whether an event naming `customerId` may act on `account`: the account has that customer, or none yet and no
 * other account has it. An event mixing one account's subscription with another's customer changes nothing.
 */
export const ownsCustomer = async (ctx: Ctx, account: AccountRow, customerId: string | null) => {
  if (!customerId) return true;
  if (account.paymentCustomerId) return account.paymentCustomerId === customerId;
  const other = await ctx.db.query.users.findFirst({ where: eq(users.paymentCustomerId, customerId) });
  return !other;
};

/** The account a known subscription belongs to, when the event's customer is that account's. */
export const accountOf = async (ctx: Ctx, sub: SubscriptionRow, customerId: string | null) => {
  const account = await ctx.db.query.users.findFirst({ where: eq(users.id, sub.userId) });
  return account && (await ownsCustomer(ctx, account, customerId)) ? account : null;
};

/** `customer.subscription.updated` / `deleted`. */
export const onSubscriptionEvent = async (ctx: Ctx, event: SubscriptionEvent): Promise<boolean> => {
  const sub = await knownSubscription(ctx, event.subscriptionId, event.metadata);
  if (!sub) return false;
  const account = await accountOf(ctx, sub, event.customerId);
  if (!account) return false;
  const deleted = event.type === "customer.subscription.deleted";
  if (deleted || ENDED_STATUSES.has(event.status))
    return forceDowngrade(ctx, {
      userId: account.id,
      subscriptionId: sub.id,
      reason: deleted || event.status === "canceled" ? "subscription_ended" : "subscription_unpaid",
      ref: sub.id,
      allowance: "free",
      // An unpaid subscription still exists at the provider and could be paid later: end it there too.
      cancelAtProvider: !deleted && event.status === "unpaid",
    });
  if (event.type !== "customer.subscription.updated" || account.subscriptionId !== sub.id) return false;
  return scheduleProviderCancel(ctx, account.id, sub.id, event.cancelAtPeriodEnd);
};

/** Mirrors the provider's `cancel_at_period_end` as a pending move to the free plan (never over the owner's own). */
const scheduleProviderCancel = async (ctx: Ctx, userId: string, subscriptionId: string, cancel: boolean) => {
  const at = ctx.now();
  const result = cancel
    ? await ctx.d1
        .prepare(
          `UPDATE users SET pending_plan_id = ?3, pending_plan_reason = 'scheduled_cancel', updated_at = ?4
           WHERE id = ?1 AND subscription_id = ?2 AND pending_plan_id IS NULL`,
        )
        .bind(userId, subscriptionId, FREE_PLAN, at)
        .run()
    : await ctx.d1
        .prepare(
          `UPDATE users SET pending_plan_id = NULL, pending_plan_reason = NULL, updated_at = ?3
           WHERE id = ?1 AND subscription_id = ?2 AND pending_plan_reason = 'scheduled_cancel'`,
        )
        .bind(userId, subscriptionId, at)
        .run();
  return result.meta.changes === 1;
};
