/**
 * /api/v2/webhooks: render webhook endpoints and their delivery log. An API key (x-api-key) or the owner's
 * session; scopes per the spec's table (renders:create manages endpoints, operations:read reads deliveries,
 * operations:cancel replays). Another account's endpoint or delivery is a 404 on every route.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { callerCtx, requireKeyOrSession } from "../auth/api-key";
import { requireScope } from "../auth/scopes";
import { ok } from "../lib/envelope";
import { jsonBody, parseOrThrow, queryParams, readJson } from "../lib/validate";
import { getDelivery, listDeliveries, replayDelivery } from "./deliveries";
import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from "./manage-endpoints";
import { CreateEndpointBody, DeliveriesQuery, RotateSecretBody, TestEventBody } from "./schemas";
import { sendTestEvent } from "./send-test";
import type { Context } from "hono";
import type * as v from "valibot";

/** An optional JSON body: none (no content type and no bytes) reads as `{}`. */
const optionalJson = async <S extends v.GenericSchema>(c: Context<AppEnv>, schema: S) => {
  const empty = !c.req.header("content-type") && (c.req.header("content-length") ?? "0") === "0";
  return parseOrThrow(schema, empty ? {} : await readJson(c));
};

const manage = requireScope("renders:create");

export const webhookRoutes = new Hono<AppEnv>()
  .use(requireKeyOrSession)
  .get("/", manage, async (c) => ok(c, await listEndpoints(callerCtx(c))))
  .post("/", manage, async (c) =>
    ok(
      c,
      await createEndpoint(callerCtx(c), await jsonBody(c, CreateEndpointBody)),
      201,
      "Store the signing secret now: it is shown once",
    ),
  )
  .patch("/:id", manage, async (c) =>
    ok(c, await updateEndpoint(callerCtx(c), { id: c.req.param("id"), body: () => readJson(c) })),
  )
  .delete("/:id", manage, async (c) => ok(c, await deleteEndpoint(callerCtx(c), c.req.param("id"))))
  .post("/:id/test", manage, async (c) =>
    ok(
      c,
      await sendTestEvent(callerCtx(c), {
        endpointId: c.req.param("id"),
        ...(await optionalJson(c, TestEventBody)),
      }),
      202,
    ),
  )
  .post("/:id/rotate-secret", manage, async (c) =>
    ok(
      c,
      await rotateSecret(callerCtx(c), {
        id: c.req.param("id"),
        ...(await optionalJson(c, RotateSecretBody)),
      }),
      200,
      "Store the new signing secret now: it is shown once",
    ),
  )
  .get("/:id/deliveries", requireScope("operations:read"), async (c) =>
    ok(
      c,
      await listDeliveries(callerCtx(c), {
        endpointId: c.req.param("id"),
        ...queryParams(c, DeliveriesQuery),
      }),
    ),
  )
  .get("/:id/deliveries/:deliveryId", requireScope("operations:read"), async (c) =>
    ok(
      c,
      await getDelivery(callerCtx(c), {
        endpointId: c.req.param("id"),
        deliveryId: c.req.param("deliveryId"),
      }),
    ),
  )
  .post("/:id/deliveries/:deliveryId/replay", requireScope("operations:cancel"), async (c) =>
    ok(
      c,
      await replayDelivery(callerCtx(c), {
        endpointId: c.req.param("id"),
        deliveryId: c.req.param("deliveryId"),
      }),
    ),
  );
