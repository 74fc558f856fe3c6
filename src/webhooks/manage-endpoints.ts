/**
 * Endpoint verbs: create (the secret is answered once), list, update or disable, delete, rotate the secret.
 * Every query is scoped to the caller; the URL passes the endpoint policy (SSRF guard) whenever it is set.
 */
import { and, asc, count, eq } from "drizzle-orm";
import type * as v from "valibot";
import type { CallerCtx } from "../context.ts";
import { webhookEndpoints } from "../db/schema.ts";
import { ValidationFailed } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { parseOrThrow } from "../lib/validate.ts";
import { iso } from "../lib/time.ts";
import { assertEndpointUrl, endpointObject, getOwnedEndpoint } from "./lookup.ts";
import { DEFAULT_ROTATION_GRACE_SECONDS, MAX_ENDPOINTS_PER_ACCOUNT } from "./limits.ts";
import {
  UpdateEndpointBody,
  type CreateEndpointBody,
  type RotatedSecret,
  type RotateSecretBody,
  type WebhookEndpoint,
  type WebhookEndpointCreated,
} from "./schemas.ts";
import type { Deleted } from "../lib/envelope.ts";
import { toEndpoint } from "./serialize.ts";
import { newEndpointSecret } from "./signature.ts";
import type { Send } from "./url-policy.ts";

export const createEndpoint = async (
  ctx: CallerCtx,
  input: v.InferOutput<typeof CreateEndpointBody> & { send?: Send },
): Promise<WebhookEndpointCreated> => {
  const { userId } = ctx.caller;
  const [existing] = await ctx.db
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.kind, "endpoint")));
  if ((existing?.n ?? 0) >= MAX_ENDPOINTS_PER_ACCOUNT)
    throw new ValidationFailed(
      [
        {
          field: "url",
          message: `An account may have at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one first`,
          code: "TOO_MANY_ENDPOINTS",
        },
      ],
      "Too many webhook endpoints",
    );
  await assertEndpointUrl(ctx, input.url, input.send);
  const at = ctx.now();
  const id = newId("whe");
  const secret = await newEndpointSecret(ctx.env, id);
  const [row] = await ctx.db
    .insert(webhookEndpoints)
    .values({
      id,
      userId,
      name: input.name,
      url: input.url,
      eventTypes: input.eventTypes,
      active: input.active,
      secret: secret.stored,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  return { ...toEndpoint(row!), secret: secret.plain };
};

/** One registered endpoint (GET /api/v2/webhooks/{id}), without its secret. */
export const getEndpoint = async (ctx: CallerCtx, id: string): Promise<WebhookEndpoint> =>
  toEndpoint(await getOwnedEndpoint(ctx, id));

export const listEndpoints = async (ctx: CallerCtx): Promise<WebhookEndpoint[]> =>
  (
    await ctx.db.query.webhookEndpoints.findMany({
      where: and(eq(webhookEndpoints.userId, ctx.caller.userId), eq(webhookEndpoints.kind, "endpoint")),
      orderBy: [asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id)],
    })
  ).map(toEndpoint);

/**
 * `body` is read and validated after the lookup, so another account's endpoint is a 404 whatever the request
 * carries (even a malformed body).
 */
export const updateEndpoint = async (
  ctx: CallerCtx,
  { id, body, send }: { id: string; body: () => Promise<unknown>; send?: Send },
): Promise<WebhookEndpoint> => {
  const current = await getOwnedEndpoint(ctx, id);
  const input = { ...parseOrThrow(UpdateEndpointBody, await body()), send };
  if (input.url !== undefined) await assertEndpointUrl(ctx, input.url, input.send);
  // Enabling again clears the service's reason and restarts the auto-disable clock.
  const enabling = input.active === true && !current.active;
  const [row] = await ctx.db
    .update(webhookEndpoints)
    .set({
      ...(input.name !== undefined && { name: input.name }),
      ...(input.url !== undefined && { url: input.url }),
      ...(input.eventTypes !== undefined && { eventTypes: input.eventTypes }),
      ...(input.active !== undefined && { active: input.active }),
      ...(enabling && { disabledReason: null, failingSince: null }),
      updatedAt: ctx.now(),
    })
    .where(and(eq(webhookEndpoints.id, current.id), eq(webhookEndpoints.userId, ctx.caller.userId)))
    .returning();
  return toEndpoint(row!);
};

/** Deletes the endpoint with its deliveries (cascade) and empties its object. */
export const deleteEndpoint = async (ctx: CallerCtx, id: string): Promise<Deleted> => {
  const current = await getOwnedEndpoint(ctx, id);
  await ctx.db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, current.id), eq(webhookEndpoints.userId, ctx.caller.userId)));
  // Best effort: an object that misses this forgets the deliveries itself when it finds the endpoint gone.
  await endpointObject(ctx, current.id)
    .forget()
    .catch(() => undefined);
  return { id: current.id, deleted: true };
};

/**
 * A new secret signs from now on; the previous one keeps signing beside it for `graceSeconds` (default a day), so
 * receivers can deploy the new secret without rejecting a delivery in between.
 */
export const rotateSecret = async (
  ctx: CallerCtx,
  input: { id: string } & v.InferOutput<typeof RotateSecretBody>,
): Promise<RotatedSecret> => {
  const current = await getOwnedEndpoint(ctx, input.id, { callbacks: true });
  const at = ctx.now();
  const grace = input.graceSeconds ?? DEFAULT_ROTATION_GRACE_SECONDS;
  const expiresAt = grace > 0 ? at + grace * 1000 : null;
  const secret = await newEndpointSecret(ctx.env, current.id);
  const [row] = await ctx.db
    .update(webhookEndpoints)
    .set({
      secret: secret.stored,
      // Still sealed to this endpoint: it moves as stored.
      previousSecret: expiresAt === null ? null : current.secret,
      previousSecretExpiresAt: expiresAt,
      updatedAt: at,
    })
    .where(and(eq(webhookEndpoints.id, current.id), eq(webhookEndpoints.userId, ctx.caller.userId)))
    .returning();
  return { id: row!.id, secret: secret.plain, previousSecretExpiresAt: iso(expiresAt) };
};
