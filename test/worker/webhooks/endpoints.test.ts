import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { createApiKey } from "../../../src/keys/create-api-key.ts";
import { body, call, json, newAccount, testCtx } from "../helpers.ts";
import {
  createEndpoint,
  deliveriesWhere,
  endpointStub,
  newBox,
  received,
  receivedAtLeast,
  verify,
} from "./support.ts";

const get = (path: string, key: string) => call(path, { headers: { "x-api-key": key } });

describe("webhook endpoints", () => {
  it("answers the signing secret once, at creation, and lists endpoints without it", async () => {
    const { key } = await newAccount();
    const { url } = newBox();
    const res = await call(
      "/api/v2/webhooks",
      json("POST", { name: "orders", url, eventTypes: ["render.completed", "render.completed"] }, key),
    );
    expect(res.status).toBe(201);
    const created = await body<Record<string, unknown>>(res);
    expect(created.message).toMatch(/shown once/);
    expect(created.data).toMatchObject({
      name: "orders",
      url,
      eventTypes: ["render.completed"],
      active: true,
      disabledReason: null,
    });
    expect(String(created.data!.secret)).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(String(created.data!.id)).toMatch(/^whe_/);

    // D1 holds it sealed to this endpoint, never in clear.
    const stored = await env.DB.prepare("SELECT secret FROM webhook_endpoints WHERE id = ?")
      .bind(created.data!.id)
      .first<{ secret: string }>();
    expect(stored!.secret).toMatch(/^sealed\.v1\./);
    expect(stored!.secret).not.toContain(String(created.data!.secret).slice(6));

    const listed = await body<Array<Record<string, unknown>>>(await get("/api/v2/webhooks", key));
    const record: Record<string, unknown> = { ...created.data };
    delete record.secret;
    expect(listed.data).toEqual([record]);
  });

  it("reads one endpoint by id without its secret; another account's, a deleted one or none is a 404", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const created = await createEndpoint(owner.key, newBox().url, ["render.failed"]);
    const res = await get(`/api/v2/webhooks/${created.id}`, owner.key);
    expect(res.status).toBe(200);
    const read = (await body<Record<string, unknown>>(res)).data!;
    expect(read).toEqual({
      id: created.id,
      name: "test hook",
      url: created.url,
      eventTypes: ["render.failed"],
      active: true,
      disabledReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(read).not.toHaveProperty("secret");
    expect((await get(`/api/v2/webhooks/${created.id}`, other.key)).status).toBe(404);
    expect((await get("/api/v2/webhooks/whe_nope", owner.key)).status).toBe(404);
    await call(`/api/v2/webhooks/${created.id}`, { method: "DELETE", headers: { "x-api-key": owner.key } });
    expect((await get(`/api/v2/webhooks/${created.id}`, owner.key)).status).toBe(404);
    const theirs = await createEndpoint(owner.key, newBox().url);
    const readOnly = (
      await createApiKey(testCtx(), {
        userId: owner.userId,
        name: "reader",
        permissions: [{ resource: "jobs", action: "read" }],
      })
    ).key;
    const refused = await get(`/api/v2/webhooks/${theirs.id}`, readOnly);
    expect(refused.status).toBe(403);
    expect((await body(refused)).details).toMatchObject({ requiredScope: "renders:create" });
  });

  it("updates, disables and re-enables an endpoint", async () => {
    const { key } = await newAccount();
    const endpoint = await createEndpoint(key, newBox().url);
    const { url } = newBox();
    const res = await call(
      `/api/v2/webhooks/${endpoint.id}`,
      json("PATCH", { name: "renamed", url, eventTypes: ["render.failed"], active: false }, key),
    );
    expect(res.status).toBe(200);
    expect((await body(res)).data).toMatchObject({
      name: "renamed",
      url,
      eventTypes: ["render.failed"],
      active: false,
    });
    await env.DB.prepare("UPDATE webhook_endpoints SET disabled_reason = 'x', failing_since = 1 WHERE id = ?")
      .bind(endpoint.id)
      .run();
    const enabled = await body(
      await call(`/api/v2/webhooks/${endpoint.id}`, json("PATCH", { active: true }, key)),
    );
    expect(enabled.data).toMatchObject({ active: true, disabledReason: null });
  });

  it("deletes an endpoint with its deliveries and empties its object", async () => {
    const { key } = await newAccount();
    const endpoint = await createEndpoint(key, newBox({ fail: 5 }).url);
    await call(`/api/v2/webhooks/${endpoint.id}/test`, { method: "POST", headers: { "x-api-key": key } });
    await deliveriesWhere(endpoint.id, 1, (r) => Number(r.attempts) === 1);
    expect(await endpointStub(endpoint.id).pending()).toBe(1);
    const res = await call(`/api/v2/webhooks/${endpoint.id}`, {
      method: "DELETE",
      headers: { "x-api-key": key },
    });
    expect(await body(res)).toEqual({ success: true, data: { id: endpoint.id, deleted: true } });
    expect(await endpointStub(endpoint.id).pending()).toBe(0);
    expect((await get(`/api/v2/webhooks/${endpoint.id}/deliveries`, key)).status).toBe(404);
    const left = await env.DB.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ?")
      .bind(endpoint.id)
      .first<{ n: number }>();
    expect(left!.n).toBe(0);
  });
});

describe("test events and the delivery log", () => {
  it("queues a signed webhook.test event and logs it with its attempts", async () => {
    const { key } = await newAccount();
    const { box, url } = newBox();
    const endpoint = await createEndpoint(key, url, ["render.completed"]);
    const res = await call(`/api/v2/webhooks/${endpoint.id}/test`, {
      method: "POST",
      headers: { "x-api-key": key },
    });
    expect(res.status).toBe(202);
    const queued = (await body<{ deliveryId: string; eventId: string; eventType: string }>(res)).data!;
    expect(queued.eventType).toBe("webhook.test");
    const [got] = await receivedAtLeast(box, 1);
    expect(got!.id).toBe(queued.eventId);
    expect(verify(endpoint.secret, got!)).toMatchObject({ type: "webhook.test", data: { test: true } });
    await deliveriesWhere(endpoint.id, 1, (r) => r.status === "delivered");

    const list = await body<Array<Record<string, unknown>>>(
      await get(`/api/v2/webhooks/${endpoint.id}/deliveries`, key),
    );
    expect(list.data).toEqual([
      expect.objectContaining({
        id: queued.deliveryId,
        endpointId: endpoint.id,
        eventId: queued.eventId,
        eventType: "webhook.test",
        status: "delivered",
        attempts: 1,
        responseStatus: 200,
        deliveredAt: expect.any(String),
        createdAt: expect.any(String),
      }),
    ]);
    expect(JSON.stringify(list.data)).not.toContain("responseBody");

    const one = await body<Record<string, unknown>>(
      await get(`/api/v2/webhooks/${endpoint.id}/deliveries/${queued.deliveryId}`, key),
    );
    expect(one.data).toMatchObject({
      id: queued.deliveryId,
      event: { id: queued.eventId, type: "webhook.test", jobId: null },
      attemptLog: [
        {
          attempt: 1,
          status: "succeeded",
          responseStatus: 200,
          durationMs: expect.any(Number),
          error: null,
          responseBody: "ok",
          attemptedAt: expect.any(String),
        },
      ],
    });
  });

  it("sends an example render.completed event when asked", async () => {
    const { key } = await newAccount();
    const { box, url } = newBox();
    const endpoint = await createEndpoint(key, url);
    await call(`/api/v2/webhooks/${endpoint.id}/test`, json("POST", { eventType: "render.completed" }, key));
    const [got] = await receivedAtLeast(box, 1);
    expect(verify(endpoint.secret, got!)).toMatchObject({
      type: "render.completed",
      data: { status: "COMPLETED", test: true, downloadUrl: expect.any(String) },
    });
  });
});

describe("secret rotation", () => {
  it("signs with both secrets during the grace period, so old and new verify", async () => {
    const { key } = await newAccount();
    const { box, url } = newBox();
    const endpoint = await createEndpoint(key, url);
    const res = await call(`/api/v2/webhooks/${endpoint.id}/rotate-secret`, {
      method: "POST",
      headers: { "x-api-key": key },
    });
    expect(res.status).toBe(200);
    const rotated = (await body<{ secret: string; previousSecretExpiresAt: string }>(res)).data!;
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(Date.parse(rotated.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);
    await call(`/api/v2/webhooks/${endpoint.id}/test`, { method: "POST", headers: { "x-api-key": key } });
    const [got] = await receivedAtLeast(box, 1);
    expect(got!.signature.split(" ")).toHaveLength(2);
    verify(endpoint.secret, got!);
    verify(rotated.secret, got!);
    const stored = await env.DB.prepare(
      "SELECT secret, previous_secret AS previous FROM webhook_endpoints WHERE id = ?",
    )
      .bind(endpoint.id)
      .first<{ secret: string; previous: string }>();
    expect([stored!.secret, stored!.previous].every((s) => s.startsWith("sealed.v1."))).toBe(true);
  });

  it("still signs with a secret stored in clear before sealing existed, and seals it at the next rotation", async () => {
    const { key } = await newAccount();
    const { box, url } = newBox();
    const endpoint = await createEndpoint(key, url);
    const legacy = "whsec_bGVnYWN5LXNlY3JldC1mcm9tLWJlZm9yZS0x";
    await env.DB.prepare("UPDATE webhook_endpoints SET secret = ? WHERE id = ?")
      .bind(legacy, endpoint.id)
      .run();
    await call(`/api/v2/webhooks/${endpoint.id}/test`, { method: "POST", headers: { "x-api-key": key } });
    const [got] = await receivedAtLeast(box, 1);
    verify(legacy, got!);
    await call(`/api/v2/webhooks/${endpoint.id}/rotate-secret`, json("POST", { graceSeconds: 0 }, key));
    const stored = await env.DB.prepare("SELECT secret FROM webhook_endpoints WHERE id = ?")
      .bind(endpoint.id)
      .first<{ secret: string }>();
    expect(stored!.secret).toMatch(/^sealed\.v1\./);
  });

  it("revokes the old secret at once with graceSeconds 0", async () => {
    const { key } = await newAccount();
    const { box, url } = newBox();
    const endpoint = await createEndpoint(key, url);
    const res = await call(
      `/api/v2/webhooks/${endpoint.id}/rotate-secret`,
      json("POST", { graceSeconds: 0 }, key),
    );
    const rotated = (await body<{ secret: string; previousSecretExpiresAt: string | null }>(res)).data!;
    expect(rotated.previousSecretExpiresAt).toBeNull();
    await call(`/api/v2/webhooks/${endpoint.id}/test`, { method: "POST", headers: { "x-api-key": key } });
    const [got] = await receivedAtLeast(box, 1);
    verify(rotated.secret, got!);
    expect(() => verify(endpoint.secret, got!)).toThrow("No matching signature found");
    // A tampered body fails verification too.
    expect(() =>
      new Webhook(rotated.secret).verify(`${got!.body} `, {
        "webhook-id": got!.id,
        "webhook-timestamp": got!.timestamp,
        "webhook-signature": got!.signature,
      }),
    ).toThrow("No matching signature found");
    expect(await received(box)).toHaveLength(1);
  });
});
