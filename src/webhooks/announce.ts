/**
 * Hand-over of new deliveries to their endpoints' objects. The deliveries are already in D1 (written in the
 * transition's batch), so this is an optimisation of latency, never of durability: when it fails (the object is
 * unreachable, the Worker dies first) the cron's `handOverMissed` finds the delivery without `handed_off_at` and
 * hands it over then. The object ignores a delivery it already holds.
 */
import type { Ctx } from "../context.ts";
import type { NewDelivery } from "./events.ts";
import { endpointObject } from "./lookup.ts";
import { RETENTION_MS } from "./limits.ts";

/** Deliveries older than this without a hand-over are the cron's to hand over. */
export const HAND_OVER_GRACE_MS = 60_000;

/**
 * Gives each endpoint's object its new deliveries; logs (never throws) on failure. The object marks them handed over
 * (`handed_off_at`) with its first record of them, which keeps a D1 write off the transition's path.
 */
export const handOver = async (ctx: Ctx, deliveries: readonly NewDelivery[]): Promise<void> => {
  if (deliveries.length === 0) return;
  const byEndpoint = new Map<string, NewDelivery[]>();
  for (const delivery of deliveries)
    byEndpoint.set(delivery.endpointId, [...(byEndpoint.get(delivery.endpointId) ?? []), delivery]);
  await Promise.all(
    [...byEndpoint].map(async ([endpointId, items]) => {
      try {
        await endpointObject(ctx, endpointId).enqueue(
          items.map((delivery) => ({ id: delivery.id, endpointId })),
        );
      } catch (e) {
        console.error(
          JSON.stringify({ level: "error", msg: "webhook hand-over failed", endpointId, error: String(e) }),
        );
      }
    }),
  );
};

/** Cron: hands over pending deliveries that no object took (the Worker died between commit and hand-over). */
export const handOverMissed = async (ctx: Ctx): Promise<number> => {
  const { results } = await ctx.d1
    .prepare(
      `SELECT id, endpoint_id AS endpointId FROM webhook_deliveries
       WHERE handed_off_at IS NULL AND created_at <= ?1 AND status = 'pending' ORDER BY created_at LIMIT 500`,
    )
    .bind(ctx.now() - HAND_OVER_GRACE_MS)
    .all<NewDelivery>();
  await handOver(ctx, results);
  return results.length;
};

/** Cron: deletes finished deliveries (and events left without any) older than RETENTION_MS. */
export const pruneWebhookLog = async (ctx: Ctx): Promise<number> => {
  const before = ctx.now() - RETENTION_MS;
  const [deliveries] = await ctx.d1.batch([
    ctx.d1
      .prepare("DELETE FROM webhook_deliveries WHERE created_at < ?1 AND status != 'pending'")
      .bind(before),
    ctx.d1
      .prepare(
        `DELETE FROM webhook_events WHERE created_at < ?1
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)`,
      )
      .bind(before),
  ]);
  return deliveries?.meta.changes ?? 0;
};
