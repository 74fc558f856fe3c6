/** Fetch-or-throw helpers of the webhooks domain; every lookup is scoped to the caller's account. */
import { and, eq } from "drizzle-orm";
import type { CallerCtx, Ctx } from "../context.ts";
import { webhookDeliveries, webhookEndpoints } from "../db/schema.ts";
import { NotFound, ValidationFailed } from "../lib/errors.ts";
import type { WebhookEndpoint } from "./endpoint-object.ts";
import { endpointUrlRefusal, type Send } from "./url-policy.ts";

/**
 * The caller's registered endpoint `id`. With `callbacks`, the account's job-callback endpoint too (job-callbacks.ts):
 * its log and its secret are read and rotated by the same routes, but it is no registered endpoint (it is not
 * listed, read, edited, tested or deleted as one: a 404 there).
 */
export const getOwnedEndpoint = async (ctx: CallerCtx, id: string, opts: { callbacks?: boolean } = {}) => {
  const row = await ctx.db.query.webhookEndpoints.findFirst({
    where: and(
      eq(webhookEndpoints.id, id),
      eq(webhookEndpoints.userId, ctx.caller.userId),
      opts.callbacks ? undefined : eq(webhookEndpoints.kind, "endpoint"),
    ),
  });
  if (!row) throw new NotFound("Webhook endpoint");
  return row;
};

export const getOwnedDelivery = async (ctx: CallerCtx, endpointId: string, deliveryId: string) => {
  const row = await ctx.db.query.webhookDeliveries.findFirst({
    where: and(
      eq(webhookDeliveries.id, deliveryId),
      eq(webhookDeliveries.endpointId, endpointId),
      eq(webhookDeliveries.userId, ctx.caller.userId),
    ),
  });
  if (!row) throw new NotFound("Webhook delivery");
  return row;
};

/** 400 naming `url` when the endpoint policy refuses it. */
export const assertEndpointUrl = async (ctx: Ctx, url: string, send?: Send) => {
  const refusal = await endpointUrlRefusal(ctx.env, url, send);
  if (refusal)
    throw new ValidationFailed(
      [{ field: "url", message: `URL not allowed: ${refusal}`, code: "URL_NOT_ALLOWED" }],
      "URL not allowed",
    );
};

/** The object of endpoint `id`. */
export const endpointObject = (ctx: Ctx, id: string) =>
  (ctx.env.WEBHOOK_ENDPOINTS as DurableObjectNamespace<WebhookEndpoint>).getByName(id);
