/**
 * /mcp through the official MCP client SDK (Streamable HTTP transport; its fetch is this Worker's). The tools are
 * the API's verbs: same permissions, same owner checks, same error envelope.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { credentialGate, counterKey } from "../../src/auth/credential-gate.ts";
import type { Permission } from "../../src/auth/caller.ts";
import { sha256Hex } from "@media-render/contract/crypto";
import { SCHEMA_COMPONENTS } from "../../src/docs/components.ts";
import { declaredRoutes } from "../../src/lib/declared-routes.ts";
import { JOB_CREATE_LIMIT, windowStart } from "../../src/lib/rate-limit.ts";
import { createApiKey } from "../../src/keys/create-api-key.ts";
import { toolsOf } from "../../src/mcp/tools.ts";
import { BASE, body, call, json, newAccount, send, testCtx } from "./helpers.ts";
import { connect, mcpCall } from "./mcp-client.ts";
import { openPending } from "./jobs-seed.ts";

const imageJob = {
  type: "image",
  config: {
    width: 64,
    height: 32,
    backgroundColor: "#336699",
    layers: [{ type: "text", text: "hi", x: 1, y: 1 }],
  },
};

/** The tools as the routes of the app declare them. */
const TOOLS = toolsOf(createApp());

describe("MCP tools", () => {
  it("takes each tool's input and output schemas from the route it stands for", async () => {
    type Envelope = { schema: { properties: { data: { $ref: string } } } };
    const doc = (await (await call("/api/v1/user-api/docs")).json()) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content: Record<string, Envelope> }> }>
      >;
    };
    const named = new Map(Object.entries(SCHEMA_COMPONENTS).map(([name, schema]) => [schema, name]));
    for (const [name, tool] of TOOLS) {
      const { method, path } = tool.route;
      const op = doc.paths[path]?.[method.toLowerCase()];
      expect(op, `${name}: ${method} ${path}`).toBeDefined();
      // JsonCut's names answer JsonCut's shapes (their own output); they only stand for the route.
      if (tool.declared.output) continue;
      const ok = Object.entries(op!.responses).find(([status]) => status.startsWith("2"))![1];
      const data = ok.content["application/json"]!.schema.properties.data.$ref;
      expect(data, name).toBe(`#/components/schemas/${named.get(tool.output)}`);
    }
  });

  it("stands each tool for the route that declares it, with that route's permission and rate limits", () => {
    const table = Object.fromEntries(
      [...TOOLS].map(([name, t]) => [name, [`${t.route.method} ${t.route.path}`, t.rateLimit, t.needs]]),
    );
    const jobs = { resource: "jobs" };
    const media = { resource: "media" };
    expect(table).toEqual({
      list_schemas: ["GET /api/v1/schemas", "general", []],
      get_schema: ["GET /api/v1/schemas/{name}", "general", []],
      get_image_schema: ["GET /api/v1/schemas/{name}", "general", []],
      get_video_schema: ["GET /api/v1/schemas/{name}", "general", []],
      validate_config: ["POST /api/v1/jobs/validate", "general", [jobs]],
      create_image_config: ["POST /api/v1/jobs/validate", "general", [jobs]],
      create_video_config: ["POST /api/v1/jobs/validate", "general", [jobs]],
      create_job: ["POST /api/v1/jobs", "job creation", [jobs]],
      get_job: ["GET /api/v1/jobs/{jobId}", "general", [jobs]],
      list_jobs: ["GET /api/v1/jobs", "general", [jobs]],
      upload_from_url: ["POST /api/v1/files/upload", "general", [media]],
      get_download_link: ["POST /api/v1/files/{fileId}/link", "general", [media]],
      render_template: ["POST /api/v2/templates/{id}/renders", "job creation", [{ scope: "renders:create" }]],
      run_template_batch: ["POST /api/v2/templates/{id}/batches", "general", [{ scope: "templates:bulk" }]],
      get_batch: ["GET /api/v2/batches/{id}", "general", [{ scope: "operations:read" }]],
    });
  });

  it("hears from every described route whether an agent may call it: false, or its tools", () => {
    const declared = declaredRoutes(createApp());
    for (const { method, path, doc } of declared)
      expect(
        doc.mcp === false || (typeof doc.mcp === "object" && Object.keys(doc.mcp).length > 0),
        `${method} ${path}`,
      ).toBe(true);
    // And every tool a route declares is offered.
    const declaredTools = declared.flatMap((r) => Object.keys(r.doc.mcp || {}));
    expect(new Set(declaredTools)).toEqual(new Set(TOOLS.keys()));
  });

  it("refuses a tool to exactly the keys its route refuses over HTTP", { timeout: 120_000 }, async () => {
    const credentials: { permissions: Permission[]; scopes?: string[] }[] = [
      { permissions: [] },
      { permissions: [{ resource: "media", action: "read" }] },
      { permissions: [{ resource: "media", action: "full" }] },
      { permissions: [{ resource: "jobs", action: "read" }] },
      { permissions: [{ resource: "jobs", action: "full" }] },
      { permissions: [], scopes: ["renders:create", "operations:read"] },
      { permissions: [], scopes: ["templates:bulk"] },
    ];
    const { userId } = await newAccount();
    const verdicts: string[] = [];
    for (const [i, { permissions, scopes }] of credentials.entries()) {
      const { key } = await createApiKey(testCtx(), { userId, name: `k${i}`, permissions, scopes });
      const client = await connect({ "x-api-key": key });
      for (const [name, tool] of TOOLS) {
        const path = tool.route.path.replace("{name}", "image").replace(/\{\w+\}/g, "x");
        const http = await call(path, {
          method: tool.route.method,
          headers: { "x-api-key": key, "content-type": "application/json" },
          ...(tool.route.method === "GET" ? {} : { body: "{}" }),
        });
        const mcp = await mcpCall(client, name, {});
        const refusedOverMcp = mcp.isError && /^This (API )?key (cannot|lacks)/.test(String(mcp.body.error));
        verdicts.push(`${name} key ${i}: http ${http.status === 403} mcp ${refusedOverMcp}`);
        expect(
          refusedOverMcp,
          `${name}, key ${i}: HTTP ${http.status}, MCP ${JSON.stringify(mcp.body)}`,
        ).toBe(http.status === 403);
      }
      await client.close();
    }
    // Both verdicts occur: the comparison is not vacuous.
    expect(verdicts.some((v) => v.endsWith("http true mcp true"))).toBe(true);
    expect(verdicts.some((v) => v.endsWith("http false mcp false"))).toBe(true);
  });

  it("lists the tools with input schemas generated from the validating schemas", async () => {
    const { key } = await newAccount();
    const client = await connect({ authorization: `Bearer ${key}` });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "create_image_config",
      "create_job",
      "create_video_config",
      "get_batch",
      "get_download_link",
      "get_image_schema",
      "get_job",
      "get_schema",
      "get_video_schema",
      "list_jobs",
      "list_schemas",
      "render_template",
      "run_template_batch",
      "upload_from_url",
      "validate_config",
    ]);
    const link = tools.find((t) => t.name === "get_download_link")!;
    expect(link.inputSchema).toMatchObject({
      type: "object",
      required: ["fileId"],
      properties: { expiresIn: { type: "integer", minimum: 60, maximum: 604800 } },
    });
    expect(link.outputSchema).toMatchObject({
      type: "object",
      required: ["url", "expiresAt"],
      properties: { expiresAt: { type: "string", format: "date-time" } },
    });
    const create = tools.find((t) => t.name === "create_job")!;
    expect(create.inputSchema).toMatchObject({
      properties: {
        type: { enum: ["image", "video"] },
        config: { type: "object" },
        webhookUrl: { type: "string", format: "uri", maxLength: 2048 },
        metadata: { type: "object" },
      },
    });
    expect(tools.every((t) => t.outputSchema?.type === "object")).toBe(true);
    await client.close();
  });

  it("reads schemas, validates, creates a job and reads it back, as the HTTP API would", async () => {
    const { key } = await newAccount();
    const client = await connect({ "x-api-key": key });
    const schema = await mcpCall(client, "get_schema", { name: "video" });
    expect(schema.body).toMatchObject({ version: "1.4.0", schema: { type: "object" } });

    const bad = await mcpCall(client, "validate_config", { type: "image", config: { width: 0, layers: [] } });
    expect(bad.isError).toBe(false);
    expect(bad.body.isValid).toBe(false);
    expect((bad.body.errors as { field: string }[]).map((e) => e.field)).toContain("config.width");

    const created = await mcpCall(client, "create_job", imageJob);
    expect(created.body).toMatchObject({ status: "PENDING", type: "IMAGE", estimatedTokens: 3 });
    const jobId = created.body.jobId as string;
    const job = await mcpCall(client, "get_job", { jobId });
    expect(job.body).toMatchObject({ id: jobId, status: expect.any(String) });
    const list = await mcpCall(client, "list_jobs", { limit: 5 });
    expect((list.body.jobs as { id: string }[]).map((j) => j.id)).toContain(jobId);
    // The route's query schema: numbers or their text, in any letter case, as GET /api/v1/jobs takes them.
    const images = await mcpCall(client, "list_jobs", { limit: "1", type: "image" });
    expect(images.body.pagination).toMatchObject({ limit: 1, totalCount: 1 });
    const badQuery = await mcpCall(client, "list_jobs", { limit: "0" });
    expect(badQuery.isError).toBe(true);
    expect(JSON.stringify(badQuery.body)).toContain("limit must be an integer between 1 and 100");
    const row = await send(new Request(`${BASE}/api/v1/jobs/${jobId}`, { headers: { "x-api-key": key } }));
    expect(row.status).toBe(200);
    await client.close();
  });

  it("keeps to the key's permissions and its owner's data, and answers errors in the envelope", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const jobId = await openPending(owner.userId, 5);

    const stranger = await connect({ "x-api-key": other.key });
    expect(await mcpCall(stranger, "get_job", { jobId })).toEqual({
      isError: true,
      body: { success: false, error: "Job not found" },
    });

    const mediaOnly = await newAccount({ permissions: [{ resource: "media", action: "full" }] });
    const limited = await connect({ "x-api-key": mediaOnly.key });
    const refused = await mcpCall(limited, "create_job", imageJob);
    expect(refused).toMatchObject({
      isError: true,
      body: { success: false, error: "This key cannot change jobs" },
    });
    const readOnly = await newAccount({ permissions: [{ resource: "jobs", action: "read" }] });
    const reader = await connect({ "x-api-key": readOnly.key });
    expect((await mcpCall(reader, "create_job", imageJob)).isError).toBe(true);
    expect((await mcpCall(reader, "get_job", { jobId: "job_nope" })).body.error).toBe("Job not found");

    const unknown = await mcpCall(stranger, "__proto__");
    expect(unknown).toMatchObject({ isError: true, body: { error: "Unknown tool: __proto__" } });
    const extra = await mcpCall(stranger, "get_job", { jobId, also: 1 });
    expect(extra.isError).toBe(true);
    expect(extra.body.success).toBe(false);
    const ssrf = await mcpCall(stranger, "upload_from_url", {
      url: "http://169.254.169.254/latest/meta-data",
    });
    expect(ssrf).toMatchObject({ isError: true, body: { success: false } });
    expect(JSON.stringify(ssrf.body)).toContain("URL_NOT_ALLOWED");
  });

  it(
    "runs a template batch and reads it back; another account's template or batch is not found",
    { timeout: 120_000 },
    async () => {
      const owner = await newAccount({ planId: "pro", tokens: 500 });
      const created = await call(
        "/api/v2/templates",
        json(
          "POST",
          {
            name: "MCP badge",
            type: "image",
            config: {
              width: 40,
              height: 20,
              backgroundColor: "{{bg}}",
              layers: [{ type: "text", text: "x", x: 1, y: 1 }],
            },
          },
          owner.key,
        ),
      );
      const template = await body<{ id: string }>(created);
      expect(template).toMatchObject({ success: true });
      const templateId = template.data!.id;
      const client = await connect({ "x-api-key": owner.key });
      const bad = await mcpCall(client, "run_template_batch", {
        templateId,
        rows: [{ bg: "#ff0000" }, { bg: "not a colour" }],
      });
      expect(bad.isError).toBe(true);
      expect(bad.body).toMatchObject({
        success: false,
        error: "1 of 2 rows are not valid; nothing was charged",
        details: { errors: [{ row: 2, field: "bg" }] },
      });
      const noJobs = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?")
        .bind(owner.userId)
        .first<{ n: number }>();
      expect(noJobs!.n).toBe(0);

      const ran = await mcpCall(client, "run_template_batch", {
        templateId,
        rows: [{ bg: "#ff0000" }, { bg: "#00ff00" }],
      });
      expect(ran.isError).toBe(false);
      expect(ran.body).toMatchObject({
        templateId,
        status: "RUNNING",
        totalRows: 2,
        accepted: 2,
        rejected: [],
      });
      const batchId = ran.body.batchId as string;
      expect(batchId).toMatch(/^bat/);
      const read = await mcpCall(client, "get_batch", { batchId });
      expect(read.body).toMatchObject({ id: batchId, templateId, totalRows: 2, accepted: 2 });
      expect((read.body.jobs as unknown[]).length).toBe(2);

      const other = await newAccount({ planId: "pro", tokens: 500 });
      const stranger = await connect({ "x-api-key": other.key });
      expect((await mcpCall(stranger, "get_batch", { batchId })).body).toMatchObject({ success: false });
      const foreign = await mcpCall(stranger, "run_template_batch", { templateId, rows: [{ bg: "#fff" }] });
      expect(foreign.body).toMatchObject({ success: false, error: "Template not found" });
      const readOnly = await newAccount({ permissions: [{ resource: "jobs", action: "read" }] });
      const reader = await connect({ "x-api-key": readOnly.key });
      const refused = await mcpCall(reader, "run_template_batch", { templateId, rows: [{ bg: "#fff" }] });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.body)).toContain("templates:bulk");

      // The batch renders through the queue like any other; the tool reads its end.
      let ended = read.body;
      while (ended.status === "RUNNING") {
        await new Promise((r) => setTimeout(r, 250));
        ended = (await mcpCall(client, "get_batch", { batchId })).body;
      }
      expect(ended).toMatchObject({ status: "COMPLETED", counts: { COMPLETED: 2 }, progress: 100 });
      await client.close();
    },
  );

  it("refuses a missing or wrong key with 401 before any MCP exchange", async () => {
    await expect(connect({})).rejects.toThrow(/401|Unauthorized/i);
    await expect(connect({ authorization: "Bearer mrk_not-a-key" })).rejects.toThrow(/401|Unauthorized/i);
    const res = await send(
      new Request(`${BASE}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: "{}",
      }),
    );
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ success: false, error: "Unauthorized" });
  });
});

/** Sets the key's job-creation count in its gate to `count`, in this window and the next (a test never straddles). */
const preloadJobCreations = async (key: string, count: number) => {
  const start = windowStart(Date.now(), JOB_CREATE_LIMIT.windowMs);
  await runInDurableObject(credentialGate(env, "key", await sha256Hex(key)), (gate, state) => {
    gate.flush();
    for (const ws of [start, start + JOB_CREATE_LIMIT.windowMs])
      state.storage.kv.put(counterKey(JOB_CREATE_LIMIT, ws), count);
  });
};

/**
 * Waits, if the current window of `limit` ends within 10 s, until the next one starts: counts compared across two
 * requests must fall in one window (they are fixed windows aligned to the epoch).
 */
const awayFromWindowEdge = async (limit: { windowMs: number }) => {
  const left = windowStart(Date.now(), limit.windowMs) + limit.windowMs - Date.now();
  if (left < 10_000) await new Promise((r) => setTimeout(r, left + 50));
};

describe("MCP rate limits", () => {
  it("counts create_job against job creation's limit, in the key's own gate, as POST /api/v1/jobs", async () => {
    const { key } = await newAccount();
    const client = await connect({ "x-api-key": key });
    await awayFromWindowEdge(JOB_CREATE_LIMIT);
    expect((await mcpCall(client, "create_job", imageJob)).isError).toBe(false);
    // A read through MCP counts only against the general limit.
    await mcpCall(client, "list_jobs", {});
    const res = await call("/api/v1/jobs", json("POST", imageJob, key));
    expect(res.status).toBe(201);
    expect(res.headers.get("x-ratelimit-limit")).toBe(String(JOB_CREATE_LIMIT.limit));
    expect(res.headers.get("x-ratelimit-remaining")).toBe(String(JOB_CREATE_LIMIT.limit - 2));
    await client.close();
  });

  it("refuses create_job past the limit with the route's 429 while other tools still answer", async () => {
    const { key, userId } = await newAccount();
    const client = await connect({ "x-api-key": key });
    await preloadJobCreations(key, JOB_CREATE_LIMIT.limit);
    await expect(client.callTool({ name: "create_job", arguments: imageJob })).rejects.toThrow(
      /429|Too many requests/,
    );
    expect((await call("/api/v1/jobs", json("POST", imageJob, key))).status).toBe(429);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?")
      .bind(userId)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
    expect((await mcpCall(client, "list_jobs", {})).isError).toBe(false);
    await client.close();
  });

  it("takes one tools/call per request (a batch of them would count once)", async () => {
    const { key } = await newAccount();
    const call1 = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "create_job", arguments: imageJob },
    };
    const res = await send(
      new Request(`${BASE}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "x-api-key": key,
        },
        body: JSON.stringify([call1, { ...call1, id: 2 }]),
      }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      success: false,
      details: { errors: [{ code: "ONE_TOOL_CALL_PER_REQUEST" }] },
    });
  });
});
