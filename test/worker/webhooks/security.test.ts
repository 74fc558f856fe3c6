import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Permission } from "../../../src/auth/caller.ts";
import { createApiKey } from "../../../src/keys/create-api-key.ts";
import { createEndpoint as createEndpointVerb } from "../../../src/webhooks/manage-endpoints.ts";
import { signUp } from "../accounts/sign-up.ts";
import { withDns } from "../fake-internet.ts";
import { asCaller, body, call, json, newAccount, testCtx } from "../helpers.ts";
import { jobOutputUrl, openPending, postStatusReport, statusReport } from "../jobs-seed.ts";
import { createEndpoint, deliveriesWhere, newBox, received, receivedAtLeast } from "./support.ts";

const keyWith = async (userId: string, permissions: Permission[], scopes?: string[]) =>
  (await createApiKey(testCtx(), { userId, name: "scoped key", permissions, scopes })).key;

/** Every route of an endpoint, with a body where one is needed. */
const routes = (id: string, deliveryId: string) =>
  [
    ["PATCH", `/api/v2/webhooks/${id}`, { name: "x" }],
    ["DELETE", `/api/v2/webhooks/${id}`],
    ["POST", `/api/v2/webhooks/${id}/test`, {}],
    ["POST", `/api/v2/webhooks/${id}/rotate-secret`, {}],
    ["GET", `/api/v2/webhooks/${id}/deliveries`],
    ["GET", `/api/v2/webhooks/${id}/deliveries/${deliveryId}`],
    ["POST", `/api/v2/webhooks/${id}/deliveries/${deliveryId}/replay`, {}],
  ] as const;

const send = (key: string, [method, path, payload]: readonly [string, string, object?]) =>
  call(path, payload ? json(method, payload, key) : { method, headers: { "x-api-key": key } });

describe("webhooks: accounts", () => {
  it("answers 404 for another account's endpoint and delivery on every route, and changes nothing", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const { box, url } = newBox();
    const endpoint = await createEndpoint(owner.key, url);
    const stored = () =>
      env.DB.prepare("SELECT name, secret FROM webhook_endpoints WHERE id = ?").bind(endpoint.id).first();
    const before = await stored();
    expect(before).toMatchObject({ name: "test hook" });
    const test = await call(`/api/v2/webhooks/${endpoint.id}/test`, {
      method: "POST",
      headers: { "x-api-key": owner.key },
    });
    const { deliveryId } = (await body<{ deliveryId: string }>(test)).data!;
    await receivedAtLeast(box, 1);
    for (const route of routes(endpoint.id, deliveryId)) {
      const res = await send(other.key, route);
      expect(res.status, route.join(" ")).toBe(404);
      expect((await body(res)).success).toBe(false);
    }
    // A body the routes would refuse does not turn another account's id into a 400: ownership comes first.
    for (const action of ["test", "rotate-secret"]) {
      const res = await call(`/api/v2/webhooks/${endpoint.id}/${action}`, {
        method: "POST",
        headers: { "x-api-key": other.key, "content-type": "application/json" },
        body: '{"graceSeconds":-1,"eventType":"nope"}',
      });
      expect(res.status, action).toBe(404);
    }
    // The owner's delivery under another account's endpoint id is a 404 too.
    const mine = await createEndpoint(other.key, newBox().url);
    expect(
      (await send(other.key, ["GET", `/api/v2/webhooks/${mine.id}/deliveries/${deliveryId}`])).status,
    ).toBe(404);
    expect((await body<unknown[]>(await send(other.key, ["GET", "/api/v2/webhooks"]))).data).toHaveLength(1);
    expect(await stored()).toEqual(before);
    expect(await received(box)).toHaveLength(1);
  });

  it("never delivers one account's render events to another account's endpoint", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const boxA = newBox();
    const boxB = newBox();
    const endpointA = await createEndpoint(a.key, boxA.url);
    const endpointB = await createEndpoint(b.key, boxB.url);
    const jobId = await openPending(a.userId, 20, "VIDEO");
    await postStatusReport(statusReport(jobId, "completed", { resultUrl: await jobOutputUrl(jobId, 10) }));
    await receivedAtLeast(boxA.box, 1);
    await deliveriesWhere(endpointA.id, 1, (r) => r.status === "delivered");
    expect(await received(boxB.box)).toEqual([]);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ?")
      .bind(endpointB.id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(0);
  });

  it("answers 401 without a credential", async () => {
    const res = await call("/api/v2/webhooks");
    expect(res.status).toBe(401);
    expect(await body(res)).toEqual({ success: false, error: "Unauthorized" });
  });
});

describe("webhooks: scopes", () => {
  it("lets jobs:read read deliveries but not manage endpoints or replay", async () => {
    const { userId, key: full } = await newAccount();
    const endpoint = await createEndpoint(full, newBox().url);
    const reader = await keyWith(userId, [{ resource: "jobs", action: "read" }]);
    const list = await call("/api/v2/webhooks", { headers: { "x-api-key": reader } });
    expect(list.status).toBe(403);
    expect(await body(list)).toEqual({
      success: false,
      error: "Insufficient permissions",
      details: { requiredScope: "renders:create" },
    });
    expect((await send(reader, ["GET", `/api/v2/webhooks/${endpoint.id}/deliveries`])).status).toBe(200);
    expect(
      (await send(reader, ["POST", `/api/v2/webhooks/${endpoint.id}/deliveries/whd_x/replay`, {}])).status,
    ).toBe(403);
    expect(
      (
        await send(reader, [
          "POST",
          "/api/v2/webhooks",
          { name: "x", url: newBox().url, eventTypes: ["render.failed"] },
        ])
      ).status,
    ).toBe(403);
  });

  it("refuses a media-only key everywhere, and honours explicit scopes", async () => {
    const { userId, key: full } = await newAccount();
    const endpoint = await createEndpoint(full, newBox().url);
    const media = await keyWith(userId, [{ resource: "media", action: "full" }]);
    for (const route of routes(endpoint.id, "whd_x")) expect((await send(media, route)).status).toBe(403);
    const creator = await keyWith(userId, [{ resource: "media", action: "read" }], ["renders:create"]);
    expect((await send(creator, ["GET", "/api/v2/webhooks"])).status).toBe(200);
    expect((await send(creator, ["GET", `/api/v2/webhooks/${endpoint.id}/deliveries`])).status).toBe(403);
    const ops = await keyWith(
      userId,
      [{ resource: "media", action: "read" }],
      ["operations:read", "operations:cancel"],
    );
    expect((await send(ops, ["GET", `/api/v2/webhooks/${endpoint.id}/deliveries`])).status).toBe(200);
    expect(
      (await send(ops, ["POST", `/api/v2/webhooks/${endpoint.id}/deliveries/whd_x/replay`, {}])).status,
    ).toBe(404);
  });
});

describe("webhooks: the account owner", () => {
  it("manages endpoints and replays with a session, which holds every scope", async () => {
    const { token } = await signUp();
    const auth = { authorization: `Bearer ${token}` };
    const res = await call("/api/v2/webhooks", {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ name: "owner", url: newBox().url, eventTypes: ["render.failed"] }),
    });
    expect(res.status).toBe(201);
    const { id } = (await body<{ id: string }>(res)).data!;
    expect((await call(`/api/v2/webhooks/${id}/deliveries`, { headers: auth })).status).toBe(200);
    expect(
      (await call(`/api/v2/webhooks/${id}/deliveries/whd_x/replay`, { method: "POST", headers: auth }))
        .status,
    ).toBe(404);
  });
});

describe("webhooks: SSRF guard", () => {
  /** The status and first field error of creating an endpoint at `url`. */
  const attempt = async (key: string, url: string) => {
    const res = await call(
      "/api/v2/webhooks",
      json("POST", { name: "x", url, eventTypes: ["render.failed"] }, key),
    );
    const b = await body(res);
    return { status: res.status, error: b.error, field: b.details?.errors?.[0] };
  };
  const REFUSED = {
    status: 400,
    error: "URL not allowed",
    field: expect.objectContaining({ field: "url", code: "URL_NOT_ALLOWED" }),
  };

  it("refuses private, link-local, metadata and internal addresses even in development", async () => {
    const { key } = await newAccount();
    for (const url of [
      "https://10.0.0.1/hook",
      "https://192.168.1.10/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://[fd00::1]/hook",
      "https://[::ffff:10.0.0.1]/hook",
      "https://metadata.google.internal/hook",
      "https://printer.local/hook",
      "https://user:pass@127.0.0.1/hook",
      "ftp://127.0.0.1/hook",
      "not a url",
    ])
      expect(await attempt(key, url), url).toEqual(REFUSED);
  });

  it("refuses a name that resolves to a private address, and accepts a public one", async () => {
    const { userId } = await newAccount();
    const send = withDns(async () => new Response("unused"), { "evil.example.com": ["10.1.2.3"] });
    const input = { name: "x", eventTypes: ["render.failed" as const], active: true, send };
    await expect(
      createEndpointVerb(asCaller(userId), { ...input, url: "https://evil.example.com/hook" }),
    ).rejects.toMatchObject({ errors: [{ field: "url", code: "URL_NOT_ALLOWED" }] });
    const ok = await createEndpointVerb(asCaller(userId), { ...input, url: "https://hooks.example.com/in" });
    expect(ok.url).toBe("https://hooks.example.com/in");
  });

  it("refuses loopback and plain http in production", async () => {
    const { userId } = await newAccount();
    const production = { ...asCaller(userId), env: { ...env, ENVIRONMENT: "production" } };
    const send = withDns(async () => new Response("unused"));
    for (const url of [
      "http://127.0.0.1:9/hook",
      "https://127.0.0.1/hook",
      "https://localhost/hook",
      "http://hooks.example.com/in",
    ])
      await expect(
        createEndpointVerb(production, {
          name: "x",
          eventTypes: ["render.failed" as const],
          active: true,
          url,
          send,
        }),
        url,
      ).rejects.toMatchObject({ errors: [{ field: "url", code: "URL_NOT_ALLOWED" }] });
  });

  it("checks the URL again at every send: a stored URL that became private is never fetched", async () => {
    const { key } = await newAccount();
    const { box, url } = newBox();
    const endpoint = await createEndpoint(key, url);
    await env.DB.prepare("UPDATE webhook_endpoints SET url = 'https://10.0.0.1/hook' WHERE id = ?")
      .bind(endpoint.id)
      .run();
    await call(`/api/v2/webhooks/${endpoint.id}/test`, { method: "POST", headers: { "x-api-key": key } });
    const [row] = await deliveriesWhere(endpoint.id, 1, (r) => Number(r.attempts) === 1);
    expect(row).toMatchObject({ status: "pending", response_status: null });
    expect(String(row!.last_error)).toMatch(/^URL not allowed: the address is private/);
    expect(await received(box)).toEqual([]);
  });
});
