/**
 * /mcp through the official MCP client SDK (Streamable HTTP transport; its fetch is this Worker's). The tools are
 * the API's verbs: same permissions, same owner checks, same error envelope.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BASE, newAccount } from "./helpers";
import { openPending } from "./jobs-seed";

const connect = async (headers: Record<string, string>) => {
  const client = new Client({ name: "test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
    requestInit: { headers },
    fetch: (url, init) => exports.default.fetch(new Request(url, init)),
  });
  await client.connect(transport);
  return client;
};

type Result = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: unknown };
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
  const r = (await client.callTool({ name, arguments: args })) as Result;
  return { isError: r.isError ?? false, body: JSON.parse(r.content[0]!.text) as Record<string, unknown> };
};

const imageJob = {
  type: "image",
  config: {
    width: 64,
    height: 32,
    backgroundColor: "#336699",
    layers: [{ type: "text", text: "hi", x: 1, y: 1 }],
  },
};

describe("MCP tools", () => {
  it("lists the tools with input schemas generated from the validating schemas", async () => {
    const { key } = await newAccount();
    const client = await connect({ authorization: `Bearer ${key}` });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "create_job",
      "get_batch",
      "get_download_link",
      "get_job",
      "get_schema",
      "list_jobs",
      "list_schemas",
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
    await client.close();
  });

  it("reads schemas, validates, creates a job and reads it back, as the HTTP API would", async () => {
    const { key } = await newAccount();
    const client = await connect({ "x-api-key": key });
    const schema = await call(client, "get_schema", { name: "video" });
    expect(schema.body).toMatchObject({ version: "1.4.0", schema: { type: "object" } });

    const bad = await call(client, "validate_config", { type: "image", config: { width: 0, layers: [] } });
    expect(bad.isError).toBe(false);
    expect(bad.body.isValid).toBe(false);
    expect((bad.body.errors as { field: string }[]).map((e) => e.field)).toContain("config.width");

    const created = await call(client, "create_job", imageJob);
    expect(created.body).toMatchObject({ status: "PENDING", type: "IMAGE", estimatedTokens: 3 });
    const jobId = created.body.jobId as string;
    const job = await call(client, "get_job", { jobId });
    expect(job.body).toMatchObject({ id: jobId, status: expect.any(String) });
    const list = await call(client, "list_jobs", { limit: 5 });
    expect((list.body.jobs as { id: string }[]).map((j) => j.id)).toContain(jobId);
    const row = await exports.default.fetch(
      new Request(`${BASE}/api/v1/jobs/${jobId}`, { headers: { "x-api-key": key } }),
    );
    expect(row.status).toBe(200);
    await client.close();
  });

  it("keeps to the key's permissions and its owner's data, and answers errors in the envelope", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const jobId = await openPending(owner.userId, 5);

    const stranger = await connect({ "x-api-key": other.key });
    expect(await call(stranger, "get_job", { jobId })).toEqual({
      isError: true,
      body: { success: false, error: "Job not found" },
    });

    const mediaOnly = await newAccount({ permissions: [{ resource: "media", action: "full" }] });
    const limited = await connect({ "x-api-key": mediaOnly.key });
    const refused = await call(limited, "create_job", imageJob);
    expect(refused).toMatchObject({
      isError: true,
      body: { success: false, error: "This key cannot change jobs" },
    });
    const readOnly = await newAccount({ permissions: [{ resource: "jobs", action: "read" }] });
    const reader = await connect({ "x-api-key": readOnly.key });
    expect((await call(reader, "create_job", imageJob)).isError).toBe(true);
    expect((await call(reader, "get_job", { jobId: "job_nope" })).body.error).toBe("Job not found");

    const unknown = await call(stranger, "__proto__");
    expect(unknown).toMatchObject({ isError: true, body: { error: "Unknown tool: __proto__" } });
    const extra = await call(stranger, "get_job", { jobId, also: 1 });
    expect(extra.isError).toBe(true);
    expect(extra.body.success).toBe(false);
    const ssrf = await call(stranger, "upload_from_url", { url: "http://169.254.169.254/latest/meta-data" });
    expect(ssrf).toMatchObject({ isError: true, body: { success: false } });
    expect(JSON.stringify(ssrf.body)).toContain("URL_NOT_ALLOWED");
  });

  it("refuses a missing or wrong key with 401 before any MCP exchange", async () => {
    await expect(connect({})).rejects.toThrow(/401|Unauthorized/i);
    await expect(connect({ authorization: "Bearer mrk_not-a-key" })).rejects.toThrow(/401|Unauthorized/i);
    const res = await exports.default.fetch(
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
