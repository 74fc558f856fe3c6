/**
 * The history of plan changes (`plan_changes`): every change of an account's plan is one row, written in the D1
 * batch that changes the plan, with its reason (the owner and operators read why).
 */
import { desc, eq } from "drizzle-orm";
import type { Ctx } from "../context.ts";
import { planChanges, type PlanChangeReason } from "../db/schema.ts";
import { newId } from "../lib/ids.ts";
import { iso } from "../lib/time.ts";
import type { PlanChangeRecord } from "./schemas.ts";

/** Why, in a sentence for the owner. `scheduled_cancel` is a pending change's reason only. */
export const REASON_TEXT: Record<PlanChangeReason | "scheduled_cancel", string> = {
  upgrade: "the new plan's first invoice was paid",
  requested: "you asked for it",
  billed: "the renewal invoice was for this plan",
  scheduled_cancel: "the subscription is set to end at the end of the period at the payment provider",
  subscription_ended: "the subscription was ended at the payment provider",
  subscription_unpaid: "the payment provider marked the subscription unpaid",
  payment_failed: "the renewal could not be charged after the payment provider's last retry",
  refunded: "the plan's payment was refunded",
  disputed: "the plan's payment was disputed",
  lapsed: "no paid invoice renewed the plan within 30 days of the end of its period",
};

/**
 * The insert of a plan change from the account as it is (`u`) to `toPlan` (SQL over `u`; `?6` is `toPlanId`), only
 * when `where` (SQL over `u`) holds and the plan differs. `reasonSql` may pick another reason than `reason` (`?5`).
 * Binds: ?1 id, ?2 user, ?3 ref, ?4 at, ?5 reason, ?6 toPlanId, then `more` (?7...).
 */
export const planChangeRow = (
  d1: D1Database,
  change: {
    userId: string;
    toPlanId?: string;
    toPlan?: string;
    reason: PlanChangeReason;
    reasonSql?: string;
    ref: string | null;
    at: number;
    where: string;
  },
  ...more: (string | number | null)[]
) => {
  // D1 wants every bound parameter used: ?6 is always part of the target.
  const to = change.toPlan ? `coalesce(${change.toPlan}, ?6)` : "?6";
  return d1
    .prepare(
      `INSERT INTO plan_changes (id, user_id, from_plan_id, to_plan_id, reason, ref, created_at)
       SELECT ?1, u.id, u.plan_id, ${to}, ${change.reasonSql ?? "?5"}, ?3, ?4 FROM users u
       WHERE u.id = ?2 AND ${to} IS NOT NULL AND u.plan_id != ${to} AND (${change.where})`,
    )
    .bind(
      newId("pch"),
      change.userId,
      change.ref,
      change.at,
      change.reason,
      change.toPlanId ?? null,
      ...more,
    );
};

/** The account's latest plan change, as its owner sees it. */
export const latestPlanChange = async (ctx: Ctx, userId: string): Promise<PlanChangeRecord | null> => {
  const row = await ctx.db.query.planChanges.findFirst({
    where: eq(planChanges.userId, userId),
    orderBy: [desc(planChanges.createdAt), desc(planChanges.id)],
  });
  return row
    ? {
        from: row.fromPlanId,
        to: row.toPlanId,
        reason: row.reason,
        message: REASON_TEXT[row.reason],
        at: iso(row.createdAt)!,
      }
    : null;
};
