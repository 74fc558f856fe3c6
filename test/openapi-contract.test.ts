/**
 * The contract checker (test/openapi-contract.ts) on answers made by hand: what the document describes passes, and
 * an undocumented status, Content-Type, property, missing field, body or event fails, so the contract test can fail.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContractViolation, openApiContract, type OpenApiDocument } from "./openapi-contract.ts";
import { at, job } from "./sample-job.ts";

const doc = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "client", "openapi.json"), "utf8"),
) as OpenApiDocument;
const contract = openApiContract(doc, ["/api/v1/jobs/queue-status"]);
const BASE = "http://127.0.0.1:8787";

const json = (status: number, body: unknown, type = "application/json") =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": type } });
const check = (method: string, path: string, res: Response) => contract.check(method, `${BASE}${path}`, res);

const created = {
  jobId: "job_1",
  status: "PENDING",
  type: "IMAGE",
  estimatedTokens: 3,
  createdAt: at,
  warnings: [{ field: "config.outPath", message: "m", code: "IGNORED_PROPERTY" }],
};

describe("the OpenAPI contract checker", () => {
  it("passes answers the document describes, success and error alike", async () => {
    await check("POST", "/api/v1/jobs", json(201, { success: true, data: created }));
    await check("GET", "/api/v1/jobs/job_1", json(200, { success: true, data: job }));
    await check("GET", "/api/v1/jobs/job_1", json(404, { success: false, error: "Job not found" }));
    const invalid = { success: false, error: "Validation failed", details: { errors: [{ message: "m" }] } };
    await check("POST", "/api/v1/jobs", json(400, invalid));
    // A literal path wins over a parameter: /stats is getJobStats, not getJob.
    const stats = { total: 0, totalTokensUsed: 0, byStatus: {}, byType: {} };
    await expect(
      check("GET", "/api/v1/jobs/stats", json(200, { success: true, data: stats })),
    ).rejects.toThrow(/getJobStats.*required/);
  });

  it("fails an undocumented status", async () => {
    await expect(
      check("GET", "/api/v1/jobs/job_1", json(418, { success: false, error: "x" })),
    ).rejects.toThrow(/getJob\) -> 418: status 418 is not documented/);
    await expect(check("GET", "/api/v1/jobs/job_1", json(201, { success: true, data: job }))).rejects.toThrow(
      ContractViolation,
    );
  });

  it("fails an undocumented Content-Type and a body that is not JSON", async () => {
    await expect(
      check("GET", "/api/v1/jobs/job_1", json(200, { success: true, data: job }, "text/plain")),
    ).rejects.toThrow(/Content-Type "text\/plain"/);
    const broken = new Response("{", { status: 200, headers: { "content-type": "application/json" } });
    await expect(check("GET", "/api/v1/jobs/job_1", broken)).rejects.toThrow(/not JSON/);
    // A 304 has no body (the Fetch API cannot even make one with a body): documented so.
    await check("GET", "/api/v1/files/file_1/download", new Response(null, { status: 304 }));
  });

  it("fails a property the schema does not name, a missing one and a wrong type", async () => {
    await expect(
      check("POST", "/api/v1/jobs", json(201, { success: true, data: { ...created, secret: "x" } })),
    ).rejects.toThrow(/additional properties.*secret/);
    const { estimatedTokens: _, ...partial } = created;
    await expect(check("POST", "/api/v1/jobs", json(201, { success: true, data: partial }))).rejects.toThrow(
      /estimatedTokens/,
    );
    await expect(
      check(
        "GET",
        "/api/v1/jobs/job_1",
        json(200, { success: true, data: { ...job, createdAt: "yesterday" } }),
      ),
    ).rejects.toThrow(/createdAt.*date-time/);
    const warned = { ...created, warnings: [{ field: "config.fast", message: "m", code: "SOMETHING_ELSE" }] };
    await expect(check("POST", "/api/v1/jobs", json(201, { success: true, data: warned }))).rejects.toThrow(
      /warnings\/0\/code/,
    );
    const tooMany = { success: false, error: "Too many requests", details: { retryAfter: "soon" } };
    await expect(check("POST", "/api/v1/jobs", json(429, tooMany))).rejects.toThrow(/retryAfter/);
    await expect(check("GET", "/api/v1/jobs/job_1", json(500, { success: false, error: 1 }))).rejects.toThrow(
      /error must be string/,
    );
  });

  it("checks files by type only, HEAD without a body, and leaves routes the document does not describe", async () => {
    const png = new Response(new Uint8Array([137, 80, 78, 71]), { headers: { "content-type": "image/png" } });
    expect((await check("GET", "/api/v1/files/file_1/download", png)).status).toBe(200);
    const head = new Response(null, { headers: { "content-type": "image/png", "content-length": "4" } });
    await check("HEAD", "/api/v1/files/file_1/download", head);
    await check("GET", "/storage/anything", json(200, { whatever: true }));
    await check("POST", "/mcp", json(406, { jsonrpc: "2.0" }));
    await check("PUT", "/api/v1/jobs", json(404, { success: false, error: "Not found" }));
    // An internal route a documented pattern (/api/v1/jobs/{jobId}) would match is left alone too.
    await check("GET", "/api/v1/jobs/queue-status", json(200, { success: true, data: { queues: {} } }));
    expect(contract.operationOf("GET", `${BASE}/api/v1/jobs/job_1/events`)?.op.operationId).toBe(
      "streamJobEvents",
    );
  });

  it("checks an event stream event by event as it is read", async () => {
    const stream = (text: string) => new Response(text, { headers: { "content-type": "text/event-stream" } });
    const progress = {
      id: "job_1",
      status: "PROCESSING",
      progress: { percent: 50, stage: "x" },
      metadata: null,
      updatedAt: at,
    };
    const good = `event: progress\ndata: ${JSON.stringify(progress)}\nid: 0\nretry: 2000\n\n: keep-alive\n\nevent: done\ndata: ${JSON.stringify(job)}\nid: 1\n\n`;
    const read = await check("GET", "/api/v1/jobs/job_1/events", stream(good));
    expect(await read.text()).toBe(good);
    const bad = `event: progress\ndata: ${JSON.stringify({ ...progress, status: "SLEEPING" })}\n\n`;
    const badRead = await check("GET", "/api/v1/jobs/job_1/events", stream(bad));
    await expect(badRead.text()).rejects.toThrow(/event "progress".*status/);
  });
});
