/**
 * Helpers of the v2 webhook tests: the loopback receiver (test/webhook-receiver.ts), endpoint creation through
 * the API, Standard Webhooks verification with the `standardwebhooks` package, and the endpoint object's alarm
 * driven by the test tools (due times moved to now, then runDurableObjectAlarm) instead of waiting for the clock.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { expect, inject } from "vitest";
import type { Received } from "../../webhook-receiver.ts";
import type { WebhookEndpoint } from "../../../src/webhooks/endpoint-object.ts";
import { until } from "../../poll.ts";
import { body, call, json } from "../helpers.ts";

export type { Received };

let boxes = 0;
/** A fresh receiver box and its URL; `params` set the receiver's behaviour (fail, status, retryAfter, redirect, delay). */
export const newBox = (params: Record<string, string | number> = {}) => {
  const box = `box${Date.now()}${boxes++}${Math.random().toString(36).slice(2, 8)}`;
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  const port = inject("webhookReceiverPort");
  return { box, url: `http://127.0.0.1:${port}/hook/${box}${query ? `?${query}` : ""}` };
};

/** What the receiver got in `box`, in arrival order. */
export const received = async (box: string): Promise<Received[]> =>
  (await fetch(`http://127.0.0.1:${inject("webhookReceiverPort")}/__box/${box}`)).json();

/** Waits until `box` has received at least `n` requests. */
export const receivedAtLeast = (box: string, n: number) =>
  until(
    `${n} deliveries in ${box}`,
    async () => {
      const list = await received(box);
      return list.length >= n ? list : undefined;
    },
    10_000,
    25,
  );

export interface CreatedEndpoint {
  id: string;
  secret: string;
  url: string;
  eventTypes: string[];
  active: boolean;
}

export const ALL_EVENTS = ["render.started", "render.completed", "render.failed", "render.cancelled"];

/** Creates an endpoint through the API (201 expected). */
export const createEndpoint = async (
  key: string,
  url: string,
  eventTypes: string[] = ALL_EVENTS,
): Promise<CreatedEndpoint> => {
  const res = await call("/api/v2/webhooks", json("POST", { name: "test hook", url, eventTypes }, key));
  const b = await body<CreatedEndpoint>(res);
  expect(res.status, JSON.stringify(b)).toBe(201);
  return b.data!;
};

/** Verifies one delivery with the `standardwebhooks` package (throws when the signature does not hold). */
export const verify = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, {
    "webhook-id": r.id,
    "webhook-timestamp": r.timestamp,
    "webhook-signature": r.signature,
  }) as { type: string; timestamp: string; data: Record<string, unknown> };

export const endpointStub = (id: string) =>
  (env.WEBHOOK_ENDPOINTS as DurableObjectNamespace<WebhookEndpoint>).getByName(id);

/** Makes every queued delivery of the endpoint due now (time passing) and runs its alarm. */
export const fastForward = async (endpointId: string) => {
  const stub = endpointStub(endpointId);
  await runInDurableObject(stub, (_instance, state) => {
    state.storage.sql.exec("UPDATE queue SET due_at = 0");
  });
  return runDurableObjectAlarm(stub);
};

/** A delivery row as D1 holds it. */
export const deliveryRows = async (endpointId: string) =>
  (
    await env.DB.prepare("SELECT * FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY created_at, id")
      .bind(endpointId)
      .all<Record<string, unknown>>()
  ).results;

/** Waits until the endpoint's deliveries all satisfy `done`. */
export const deliveriesWhere = (
  endpointId: string,
  n: number,
  done: (row: Record<string, unknown>) => boolean,
) =>
  until(
    `${n} deliveries of ${endpointId} to settle`,
    async () => {
      const rows = await deliveryRows(endpointId);
      return rows.length >= n && rows.every(done) ? rows : undefined;
    },
    10_000,
    25,
  );
