/**
 * /api/v2/webhooks: render webhook endpoints and their delivery log. An API key (x-api-key) or the owner's
 * session; scopes per the spec's table (renders:create manages endpoints, operations:read reads deliveries,
 * operations:cancel replays). Another account's endpoint or delivery is a 404 on every route.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { callerCtx, requireKeyOrSession } from "../auth/api-key.ts";
import { requireScope } from "../auth/scopes.ts";
import { Deleted, ok } from "../lib/envelope.ts";
import { jsonBody, parseOrThrow, queryParams, readJson } from "../lib/validate.ts";
import { getDelivery, listDeliveries, replayDelivery } from "./deliveries.ts";
import { readJobCallbacks } from "./job-callbacks.ts";
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from "./manage-endpoints.ts";
import {
  CreateEndpointBody,
  DeliveriesQuery,
  JobCallbacks,
  QueuedTestEvent,
  ReplayResult,
  RotatedSecret,
  RotateSecretBody,
  TestEventBody,
  UpdateEndpointBody,
  WebhookDeliveryDetail,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookEndpointList,
} from "./schemas.ts";
import { getOwnedEndpoint } from "./lookup.ts";
import { sendTestEvent } from "./send-test.ts";
import type { Context } from "hono";
import type * as v from "valibot";
import { describe } from "../lib/openapi-route.ts";

/**
 * The optional JSON body of a route on endpoint `:id`: none (no content type and no bytes) reads as `{}`. The
 * endpoint's owner is checked first, so another account's id is a 404 whatever the body holds.
 */
const endpointBody = async <S extends v.GenericSchema>(
  c: Context<AppEnv>,
  schema: S,
  opts: { callbacks?: boolean } = {},
) => {
  await getOwnedEndpoint(callerCtx(c), c.req.param("id")!, opts);
  const empty = !c.req.header("content-type") && (c.req.header("content-length") ?? "0") === "0";
  return parseOrThrow(schema, empty ? {} : await readJson(c));
};

const manage = requireScope("renders:create");

export const webhookRoutes = new Hono<AppEnv>()
  .use(requireKeyOrSession)
  .get(
    "/",
    manage,
    describe({
      operationId: "listWebhookEndpoints",
      tag: "Webhooks",
      summary: "List your webhook endpoints (scope renders:create)",
      ok: { status: 200, description: "The endpoints, without secrets", data: WebhookEndpointList },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await listEndpoints(callerCtx(c))),
  )
  .post(
    "/",
    manage,
    describe({
      operationId: "createWebhookEndpoint",
      tag: "Webhooks",
      summary: "Create a webhook endpoint (scope renders:create)",
      description:
        "An https URL (checked by the SSRF guard now and at every send), the eventTypes to receive, active. The signing secret `whsec_...` is in this answer once.",
      body: CreateEndpointBody,
      ok: {
        status: 201,
        description: "The endpoint and its `secret` (shown once)",
        data: WebhookEndpointCreated,
      },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) =>
      ok(
        c,
        await createEndpoint(callerCtx(c), await jsonBody(c, CreateEndpointBody)),
        201,
        "Store the signing secret now: it is shown once",
      ),
  )
  // Before `/:id`: a fixed path.
  .get(
    "/job-callbacks",
    manage,
    describe({
      operationId: "getJobCallbacks",
      tag: "Webhooks",
      summary: "The signing secret and log id of job callbacks (scope renders:create)",
      description:
        "A job created with `webhookUrl` (POST /api/v1/jobs, POST /api/v2/templates/{id}/renders) gets its render " +
        "events there, signed with this account-wide secret and retried like any delivery. Created on first use. " +
        "Its `id` reads the log (GET /api/v2/webhooks/{id}/deliveries, replay) and rotates the secret " +
        "(POST /api/v2/webhooks/{id}/rotate-secret).",
      ok: { status: 200, description: "The job-callback endpoint with its secret", data: JobCallbacks },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await readJobCallbacks(callerCtx(c))),
  )
  .get(
    "/:id",
    manage,
    describe({
      operationId: "getWebhookEndpoint",
      tag: "Webhooks",
      summary: "Read an endpoint (scope renders:create)",
      ok: { status: 200, description: "The endpoint, without its secret", data: WebhookEndpoint },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await getEndpoint(callerCtx(c), c.req.param("id"))),
  )
  .patch(
    "/:id",
    manage,
    describe({
      operationId: "updateWebhookEndpoint",
      tag: "Webhooks",
      summary: "Update or disable an endpoint (scope renders:create)",
      body: UpdateEndpointBody,
      ok: { status: 200, description: "The endpoint", data: WebhookEndpoint },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) =>
      ok(c, await updateEndpoint(callerCtx(c), { id: c.req.param("id"), body: () => readJson(c) })),
  )
  .delete(
    "/:id",
    manage,
    describe({
      operationId: "deleteWebhookEndpoint",
      tag: "Webhooks",
      summary: "Delete an endpoint (scope renders:create)",
      ok: { status: 200, description: "`id`, `deleted`", data: Deleted },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await deleteEndpoint(callerCtx(c), c.req.param("id"))),
  )
  .post(
    "/:id/test",
    manage,
    describe({
      operationId: "sendWebhookTestEvent",
      tag: "Webhooks",
      summary: "Queue a signed test event (scope renders:create)",
      body: TestEventBody,
      bodyOptional: true,
      ok: { status: 202, description: "The queued delivery", data: QueuedTestEvent },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) =>
      ok(
        c,
        await sendTestEvent(callerCtx(c), {
          endpointId: c.req.param("id"),
          ...(await endpointBody(c, TestEventBody)),
        }),
        202,
      ),
  )
  .post(
    "/:id/rotate-secret",
    manage,
    describe({
      operationId: "rotateWebhookSecret",
      tag: "Webhooks",
      summary: "Rotate the signing secret (scope renders:create)",
      description: "The old secret keeps signing alongside the new one for the grace period.",
      body: RotateSecretBody,
      bodyOptional: true,
      ok: {
        status: 200,
        description: "The new `secret` (shown once) and when the old one stops",
        data: RotatedSecret,
      },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) =>
      ok(
        c,
        await rotateSecret(callerCtx(c), {
          id: c.req.param("id"),
          ...(await endpointBody(c, RotateSecretBody, { callbacks: true })),
        }),
        200,
        "Store the new signing secret now: it is shown once",
      ),
  )
  .get(
    "/:id/deliveries",
    requireScope("operations:read"),
    describe({
      operationId: "listWebhookDeliveries",
      tag: "Webhooks",
      summary: "List an endpoint's deliveries, without bodies (scope operations:read)",
      query: DeliveriesQuery,
      ok: { status: 200, description: "The deliveries, newest first", data: WebhookDeliveryList },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) =>
      ok(
        c,
        await listDeliveries(callerCtx(c), {
          endpointId: c.req.param("id"),
          ...queryParams(c, DeliveriesQuery),
        }),
      ),
  )
  .get(
    "/:id/deliveries/:deliveryId",
    requireScope("operations:read"),
    describe({
      operationId: "getWebhookDelivery",
      tag: "Webhooks",
      summary: "One delivery with its attempts (scope operations:read)",
      ok: {
        status: 200,
        description: "The delivery: status, attempts (responseStatus, duration, error, time)",
        data: WebhookDeliveryDetail,
      },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) =>
      ok(
        c,
        await getDelivery(callerCtx(c), {
          endpointId: c.req.param("id"),
          deliveryId: c.req.param("deliveryId"),
        }),
      ),
  )
  .post(
    "/:id/deliveries/:deliveryId/replay",
    requireScope("operations:cancel"),
    describe({
      operationId: "replayWebhookDelivery",
      tag: "Webhooks",
      summary: "Replay a dead-lettered delivery (scope operations:cancel)",
      ok: { status: 200, description: "`replayed` and the delivery's status", data: ReplayResult },
      errors: [400],
      rateLimit: "general",
      mcp: false,
    }),
    async (c) =>
      ok(
        c,
        await replayDelivery(callerCtx(c), {
          endpointId: c.req.param("id"),
          deliveryId: c.req.param("deliveryId"),
        }),
      ),
  );
