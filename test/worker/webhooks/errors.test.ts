import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_ENDPOINTS_PER_ACCOUNT } from "../../../src/webhooks/limits.ts";
import { body, call, json, newAccount } from "../helpers.ts";
import { createEndpoint, newBox } from "./support.ts";

const post = (path: string, payload: unknown, key: string) => call(path, json("POST", payload, key));

const fieldErrors = async (res: Response) => {
  expect(res.status).toBe(400);
  const b = await body(res);
  expect(b.success).toBe(false);
  return b.details!.errors!;
};

describe("webhooks: bad input", () => {
  it("names each bad field of a create request", async () => {
    const { key } = await newAccount();
    const errors = await fieldErrors(
      await post("/api/v2/webhooks", { name: "", url: 5, eventTypes: ["render.exploded"], extra: 1 }, key),
    );
    expect(errors.map((e) => e.field).sort()).toEqual(["eventTypes[0]", "extra", "name", "url"]);
    expect(
      await fieldErrors(
        await post("/api/v2/webhooks", { name: "x", url: newBox().url, eventTypes: [] }, key),
      ),
    ).toEqual([
      expect.objectContaining({
        field: "eventTypes",
        message: "eventTypes must contain at least 1 event type",
      }),
    ]);
  });

  it("answers malformed JSON, a wrong content type and an oversized body with the envelope", async () => {
    const { key } = await newAccount();
    const malformed = await call("/api/v2/webhooks", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: "{nope",
    });
    expect(await fieldErrors(malformed)).toEqual([expect.objectContaining({ code: "INVALID_JSON" })]);
    const text = await call("/api/v2/webhooks", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "text/plain" },
      body: "x",
    });
    expect(text.status).toBe(415);
    const huge = await post("/api/v2/webhooks", { name: "x".repeat(2 * 1024 * 1024) }, key);
    expect(huge.status).toBe(413);
    expect((await body(huge)).success).toBe(false);
  });

  it("refuses an empty update, a bad grace period and a bad deliveries query", async () => {
    const { key } = await newAccount();
    const endpoint = await createEndpoint(key, newBox().url);
    const empty = await call(`/api/v2/webhooks/${endpoint.id}`, json("PATCH", {}, key));
    expect((await fieldErrors(empty))[0]!.message).toBe("give at least one of name, url, eventTypes, active");
    expect(
      (
        await fieldErrors(
          await post(`/api/v2/webhooks/${endpoint.id}/rotate-secret`, { graceSeconds: -1 }, key),
        )
      )[0],
    ).toMatchObject({ field: "graceSeconds" });
    const query = await call(`/api/v2/webhooks/${endpoint.id}/deliveries?limit=0&status=lost`, {
      headers: { "x-api-key": key },
    });
    expect((await fieldErrors(query)).map((e) => e.field).sort()).toEqual(["limit", "status"]);
  });

  it("refuses a test event whose body would pass the payload limit", async () => {
    const { key } = await newAccount();
    const endpoint = await createEndpoint(key, newBox().url);
    const res = await post(
      `/api/v2/webhooks/${endpoint.id}/test`,
      { data: { blob: "x".repeat(70_000) } },
      key,
    );
    expect(await fieldErrors(res)).toEqual([
      expect.objectContaining({ field: "data", code: "PAYLOAD_TOO_LARGE" }),
    ]);
  });

  it("refuses test events on a disabled endpoint", async () => {
    const { key } = await newAccount();
    const endpoint = await createEndpoint(key, newBox().url);
    await call(`/api/v2/webhooks/${endpoint.id}`, json("PATCH", { active: false }, key));
    const test = await post(`/api/v2/webhooks/${endpoint.id}/test`, {}, key);
    expect(test.status).toBe(400);
    expect((await body(test)).error).toMatch(/disabled/);
  });

  it(`allows at most ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints per account`, async () => {
    const { key, userId } = await newAccount();
    const at = Date.now();
    for (let i = 0; i < MAX_ENDPOINTS_PER_ACCOUNT; i++)
      await env.DB.prepare(
        `INSERT INTO webhook_endpoints (id, user_id, name, url, event_types, active, secret, created_at, updated_at)
         VALUES (?, ?, 'x', 'https://hooks.example.com', '["render.failed"]', 1, 'whsec_AAAA', ?, ?)`,
      )
        .bind(`whe_seed${i}_${userId}`, userId, at, at)
        .run();
    const res = await post(
      "/api/v2/webhooks",
      { name: "one more", url: newBox().url, eventTypes: ["render.failed"] },
      key,
    );
    expect(await fieldErrors(res)).toEqual([expect.objectContaining({ code: "TOO_MANY_ENDPOINTS" })]);
  });

  it("answers 404 for an unknown endpoint or delivery", async () => {
    const { key } = await newAccount();
    const endpoint = await createEndpoint(key, newBox().url);
    const unknown = await call("/api/v2/webhooks/whe_nope/deliveries", { headers: { "x-api-key": key } });
    expect(unknown.status).toBe(404);
    expect(await body(unknown)).toEqual({ success: false, error: "Webhook endpoint not found" });
    const delivery = await call(`/api/v2/webhooks/${endpoint.id}/deliveries/whd_nope`, {
      headers: { "x-api-key": key },
    });
    expect(await body(delivery)).toEqual({ success: false, error: "Webhook delivery not found" });
  });
});
