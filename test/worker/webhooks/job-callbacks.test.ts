/**
 * Per-job callbacks (`webhookUrl`) and `metadata`: a job created through the API with both has its render events
 * delivered to its own URL by the account's job-callback endpoint (the same Durable Object schedule, delivery log
 * and SSRF guard as the v2 endpoints), signed with the account's callback secret, which the real loopback receiver
 * (test/webhook-receiver.ts) verifies with the `standardwebhooks` package; the metadata is in every event, on the job
 * and in its event stream.
 */
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createApiKey } from "../../../src/keys/create-api-key.ts";
import { createJob } from "../../../src/jobs/create-job.ts";
import { callbackEndpoint, callbackUrlErrors } from "../../../src/webhooks/job-callbacks.ts";
import { withDns } from "../fake-internet.ts";
import { asCaller, body, call, json, newAccount, testCtx } from "../helpers.ts";
import { auditedBalance, jobOutputUrl, jobRow, postStatusReport, statusReport } from "../jobs-seed.ts";
import {
  createEndpoint,
  deliveriesWhere,
  deliveryRows,
  endpointStub,
  fastForward,
  newBox,
  received,
  receivedAtLeast,
  verify,
} from "./support.ts";

const VIDEO = {
  width: 32,
  height: 32,
  clips: [{ duration: 1, layers: [{ type: "fill-color", color: "#ffffff" }] }],
};
const METADATA = { orderId: "A-1042", tags: ["spring", 2], nested: { ok: true } };

/**
 * A video job created through POST /api/v1/jobs (its queue message meets no renderer here, so it stays PENDING until
 * the test reports for the renderer).
 */
const createVideo = async (
  key: string,
  extra: Record<string, unknown>,
  headers: Record<string, string> = {},
) => {
  const res = await call("/api/v1/jobs", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key, ...headers },
    body: JSON.stringify({ type: "video", config: VIDEO, ...extra }),
  });
  return { res, body: await body<{ jobId: string }>(res) };
};

const callbacks = async (key: string) => {
  const res = await call("/api/v2/webhooks/job-callbacks", { headers: { "x-api-key": key } });
  expect(res.status).toBe(200);
  return (await body<{ id: string; secret: string; previousSecretExpiresAt: string | null }>(res)).data!;
};

const complete = async (jobId: string) =>
  expect(
    (
      await postStatusReport(
        statusReport(jobId, "completed", {
          resultUrl: await jobOutputUrl(jobId, 321),
          metadata: { videoDuration: 1 },
        }),
      )
    ).status,
  ).toBe(200);

describe("job callbacks: delivery", () => {
  it("delivers signed render.started and render.completed with the metadata to the job's webhookUrl", async () => {
    const { key } = await newAccount();
    const { box, url } = newBox();
    const created = await createVideo(key, { webhookUrl: url, metadata: METADATA });
    expect(created.res.status, JSON.stringify(created.body)).toBe(201);
    const jobId = created.body.data!.jobId;
    // The job echoes both.
    const job = await body<Record<string, unknown>>(
      await call(`/api/v1/jobs/${jobId}`, { headers: { "x-api-key": key } }),
    );
    expect(job.data).toMatchObject({ webhookUrl: url, metadata: METADATA });

    expect((await postStatusReport(statusReport(jobId, "processing"))).status).toBe(200);
    await complete(jobId);
    const got = await receivedAtLeast(box, 2);
    const { id, secret } = await callbacks(key);
    expect(secret).toMatch(/^whsec_/);
    const events = got.map((r) => verify(secret, r));
    expect(events.map((e) => e.type)).toEqual(["render.started", "render.completed"]);
    for (const e of events) expect(e.data).toMatchObject({ jobId, metadata: METADATA });
    expect(events[1]!.data).toMatchObject({ status: "COMPLETED", tokensUsed: 12 });
    // The signed link in the completion downloads the output without a key.
    const link = new URL(String(events[1]!.data.downloadUrl));
    expect((await call(`${link.pathname}${link.search}`)).status).toBe(200);
    // The same delivery log as any endpoint, under the callback endpoint's id.
    const rows = await deliveriesWhere(id, 2, (r) => r.status === "delivered");
    expect(rows.map((r) => r.url)).toEqual([url, url]);
    const log = await body<{ eventType: string; status: string; eventId: string }[]>(
      await call(`/api/v2/webhooks/${id}/deliveries`, { headers: { "x-api-key": key } }),
    );
    expect(log.data!.map((d) => [d.eventType, d.status]).sort()).toEqual([
      ["render.completed", "delivered"],
      ["render.started", "delivered"],
    ]);
    expect(new Set(log.data!.map((d) => d.eventId))).toEqual(new Set(got.map((r) => r.id)));
  });

  it("delivers render.failed with the error and the metadata, nothing charged", async () => {
    const { key, userId } = await newAccount();
    const before = await auditedBalance(userId);
    const { box, url } = newBox();
    const { body: created } = await createVideo(key, { webhookUrl: url, metadata: { row: 7 } });
    const jobId = created.data!.jobId;
    expect((await postStatusReport(statusReport(jobId, "failed", { error: "codec exploded" }))).status).toBe(
      200,
    );
    const [got] = await receivedAtLeast(box, 1);
    const event = verify((await callbacks(key)).secret, got!);
    expect(event).toMatchObject({
      type: "render.failed",
      data: { jobId, status: "FAILED", errorMessage: "codec exploded", tokensUsed: 0, metadata: { row: 7 } },
    });
    expect(await auditedBalance(userId)).toBe(before);
  });

  it("retries a failing receiver on the v2 schedule with the same webhook-id, then dead-letters and replays", async () => {
    const { key } = await newAccount();
    const { box, url } = newBox({ fail: 8 });
    const { body: created } = await createVideo(key, { webhookUrl: url });
    const jobId = created.data!.jobId;
    await complete(jobId);
    const { id, secret } = await callbacks(key);
    await receivedAtLeast(box, 1);
    for (let i = 1; i < 8; i++) {
      await deliveriesWhere(id, 1, (r) => Number(r.attempts) === i);
      await fastForward(id);
    }
    const [dead] = await deliveriesWhere(id, 1, (r) => r.status === "dead_letter");
    expect(dead).toMatchObject({ attempts: 8, response_status: 500 });
    const got = await received(box);
    expect(got).toHaveLength(8);
    expect(new Set(got.map((r) => r.id)).size).toBe(1);
    for (const r of got) verify(secret, r);
    const replay = await call(`/api/v2/webhooks/${id}/deliveries/${dead!.id}/replay`, {
      method: "POST",
      headers: { "x-api-key": key },
    });
    expect((await body(replay)).data).toEqual({ replayed: true, status: "pending" });
    const all = await receivedAtLeast(box, 9);
    expect(all[8]).toMatchObject({ id: got[0]!.id, answered: 200 });
    await deliveriesWhere(id, 1, (r) => r.status === "delivered");
    expect(await endpointStub(id).pending()).toBe(0);
  });

  it("sends each job's events to its own URL only, and a receiver that does not answer holds up no other", async () => {
    const { key } = await newAccount();
    // Both fail their first attempt, the slow one after 3 s; their retries are then due together.
    const slow = newBox({ fail: 1, delay: 3000 });
    const quick = newBox({ fail: 1 });
    const a = (await createVideo(key, { webhookUrl: slow.url, metadata: { n: 1 } })).body.data!.jobId;
    const b = (await createVideo(key, { webhookUrl: quick.url, metadata: { n: 2 } })).body.data!.jobId;
    const plain = (await createVideo(key, {})).body.data!.jobId;
    const { id, secret } = await callbacks(key);
    await complete(a);
    await deliveriesWhere(id, 1, (r) => Number(r.attempts) === 1);
    await complete(b);
    await complete(plain);
    await deliveriesWhere(id, 2, (r) => Number(r.attempts) === 1);
    // One run of the object with both retries due, the slow one first in its queue: each URL is its own lane.
    await fastForward(id);
    const [, slowRetry] = await receivedAtLeast(slow.box, 2);
    const [, quickRetry] = await receivedAtLeast(quick.box, 2);
    // In one lane the quick retry would wait for the slow receiver's 3 s answer.
    expect(quickRetry!.at - slowRetry!.at).toBeLessThan(3000);
    expect(verify(secret, quickRetry!).data).toMatchObject({ jobId: b, metadata: { n: 2 } });
    expect(verify(secret, slowRetry!).data).toMatchObject({ jobId: a, metadata: { n: 1 } });
    await deliveriesWhere(id, 2, (r) => r.status === "delivered");
    // A job without a webhookUrl raises no callback delivery.
    expect(await deliveryRows(id)).toHaveLength(2);
    expect(await received(quick.box)).toHaveLength(2);
    expect(await received(slow.box)).toHaveLength(2);
  });

  it("puts the metadata in a registered endpoint's events too, and null without any", async () => {
    const { key } = await newAccount();
    const { box, url } = newBox();
    const endpoint = await createEndpoint(key, url, ["render.completed"]);
    const withMeta = (await createVideo(key, { metadata: { campaign: "x" } })).body.data!.jobId;
    await complete(withMeta);
    const without = (await createVideo(key, {})).body.data!.jobId;
    await complete(without);
    const got = await receivedAtLeast(box, 2);
    const byJob = new Map(got.map((r) => verify(endpoint.secret, r)).map((e) => [e.data.jobId, e.data]));
    expect(byJob.get(withMeta)).toMatchObject({ metadata: { campaign: "x" } });
    expect(byJob.get(without)).toMatchObject({ metadata: null });
  });

  it("streams the metadata in the job's progress and done events", async () => {
    const { key } = await newAccount();
    const jobId = (await createVideo(key, { metadata: { stream: "yes" } })).body.data!.jobId;
    await postStatusReport(statusReport(jobId, "failed", { error: "stop" }));
    const res = await call(`/api/v1/jobs/${jobId}/events`, { headers: { "x-api-key": key } });
    const text = await res.text();
    const events = [...text.matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map((m) => ({
      event: m[1],
      data: JSON.parse(m[2]!) as Record<string, unknown>,
    }));
    expect(events.map((e) => e.event)).toEqual(["progress", "done"]);
    for (const e of events) expect(e.data.metadata).toEqual({ stream: "yes" });
  });

  it("refuses at send a stored callback URL that became private, and never fetches it", async () => {
    const { key } = await newAccount();
    const { box, url } = newBox();
    const jobId = (await createVideo(key, { webhookUrl: url })).body.data!.jobId;
    await env.DB.prepare("UPDATE jobs SET webhook_url = 'https://169.254.169.254/latest' WHERE id = ?")
      .bind(jobId)
      .run();
    await complete(jobId);
    const { id } = await callbacks(key);
    const [row] = await deliveriesWhere(id, 1, (r) => Number(r.attempts) === 1);
    expect(row).toMatchObject({ status: "pending", response_status: null });
    expect(String(row!.last_error)).toMatch(/^URL not allowed: /);
    expect(await received(box)).toEqual([]);
  });

  it("signs with the rotated secret (and the old one during its grace) after POST .../rotate-secret", async () => {
    const { key } = await newAccount();
    const first = await callbacks(key);
    const rotated = await call(
      `/api/v2/webhooks/${first.id}/rotate-secret`,
      json("POST", { graceSeconds: 3600 }, key),
    );
    expect(rotated.status).toBe(200);
    const { secret } = (await body<{ secret: string }>(rotated)).data!;
    const now = await callbacks(key);
    expect(now).toMatchObject({ id: first.id, secret, previousSecretExpiresAt: expect.any(String) });
    const { box, url } = newBox();
    const jobId = (await createVideo(key, { webhookUrl: url })).body.data!.jobId;
    await complete(jobId);
    const [got] = await receivedAtLeast(box, 1);
    expect(verify(secret, got!).type).toBe("render.completed");
    expect(verify(first.secret, got!).type).toBe("render.completed");
    expect(got!.signature.split(" ")).toHaveLength(2);
  });
});

describe("job callbacks: refusals and abuse", () => {
  const refused = async (key: string, extra: Record<string, unknown>) => {
    const { res, body: b } = await createVideo(key, extra);
    return { status: res.status, errors: b.details?.errors };
  };

  it("refuses a webhookUrl the SSRF guard refuses (metadata address, private, credentials, not a URL)", async () => {
    const { key, userId } = await newAccount();
    const before = await auditedBalance(userId);
    for (const url of [
      "http://169.254.169.254/latest/meta-data",
      "https://169.254.169.254/latest/meta-data",
      "https://10.0.0.1/hook",
      "https://[fd00::1]/hook",
      "https://metadata.google.internal/hook",
      "https://user:pass@127.0.0.1/hook",
      "ftp://127.0.0.1/hook",
      "not a url",
    ])
      expect(await refused(key, { webhookUrl: url }), url).toEqual({
        status: 400,
        errors: [expect.objectContaining({ field: "webhookUrl", code: "URL_NOT_ALLOWED" })],
      });
    for (const bad of ["", 42, `https://example.com/${"x".repeat(2100)}`])
      expect(await refused(key, { webhookUrl: bad })).toEqual({
        status: 400,
        errors: [expect.objectContaining({ field: "webhookUrl", code: "VALIDATION_ERROR" })],
      });
    // Nothing was opened or reserved, and no callback endpoint was made.
    expect(await auditedBalance(userId)).toBe(before);
    const jobs = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?")
      .bind(userId)
      .first();
    expect(jobs).toEqual({ n: 0 });
    const endpoints = await env.DB.prepare("SELECT count(*) AS n FROM webhook_endpoints WHERE user_id = ?")
      .bind(userId)
      .first();
    expect(endpoints).toEqual({ n: 0 });
  });

  it("refuses loopback and plain http in production, and a name that resolves to a private address", async () => {
    const { userId } = await newAccount();
    const production = { ...asCaller(userId), env: { ...env, ENVIRONMENT: "production" } };
    const send = withDns(async () => new Response("unused"), { "evil.example.com": ["10.1.2.3"] });
    for (const webhookUrl of [
      "http://127.0.0.1:9/hook",
      "https://localhost/hook",
      "http://hooks.example.com/in",
    ])
      await expect(
        createJob(production, { type: "video", config: VIDEO, webhookUrl }, send),
        webhookUrl,
      ).rejects.toMatchObject({ errors: [{ field: "webhookUrl", code: "URL_NOT_ALLOWED" }] });
    await expect(
      createJob(
        asCaller(userId),
        { type: "video", config: VIDEO, webhookUrl: "https://evil.example.com/h" },
        send,
      ),
    ).rejects.toMatchObject({ errors: [{ field: "webhookUrl", code: "URL_NOT_ALLOWED" }] });
  });

  it("refuses generated private addresses in any spelling, directly or behind a name, and lets public ones through", async () => {
    const { userId } = await newAccount();
    const production = { ...asCaller(userId), env: { ...env, ENVIRONMENT: "production" } };
    const RANGES: [number, number][] = [
      [0x0a000000, 8],
      [0x7f000000, 8],
      [0xa9fe0000, 16],
      [0xac100000, 12],
      [0xc0a80000, 16],
      [0x64400000, 10],
    ];
    const spell = (n: number, form: number) => {
      const o = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
      return [o.join("."), String(n), `0x${n.toString(16)}`, o.map((x) => `0${x.toString(8)}`).join(".")][
        form
      ]!;
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...RANGES),
        fc.nat(),
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        async ([base, bits], r, form, behindName) => {
          const n = (base + (r % 2 ** (32 - bits))) >>> 0;
          const dotted = spell(n, 0);
          const host = behindName ? "hooks.example.net" : spell(n, form);
          const send = withDns(async () => new Response("unused"), { "hooks.example.net": [dotted] });
          const errors = await callbackUrlErrors(production, `https://${host}/hook`, send);
          expect(errors, host).toEqual([
            expect.objectContaining({ field: "webhookUrl", code: "URL_NOT_ALLOWED" }),
          ]);
        },
      ),
      { numRuns: 200, seed: 20261202 },
    );
    const send = withDns(async () => new Response("unused"));
    expect(await callbackUrlErrors(production, "https://hooks.example.net/hook", send)).toEqual([]);
    expect(await callbackUrlErrors(production, "https://93.184.215.14/hook", send)).toEqual([]);
  });

  it("refuses oversized or non-object metadata, with the config's own errors beside it", async () => {
    const { key, userId } = await newAccount();
    const before = await auditedBalance(userId);
    const big = { blob: "x".repeat(4096) };
    expect(await refused(key, { metadata: big })).toEqual({
      status: 400,
      errors: [
        {
          field: "metadata",
          message: "metadata is 4107 bytes as JSON; at most 4096",
          code: "METADATA_TOO_LARGE",
        },
      ],
    });
    // Multi-byte characters count as bytes.
    expect((await refused(key, { metadata: { s: "é".repeat(2100) } })).errors?.[0]?.code).toBe(
      "METADATA_TOO_LARGE",
    );
    for (const bad of [[1, 2], "text", 5, null])
      expect(await refused(key, { metadata: bad }), JSON.stringify(bad)).toEqual({
        status: 400,
        errors: [{ field: "metadata", message: "metadata must be a JSON object", code: "VALIDATION_ERROR" }],
      });
    const both = await call(
      "/api/v1/jobs",
      json("POST", { type: "video", config: { ...VIDEO, width: 0 }, metadata: big }, key),
    );
    expect((await body(both)).details?.errors?.map((e) => e.field)).toEqual(["config.width", "metadata"]);
    // Just under the bound is fine.
    const fits = await createVideo(key, { metadata: { blob: "x".repeat(4085) } });
    expect(fits.res.status).toBe(201);
    expect(await auditedBalance(userId)).toBe(before - 12);
    // POST /validate says the same without creating anything.
    const checked = await call(
      "/api/v1/jobs/validate",
      json("POST", { type: "video", config: VIDEO, metadata: big, webhookUrl: "https://10.0.0.1/" }, key),
    );
    expect((await body<{ isValid: boolean; errors: { code: string }[] }>(checked)).data).toMatchObject({
      isValid: false,
      errors: [{ code: "METADATA_TOO_LARGE" }, { code: "URL_NOT_ALLOWED" }],
    });
  });

  it("answers a replayed Idempotency-Key with the first job, and 409 for another body under the same key", async () => {
    const { key, userId } = await newAccount();
    const { url } = newBox();
    const headers = { "idempotency-key": `cb-${Date.now()}` };
    const first = await createVideo(key, { webhookUrl: url, metadata: { n: 1 } }, headers);
    const again = await createVideo(key, { webhookUrl: url, metadata: { n: 1 } }, headers);
    expect(first.res.status).toBe(201);
    expect(again.body.data!.jobId).toBe(first.body.data!.jobId);
    const other = await createVideo(key, { webhookUrl: url, metadata: { n: 2 } }, headers);
    expect(other.res.status).toBe(409);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?").bind(userId).first();
    expect(n).toEqual({ n: 1 });
  });

  it("keeps the job-callback endpoint out of the registered endpoints' routes, and another account's out of reach", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const { box, url } = newBox({ fail: 8 });
    const jobId = (await createVideo(owner.key, { webhookUrl: url })).body.data!.jobId;
    await complete(jobId);
    const { id } = await callbacks(owner.key);
    await receivedAtLeast(box, 1);
    const [delivery] = await deliveryRows(id);
    const as = (key: string, method: string, path: string, payload?: unknown) =>
      call(path, payload ? json(method, payload, key) : { method, headers: { "x-api-key": key } });
    // Another account: 404 on every route of it.
    for (const [method, path, payload] of [
      ["GET", `/api/v2/webhooks/${id}/deliveries`],
      ["GET", `/api/v2/webhooks/${id}/deliveries/${delivery!.id}`],
      ["POST", `/api/v2/webhooks/${id}/deliveries/${delivery!.id}/replay`],
      ["POST", `/api/v2/webhooks/${id}/rotate-secret`, {}],
    ] as const)
      expect((await as(other.key, method, path, payload)).status, `${method} ${path}`).toBe(404);
    // Its owner: not a registered endpoint (not listed, read, edited, tested or deleted as one).
    for (const [method, path, payload] of [
      ["GET", `/api/v2/webhooks/${id}`],
      ["PATCH", `/api/v2/webhooks/${id}`, { url: "https://example.com/x" }],
      ["POST", `/api/v2/webhooks/${id}/test`, {}],
      ["DELETE", `/api/v2/webhooks/${id}`],
    ] as const)
      expect((await as(owner.key, method, path, payload)).status, `${method} ${path}`).toBe(404);
    expect((await body<unknown[]>(await as(owner.key, "GET", "/api/v2/webhooks"))).data).toEqual([]);
    // The other account's own callback endpoint is another one, with another secret.
    const theirs = await callbacks(other.key);
    expect(theirs.id).not.toBe(id);
    expect(theirs.secret).not.toBe((await callbacks(owner.key)).secret);
    // The job's events never reach the other account's log.
    expect(await deliveryRows(theirs.id)).toEqual([]);
  });

  it("answers 403 to a key without renders:create, and 401 without a key", async () => {
    const { userId } = await newAccount();
    const readOnly = await createApiKey(testCtx(), {
      userId,
      name: "read only",
      permissions: [{ resource: "jobs", action: "read" }],
    });
    const res = await call("/api/v2/webhooks/job-callbacks", { headers: { "x-api-key": readOnly.key } });
    expect(res.status).toBe(403);
    expect((await body(res)).details).toMatchObject({ requiredScope: "renders:create" });
    expect((await call("/api/v2/webhooks/job-callbacks")).status).toBe(401);
  });

  it("creates one job-callback endpoint per account however many first uses race", async () => {
    const { userId } = await newAccount();
    const ids = await Promise.all(
      Array.from({ length: 8 }, async () => (await callbackEndpoint(testCtx(), userId)).id),
    );
    expect(new Set(ids).size).toBe(1);
    const rows = await env.DB.prepare(
      "SELECT count(*) AS n FROM webhook_endpoints WHERE user_id = ? AND kind = 'callback'",
    )
      .bind(userId)
      .first();
    expect(rows).toEqual({ n: 1 });
  });
});

describe("job rows", () => {
  it("stores webhookUrl and metadata, and the config as submitted, beside the normal form", async () => {
    const { key } = await newAccount();
    const { url } = newBox();
    const jobId = (await createVideo(key, { webhookUrl: url, metadata: METADATA })).body.data!.jobId;
    const row = (await jobRow(jobId))!;
    expect(row.webhook_url).toBe(url);
    expect(JSON.parse(String(row.metadata))).toEqual(METADATA);
    expect(JSON.parse(String(row.config))).toEqual(VIDEO);
  });
});
