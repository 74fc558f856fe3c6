/**
 * Per-job callbacks: a job created with a `webhookUrl` has its render events delivered there too. They travel the
 * way every delivery does: the account's one job-callback endpoint (`kind = 'callback'`, created on first use and
 * never listed with the registered endpoints) is an endpoint row with its own Durable Object, schedule, delivery log
 * and signing secret; each of its deliveries carries the job's URL (events.ts). So a job callback is signed
 * (Standard Webhooks, the account's callback secret, which `GET /api/v2/webhooks/job-callbacks` shows), retried,
 * dead-lettered and replayed like any delivery, and its URL is judged by the endpoint policy (the SSRF guard) when
 * the job is created and again before every attempt.
 */
import { and, eq } from "drizzle-orm";
import type { CallerCtx, Ctx } from "../context.ts";
import { webhookEndpoints } from "../db/schema.ts";
import type { FieldError } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { iso } from "../lib/time.ts";
import { RENDER_EVENT_TYPES } from "./events.ts";
import type { JobCallbacks } from "./schemas.ts";
import { newEndpointSecret, openEndpointSecret } from "./signature.ts";
import { endpointUrlRefusal, type Send } from "./url-policy.ts";

/** The longest `webhookUrl` a job may name (the same bound as an endpoint's URL). */
export const MAX_CALLBACK_URL_LENGTH = 2048;

const callbackRow = (ctx: Ctx, userId: string) =>
  ctx.db.query.webhookEndpoints.findFirst({
    where: and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.kind, "callback")),
  });

/**
 * The account's job-callback endpoint, created on first use: two first uses at once insert one row (a unique index
 * per account), and both answer it.
 */
export const callbackEndpoint = async (ctx: Ctx, userId: string) => {
  const existing = await callbackRow(ctx, userId);
  if (existing) return existing;
  const id = newId("whe");
  const secret = await newEndpointSecret(ctx.env, id);
  const at = ctx.now();
  await ctx.db
    .insert(webhookEndpoints)
    .values({
      id,
      userId,
      kind: "callback",
      name: "Job callbacks",
      url: "",
      // Not a subscription: the fan-out sends a job's render events here when the job named a webhookUrl.
      eventTypes: [],
      active: true,
      secret: secret.stored,
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing()
    .run();
  const row = await callbackRow(ctx, userId);
  if (!row) throw new Error("the job-callback endpoint could not be created");
  return row;
};

/**
 * The field errors of a job's `webhookUrl` (field `webhookUrl`): not a string or too long (`VALIDATION_ERROR`), or
 * refused by the endpoint policy (`URL_NOT_ALLOWED`: https on a public address; loopback in development only).
 */
export const callbackUrlErrors = async (ctx: Ctx, url: unknown, send?: Send): Promise<FieldError[]> => {
  if (url === undefined) return [];
  if (typeof url !== "string" || url.trim() === "")
    return [{ field: "webhookUrl", message: "webhookUrl must be a URL", code: "VALIDATION_ERROR" }];
  if (url.length > MAX_CALLBACK_URL_LENGTH)
    return [
      {
        field: "webhookUrl",
        message: `webhookUrl must be at most ${MAX_CALLBACK_URL_LENGTH} characters`,
        code: "VALIDATION_ERROR",
      },
    ];
  const refusal = await endpointUrlRefusal(ctx.env, url, send).catch(() => "the URL could not be checked");
  return refusal
    ? [{ field: "webhookUrl", message: `URL not allowed: ${refusal}`, code: "URL_NOT_ALLOWED" }]
    : [];
};

/**
 * GET /api/v2/webhooks/job-callbacks: the account's job-callback endpoint (created on first read) with its signing
 * secret, which receivers of job callbacks verify with; rotate it with POST /api/v2/webhooks/{id}/rotate-secret.
 */
export const readJobCallbacks = async (ctx: CallerCtx): Promise<JobCallbacks> => {
  const row = await callbackEndpoint(ctx, ctx.caller.userId);
  return {
    id: row.id,
    secret: await openEndpointSecret(ctx.env, row.id, row.secret),
    previousSecretExpiresAt:
      row.previousSecret && (row.previousSecretExpiresAt ?? 0) > ctx.now()
        ? iso(row.previousSecretExpiresAt)
        : null,
    eventTypes: [...RENDER_EVENT_TYPES],
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
  };
};
