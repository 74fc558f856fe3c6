/**
 * POST /api/v2/templates/{id}/renders (one job from a saved template, answered like POST /api/v1/jobs), template
 * conditions (`when` on layers: saved, validated, merged for renders and batch rows), and GET /api/v2/batches.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createConnection, deliveriesOf } from "./destinations/support.ts";
import { createApiKey } from "../../src/keys/create-api-key.ts";
import { JOB_CREATE_LIMIT } from "../../src/lib/rate-limit.ts";
import { body, call, json, newAccount, testCtx } from "./helpers.ts";
import { auditedBalance, get, jobRow } from "./jobs-seed.ts";
import { until } from "../poll.ts";

/** A card whose logo and price layers show only for rows that give them, and a badge only for a sale. */
const CARD = {
  name: "Product card",
  type: "image",
  config: {
    width: 200,
    height: 100,
    backgroundColor: "{{bg}}",
    layers: [
      { type: "text", text: "{{title}}", x: 4, y: 4 },
      { type: "image", path: "{{logo}}", x: 150, y: 0, width: 50, height: 50, when: "logo" },
      { type: "text", text: "{{price}}", x: 4, y: 60, when: { var: "price" } },
      { type: "text", text: "no price", x: 4, y: 60, when: { var: "price", set: false } },
      {
        type: "rectangle",
        x: 0,
        y: 90,
        width: 200,
        height: 10,
        fill: "#ff0000",
        when: { var: "badge", equals: "sale" },
      },
    ],
  },
  variables: [{ name: "bg", type: "colour", default: "#ffffff" }],
};

const post = (path: string, payload: unknown, key: string, headers: Record<string, string> = {}) => {
  const init = json("POST", payload, key);
  return call(path, { ...init, headers: { ...(init.headers as Record<string, string>), ...headers } });
};

const newTemplate = async (key: string, template: unknown = CARD) => {
  const res = await post("/api/v2/templates", template, key);
  const b = await body<{ id: string; variables: unknown[] }>(res);
  expect(res.status, JSON.stringify(b)).toBe(201);
  return b.data!;
};

const render = (key: string, id: string, payload: unknown, headers: Record<string, string> = {}) =>
  post(`/api/v2/templates/${id}/renders`, payload, key, headers);

/** The stored job's config as submitted (the merged template). */
const jobConfig = async (jobId: string) =>
  JSON.parse(String((await jobRow(jobId))!.config)) as { layers: Record<string, unknown>[] };

describe("templates: conditions", () => {
  it("derives optional variables for conditional layers and condition-only names", async () => {
    const { key } = await newAccount();
    const t = await newTemplate(key);
    expect(t.variables).toEqual([
      { name: "bg", type: "colour", required: true, default: "#ffffff" },
      { name: "title", type: "string", required: true },
      { name: "logo", type: "file", required: false },
      { name: "price", type: "string", required: false },
      { name: "badge", type: "string", required: false },
    ]);
  });

  it("refuses a malformed condition at its field, and `when` in a plain job with a pointer to templates", async () => {
    const { key } = await newAccount();
    const bad = (when: unknown) => ({
      ...CARD,
      config: { ...CARD.config, layers: [{ type: "text", text: "x", when }] },
    });
    for (const [when, message] of [
      [5, "a condition is a variable's name"],
      ["1abc", "var must be a variable's name"],
      [{ var: "a", equals: 1, set: true }, "give equals or set, not both"],
      [{ var: "a", other: 1 }, 'Unknown property "other" in a condition'],
      [{ equals: "x" }, 'a condition needs "var"'],
      [[], "a condition is a variable's name"],
    ] as const) {
      const res = await post("/api/v2/templates", bad(when), key);
      expect(res.status, JSON.stringify(when)).toBe(400);
      const errors = (await body(res)).details!.errors!;
      expect(errors, JSON.stringify(when)).toEqual([
        expect.objectContaining({ field: "config.layers[0].when", code: "INVALID_CONDITION" }),
      ]);
      expect(errors[0]!.message).toContain(message);
    }
    const job = await post(
      "/api/v1/jobs",
      { type: "image", config: { width: 10, height: 10, layers: [{ type: "text", text: "x", when: "a" }] } },
      key,
    );
    expect(job.status).toBe(400);
    expect((await body(job)).details!.errors![0]).toMatchObject({
      field: "config.layers[0].when",
      message: expect.stringContaining('"when" is a template condition'),
    });
  });

  it("checks every conditional layer as shown when the template is saved", async () => {
    const { key } = await newAccount();
    const res = await post(
      "/api/v2/templates",
      {
        ...CARD,
        config: {
          ...CARD.config,
          layers: [...CARD.config.layers, { type: "text", text: "x", fontSize: -1, when: "price" }],
        },
      },
      key,
    );
    expect(res.status).toBe(400);
    expect((await body(res)).details!.errors).toEqual([
      expect.objectContaining({ field: "config.layers[5].fontSize", code: "VALIDATION_ERROR" }),
    ]);
  });
});

describe("POST /api/v2/templates/{id}/renders", () => {
  it("passes destinations on: an unknown connection is refused at its field, a known one is planned on the job", async () => {
    const { key, userId } = await newAccount({ planId: "pro" });
    const t = await newTemplate(key);
    const before = await auditedBalance(userId);
    const refused = await render(key, t.id, {
      variables: { title: "Mug" },
      destinations: [{ connectionId: "conn_nope" }],
    });
    expect(refused.status).toBe(400);
    expect((await body(refused)).details!.errors).toEqual([
      expect.objectContaining({ field: "destinations[0].connectionId", code: "CONNECTION_NOT_FOUND" }),
    ]);
    expect(await auditedBalance(userId)).toBe(before);
    const connection = await createConnection(key, { keyTemplate: "cards/{jobId}.{ext}" });
    const res = await render(key, t.id, {
      variables: { title: "Mug" },
      destinations: [{ connectionId: connection.id }],
    });
    const created = await body<{ jobId: string }>(res);
    expect(res.status, JSON.stringify(created)).toBe(201);
    const jobId = created.data!.jobId;
    expect((await deliveriesOf(key, jobId))!.map((d) => [d.status, d.key])).toEqual([
      ["waiting", `cards/${jobId}.png`],
    ]);
  });

  it("renders one job, keeping only the layers whose condition holds, answered like POST /api/v1/jobs", async () => {
    const { key, userId } = await newAccount();
    const t = await newTemplate(key);
    const before = await auditedBalance(userId);
    const res = await render(key, t.id, { variables: { title: "Mug", price: 12, badge: "sale" } });
    const created = await body<{ jobId: string; status: string; type: string; estimatedTokens: number }>(res);
    expect(res.status, JSON.stringify(created)).toBe(201);
    expect(created.data).toMatchObject({
      status: "PENDING",
      type: "IMAGE",
      estimatedTokens: 5,
      warnings: [],
    });
    const config = await jobConfig(created.data!.jobId);
    expect(config).toEqual({
      width: 200,
      height: 100,
      backgroundColor: "#ffffff",
      layers: [
        { type: "text", text: "Mug", x: 4, y: 4 },
        { type: "text", text: "12", x: 4, y: 60 },
        { type: "rectangle", x: 0, y: 90, width: 200, height: 10, fill: "#ff0000" },
      ],
    });
    expect(await auditedBalance(userId)).toBe(before - 5);
    // Without price or badge: the stand-in layer instead, and no badge.
    const plain = await render(key, t.id, { variables: { title: "Cup", badge: "new", bg: "#000" } });
    const other = await jobConfig((await body<{ jobId: string }>(plain)).data!.jobId);
    expect(other).toEqual({
      width: 200,
      height: 100,
      backgroundColor: "#000",
      layers: [
        { type: "text", text: "Cup", x: 4, y: 4 },
        { type: "text", text: "no price", x: 4, y: 60 },
      ],
    });
  });

  it("carries webhookUrl and metadata to the job, with the same checks as a job", async () => {
    const { key } = await newAccount();
    const t = await newTemplate(key);
    const res = await render(key, t.id, {
      variables: { title: "A" },
      webhookUrl: "http://127.0.0.1:9/hook",
      metadata: { sku: "A-1" },
    });
    expect(res.status).toBe(201);
    const jobId = (await body<{ jobId: string }>(res)).data!.jobId;
    const job = await body(await call(`/api/v1/jobs/${jobId}`, { headers: { "x-api-key": key } }));
    expect(job.data).toMatchObject({ webhookUrl: "http://127.0.0.1:9/hook", metadata: { sku: "A-1" } });
    const refused = await render(key, t.id, {
      variables: { title: "A" },
      webhookUrl: "https://169.254.169.254/latest/meta-data",
      metadata: { big: "x".repeat(5000) },
    });
    expect(refused.status).toBe(400);
    expect((await body(refused)).details!.errors!.map((e) => e.code)).toEqual(["METADATA_TOO_LARGE"]);
    const ssrf = await render(key, t.id, { variables: { title: "A" }, webhookUrl: "https://10.1.1.1/x" });
    expect((await body(ssrf)).details!.errors).toEqual([
      expect.objectContaining({ field: "webhookUrl", code: "URL_NOT_ALLOWED" }),
    ]);
  });

  it("refuses variables as a batch row's: missing, mistyped, unknown, too many; nothing reserved", async () => {
    const { key, userId } = await newAccount();
    const t = await newTemplate(key);
    const before = await auditedBalance(userId);
    const res = await render(key, t.id, { variables: { bg: "blue", nope: 1 } });
    expect(res.status).toBe(400);
    const b = await body(res);
    expect(b.error).toBe("The variables do not fit the template");
    expect(b.details!.errors).toEqual([
      {
        field: "variables.nope",
        message: "nope is not a variable of this template",
        code: "UNKNOWN_VARIABLE",
      },
      {
        field: "variables.bg",
        message: "bg must be a hex colour (#rgb, #rrggbb or #rrggbbaa)",
        code: "TYPE_MISMATCH",
      },
      { field: "variables.title", message: "title is required", code: "MISSING_VARIABLE" },
    ]);
    const many = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`v${i}`, "x"]));
    const tooMany = await render(key, t.id, { variables: many });
    expect((await body(tooMany)).details!.errors).toEqual([
      expect.objectContaining({ field: "variables", code: "TOO_MANY_COLUMNS" }),
    ]);
    // The merged config goes through the job grammar: a file variable naming no stored file.
    const missing = await render(key, t.id, { variables: { title: "x", logo: "/image/none.png" } });
    expect((await body(missing)).details!.errors).toEqual([
      expect.objectContaining({ field: "config.layers[1].path", code: "FILE_NOT_FOUND" }),
    ]);
    for (const bad of [{ variables: [1] }, { variables: "x" }, "nope"])
      expect((await render(key, t.id, bad)).status, JSON.stringify(bad)).toBe(400);
    expect(await auditedBalance(userId)).toBe(before);
  });

  it("answers 404 for another account's template whatever the body, and 403 without renders:create", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const t = await newTemplate(owner.key);
    for (const payload of [{ variables: { title: "x" } }, { variables: "broken" }]) {
      const res = await render(other.key, t.id, payload);
      expect(res.status).toBe(404);
      expect((await body(res)).error).toBe("Template not found");
    }
    expect((await render(owner.key, "tpl_missing", { variables: {} })).status).toBe(404);
    const readOnly = await createApiKey(testCtx(), {
      userId: owner.userId,
      name: "reader",
      permissions: [{ resource: "jobs", action: "read" }],
    });
    const res = await render(readOnly.key, t.id, { variables: { title: "x" } });
    expect(res.status).toBe(403);
    expect((await body(res)).details).toMatchObject({ requiredScope: "renders:create" });
    const n = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id IN (?, ?)")
      .bind(owner.userId, other.userId)
      .first();
    expect(n).toEqual({ n: 0 });
  });

  it("answers a replayed Idempotency-Key with the first job, 409 for another body, and counts as a job creation", async () => {
    const { key, userId } = await newAccount();
    const t = await newTemplate(key);
    const headers = { "idempotency-key": `render-${Date.now()}` };
    const first = await render(key, t.id, { variables: { title: "A" } }, headers);
    const again = await render(key, t.id, { variables: { title: "A" } }, headers);
    expect((await body<{ jobId: string }>(again)).data!.jobId).toBe(
      (await body<{ jobId: string }>(first)).data!.jobId,
    );
    expect((await render(key, t.id, { variables: { title: "B" } }, headers)).status).toBe(409);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?").bind(userId).first();
    expect(n).toEqual({ n: 1 });
    // The rate limit shown is job creation's: three renders so far.
    expect(first.headers.get("x-ratelimit-limit")).toBe(String(JOB_CREATE_LIMIT.limit));
    expect(again.headers.get("x-ratelimit-remaining")).toBe(String(JOB_CREATE_LIMIT.limit - 2));
  });
});

describe("batches with conditions", () => {
  it("merges each row with its own conditions", async () => {
    const { key } = await newAccount();
    const t = await newTemplate(key);
    const res = await post(
      `/api/v2/templates/${t.id}/batches`,
      {
        rows: [
          { title: "one", price: "5" },
          { title: "two", badge: "sale" },
        ],
      },
      key,
    );
    expect(res.status).toBe(201);
    const { batchId } = (await body<{ batchId: string }>(res)).data!;
    const rows = await env.DB.prepare("SELECT config FROM jobs WHERE batch_id = ? ORDER BY batch_row")
      .bind(batchId)
      .all<{ config: string }>();
    const texts = rows.results.map((r) =>
      (JSON.parse(r.config) as { layers: { type: string; text?: string }[] }).layers.map(
        (l) => l.text ?? l.type,
      ),
    );
    expect(texts).toEqual([
      ["one", "5"],
      ["two", "no price", "rectangle"],
    ]);
  });
});

describe("GET /api/v2/batches", () => {
  const list = (key: string, query = "") =>
    call(`/api/v2/batches${query}`, { headers: { "x-api-key": key } });

  it("lists the caller's batches newest first, paged, by template and status, without their jobs", async () => {
    const { key } = await newAccount();
    const a = await newTemplate(key);
    const b = await newTemplate(key, { ...CARD, name: "Other" });
    const ids: string[] = [];
    for (const id of [a.id, a.id, b.id]) {
      const res = await post(
        `/api/v2/templates/${id}/batches`,
        { rows: [{ title: "x" }, { title: "y" }] },
        key,
      );
      ids.push((await body<{ batchId: string }>(res)).data!.batchId);
    }
    const cancel = await call(`/api/v2/batches/${ids[0]}`, {
      method: "DELETE",
      headers: { "x-api-key": key },
    });
    // Two tiny images may both render before the cancel arrives, and a batch that ended cannot be cancelled (409; it
    // happened on a fresh clone): this test is about the list, so the batch is then marked cancelled directly.
    expect([200, 409]).toContain(cancel.status);
    if (cancel.status !== 200)
      await env.DB.prepare("UPDATE batches SET status = 'CANCELLED' WHERE id = ?").bind(ids[0]).run();
    // Its jobs end: cancelled, or finished by a renderer that took them before the cancel (the queue may have).
    const cancelled = await until(
      "the cancelled batch's jobs to end",
      async () => {
        const batch = (
          await body<{ counts: Record<string, number> }>(await get(`/api/v2/batches/${ids[0]}`, key))
        ).data!;
        const ended = ["COMPLETED", "FAILED", "CANCELLED"].reduce(
          (sum, s) => sum + (batch.counts[s] ?? 0),
          0,
        );
        return ended === 2 ? batch : undefined;
      },
      30_000,
    );
    type Page = {
      batches: {
        id: string;
        templateId: string;
        status: string;
        counts: Record<string, number>;
        accepted: number;
      }[];
      pagination: Record<string, unknown>;
    };
    const all = (await body<Page>(await list(key))).data!;
    expect(all.batches.map((x) => x.id)).toEqual([...ids].reverse());
    expect(all.pagination).toEqual({
      page: 1,
      limit: 20,
      totalCount: 3,
      totalPages: 1,
      hasNextPage: false,
      hasPrevPage: false,
    });
    // The list's counts are the batch's own, as its page counts them, over both rows.
    expect(all.batches[2]).toMatchObject({ status: "CANCELLED", accepted: 2 });
    expect(all.batches[2]!.counts).toEqual(cancelled.counts);
    expect(all.batches[0]).not.toHaveProperty("jobs");
    const page2 = (await body<Page>(await list(key, "?limit=2&page=2"))).data!;
    expect(page2.batches.map((x) => x.id)).toEqual([ids[0]]);
    expect(page2.pagination).toMatchObject({ totalPages: 2, hasPrevPage: true, hasNextPage: false });
    const ofA = (await body<Page>(await list(key, `?templateId=${a.id}`))).data!;
    expect(ofA.batches.map((x) => x.id)).toEqual([ids[1], ids[0]]);
    const ofCancelled = (await body<Page>(await list(key, "?status=cancelled"))).data!;
    expect(ofCancelled.batches.map((x) => x.id)).toEqual([ids[0]]);
  });

  it("shows no other account's batches, refuses a bad query, and needs operations:read", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const t = await newTemplate(owner.key);
    await post(`/api/v2/templates/${t.id}/batches`, { rows: [{ title: "x" }] }, owner.key);
    const theirs = await body<{ batches: unknown[] }>(await list(other.key, `?templateId=${t.id}`));
    expect(theirs.data!.batches).toEqual([]);
    for (const q of ["?limit=0", "?limit=101", "?page=0", "?status=DONE", "?sort=x", "?limit=abc"]) {
      const res = await list(owner.key, q);
      expect(res.status, q).toBe(400);
    }
    const media = await createApiKey(testCtx(), {
      userId: owner.userId,
      name: "media only",
      permissions: [{ resource: "media", action: "full" }],
    });
    const res = await list(media.key);
    expect(res.status).toBe(403);
    expect((await body(res)).details).toMatchObject({ requiredScope: "operations:read" });
  });
});
