/**
 * Cross-account probes on every route that names a resource: account B, with its key and with its session, asks
 * for each of account A's resources by id. Every answer is a 404 (never A's data, never a hint that the id exists),
 * and A's resources are untouched afterwards. The route list comes from the app itself: a new route that names a
 * resource fails this test until it is probed here.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../../src/app.ts";
import { bearer, body, signUp } from "../accounts/sign-up.ts";
import { call, fixture, json, upload } from "../helpers.ts";
import { createConnection } from "../destinations/support.ts";
import { newBox } from "../webhooks/support.ts";
import { figure } from "./scale.ts";

/** Param routes that name no account's resource. */
const PUBLIC = new Set([
  "GET /api/v1/schemas/:name{image|video}",
  "GET /dev/checkout/:sessionId",
  "POST /dev/checkout/:sessionId",
  // The local provider stand-in (development only), unauthenticated like the provider it stands for.
  "POST /dev/subscriptions/:id/renew",
  "GET /api/v1/user-api/docs/ui/:file",
]);

const routes = createApp()
  .routes.filter((r) => r.method !== "ALL" && r.path.includes("/:"))
  .map((r) => `${r.method} ${r.path}`)
  .filter((r, i, all) => all.indexOf(r) === i && !PUBLIC.has(r));

/** Account A with one of each resource. */
const accountA = async () => {
  const a = await signUp();
  const made = await body<{ key: string; apiKey: { id: string } }>(
    await call(
      "/api/v1/api-keys",
      bearer(
        a.token,
        json("POST", {
          name: "a key",
          permissions: [
            { resource: "jobs", action: "full" },
            { resource: "media", action: "full" },
          ],
        }),
      ),
    ),
  );
  const key = made.data!.key;
  const file = (await body<{ id: string }>(await upload(key, "emoji.png", fixture("emoji.png")))).data!;
  const job = (
    await body<{ jobId: string }>(
      await call(
        "/api/v1/jobs",
        json(
          "POST",
          { type: "image", config: { width: 8, height: 8, layers: [{ type: "rectangle", fill: "#f00" }] } },
          key,
        ),
      ),
    )
  ).data!;
  const payment = (
    await body<{ paymentId: string }>(
      await call("/api/v1/billing/checkout", bearer(a.token, json("POST", { tokens: 1000 }))),
    )
  ).data!;
  const webhook = (
    await body<{ id: string }>(
      await call(
        "/api/v2/webhooks",
        json("POST", { name: "a hook", url: newBox().url, eventTypes: ["render.completed"] }, key),
      ),
    )
  ).data!;
  const test = (
    await body<{ deliveryId: string }>(
      await call(`/api/v2/webhooks/${webhook.id}/test`, { method: "POST", headers: { "x-api-key": key } }),
    )
  ).data!;
  const template = (
    await body<{ id: string }>(
      await call(
        "/api/v2/templates",
        json(
          "POST",
          {
            name: "a template",
            type: "image",
            config: { width: 8, height: 8, layers: [{ type: "text", text: "{{label}}" }] },
          },
          key,
        ),
      ),
    )
  ).data!;
  const batch = (
    await body<{ batchId: string }>(
      await call(`/api/v2/templates/${template.id}/batches`, json("POST", { rows: [{ label: "x" }] }, key)),
    )
  ).data!;
  const connection = await createConnection(key);
  return {
    ...a,
    key,
    ids: {
      connectionId: connection.id,
      templateId: template.id,
      batchId: batch.batchId,
      webhookId: webhook.id,
      deliveryId: test.deliveryId,
      jobId: job.jobId,
      fileId: file.id,
      id: "",
      apiKeyId: made.data!.apiKey.id,
      paymentId: payment.paymentId,
    },
  };
};

describe("cross-account probes", () => {
  it("answer 404 on every route that names a resource, with a key and with a session, and change nothing", async () => {
    const a = await accountA();
    const b = await signUp();
    const bKey = (
      await body<{ key: string }>(
        await call(
          "/api/v1/api-keys",
          bearer(
            b.token,
            json("POST", {
              name: "b key",
              permissions: [
                { resource: "jobs", action: "full" },
                { resource: "media", action: "full" },
              ],
            }),
          ),
        ),
      )
    ).data!.key;
    /** A's id for each route's parameters, in order. */
    const idFor: Record<string, string | string[]> = {
      "/api/v1/jobs/:jobId": a.ids.jobId,
      "/api/v1/jobs/:jobId/events": a.ids.jobId,
      "/api/v1/files/:fileId": a.ids.fileId,
      "/api/v1/files/:fileId/metadata": a.ids.fileId,
      "/api/v1/files/:fileId/download": a.ids.fileId,
      "/api/v1/files/:fileId/link": a.ids.fileId,
      "/api/v1/files/:fileId/public-link": a.ids.fileId,
      "/api/v1/api-keys/:id": a.ids.apiKeyId,
      "/api/v1/billing/payments/:id": a.ids.paymentId,
      "/api/v2/templates/:id": a.ids.templateId,
      "/api/v2/templates/:id/batches": a.ids.templateId,
      "/api/v2/templates/:id/renders": a.ids.templateId,
      "/api/v2/batches/:id": a.ids.batchId,
      "/api/v2/batches/:id/output": a.ids.batchId,
      "/api/v2/batches/:id/manifest": a.ids.batchId,
      "/api/v2/webhooks/:id": a.ids.webhookId,
      "/api/v2/webhooks/:id/test": a.ids.webhookId,
      "/api/v2/webhooks/:id/rotate-secret": a.ids.webhookId,
      "/api/v2/webhooks/:id/deliveries": a.ids.webhookId,
      "/api/v2/webhooks/:id/deliveries/:deliveryId": [a.ids.webhookId, a.ids.deliveryId],
      "/api/v2/webhooks/:id/deliveries/:deliveryId/replay": [a.ids.webhookId, a.ids.deliveryId],
      "/api/v2/storage-connections/:id": a.ids.connectionId,
    };
    const unmapped = routes.filter((r) => !(r.split(" ")[1]! in idFor));
    expect(unmapped, "routes naming a resource that this test does not probe yet").toEqual([]);
    let probes = 0;
    for (const route of routes) {
      const [method, path] = route.split(" ") as [string, string];
      let url = path;
      for (const id of [idFor[path]!].flat()) url = url.replace(/:[A-Za-z]+/, encodeURIComponent(id));
      for (const [name, credential] of [
        ["key", { "x-api-key": bKey }],
        ["session", { authorization: `Bearer ${b.token}` }],
      ] as const) {
        const init: RequestInit = {
          method,
          headers: { ...credential, "content-type": "application/json" },
          ...(method === "POST" || method === "PUT" || method === "PATCH" ? { body: "{}" } : {}),
        };
        const res = await call(url, init);
        probes++;
        // API keys cannot manage keys (403 before any lookup); everything else: not found.
        const expected = route.startsWith("DELETE /api/v1/api-keys") && name === "key" ? 403 : 404;
        expect(res.status, `${route} with B's ${name}`).toBe(expected);
        expect(method === "HEAD" ? "" : await res.text()).not.toContain(a.email);
      }
    }
    // Lists of B's never show A's ids.
    for (const list of [
      "/api/v1/jobs",
      "/api/v1/files",
      "/api/v1/api-keys",
      "/api/v1/billing/ledger",
      "/api/v1/jobs/stats",
      "/api/v2/webhooks",
      "/api/v2/templates",
      "/api/v2/batches",
      "/api/v2/storage-connections",
    ]) {
      const text = await (await call(list, { headers: { authorization: `Bearer ${b.token}` } })).text();
      probes++;
      for (const id of Object.values(a.ids).filter(Boolean)) expect(text, `${list} of B`).not.toContain(id);
    }
    figure("cross-account probes", probes);
    figure("cross-account leaks", 0);
    // A's resources are intact.
    expect((await call(`/api/v1/jobs/${a.ids.jobId}`, { headers: { "x-api-key": a.key } })).status).toBe(200);
    expect(
      (await call(`/api/v1/files/${a.ids.fileId}/download`, { headers: { "x-api-key": a.key } })).status,
    ).toBe(200);
    const keyRow = await env.DB.prepare("SELECT id FROM api_keys WHERE id = ?").bind(a.ids.apiKeyId).first();
    expect(keyRow).not.toBeNull();
    const hook = await call(`/api/v2/webhooks/${a.ids.webhookId}/deliveries/${a.ids.deliveryId}`, {
      headers: { "x-api-key": a.key },
    });
    expect(hook.status).toBe(200);
    const connection = await call(`/api/v2/storage-connections/${a.ids.connectionId}`, {
      headers: { "x-api-key": a.key },
    });
    expect(connection.status).toBe(200);
    // A few hundred requests: 13 s on a loaded 2-core machine, over 30 s on one core of it.
  }, 120_000);
});
