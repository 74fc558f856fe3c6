/** Delivery verbs: the log of an endpoint (no bodies), one delivery with its attempts, replay of a dead letter. */
import { and, asc, desc, eq } from "drizzle-orm";
import type * as v from "valibot";
import type { CallerCtx } from "../context.ts";
import { webhookAttempts, webhookDeliveries, webhookEvents } from "../db/schema.ts";
import { InvalidState } from "../lib/errors.ts";
import { endpointObject, getOwnedDelivery, getOwnedEndpoint } from "./lookup.ts";
import type { DeliveriesQuery, ReplayResult, WebhookDeliveryDetail, WebhookDeliveryList } from "./schemas.ts";
import { toAttempt, toDelivery } from "./serialize.ts";

export const listDeliveries = async (
  ctx: CallerCtx,
  input: { endpointId: string } & v.InferOutput<typeof DeliveriesQuery>,
): Promise<WebhookDeliveryList> => {
  const endpoint = await getOwnedEndpoint(ctx, input.endpointId, { callbacks: true });
  const rows = await ctx.db.query.webhookDeliveries.findMany({
    where: and(
      eq(webhookDeliveries.endpointId, endpoint.id),
      eq(webhookDeliveries.userId, ctx.caller.userId),
      input.status ? eq(webhookDeliveries.status, input.status) : undefined,
    ),
    orderBy: [desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id)],
    limit: input.limit,
  });
  return rows.map(toDelivery);
};

/** One delivery with the event body as stored and every attempt (status, responseStatus, duration, error, time). */
export const getDelivery = async (
  ctx: CallerCtx,
  input: { endpointId: string; deliveryId: string },
): Promise<WebhookDeliveryDetail> => {
  const delivery = await getOwnedDelivery(ctx, input.endpointId, input.deliveryId);
  const [event, attempts] = await Promise.all([
    ctx.db.query.webhookEvents.findFirst({
      where: and(eq(webhookEvents.id, delivery.eventId), eq(webhookEvents.userId, ctx.caller.userId)),
    }),
    ctx.db.query.webhookAttempts.findMany({
      where: eq(webhookAttempts.deliveryId, delivery.id),
      orderBy: [asc(webhookAttempts.attempt)],
    }),
  ]);
  return {
    ...toDelivery(delivery),
    event: event ? { id: event.id, type: event.type, jobId: event.jobId } : null,
    attemptLog: attempts.map(toAttempt),
  };
};

/**
 * A dead-lettered delivery starts a new round of the schedule, with the same `webhook-id`. Any other status is not
 * replayed (`replayed: false`); an endpoint that is disabled must be enabled first.
 */
export const replayDelivery = async (
  ctx: CallerCtx,
  input: { endpointId: string; deliveryId: string },
): Promise<ReplayResult> => {
  const endpoint = await getOwnedEndpoint(ctx, input.endpointId, { callbacks: true });
  const delivery = await getOwnedDelivery(ctx, endpoint.id, input.deliveryId);
  if (!endpoint.active)
    throw new InvalidState("The endpoint is disabled: enable it (PATCH active: true) before replaying");
  const at = ctx.now();
  const [claimed] = await ctx.db
    .update(webhookDeliveries)
    .set({ status: "pending", nextAttemptAt: at, handedOffAt: null, updatedAt: at })
    .where(
      and(
        eq(webhookDeliveries.id, delivery.id),
        eq(webhookDeliveries.userId, ctx.caller.userId),
        eq(webhookDeliveries.status, "dead_letter"),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  if (!claimed) return { replayed: false, status: delivery.status };
  // The object marks it handed over when it records the attempt; if this call is lost, the cron hands it over.
  await endpointObject(ctx, endpoint.id).enqueue([{ id: delivery.id, endpointId: endpoint.id }]);
  return { replayed: true, status: "pending" };
};
