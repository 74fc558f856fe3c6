/**
 * The node's other operations in a real n8n (validate a config, get a job, download its output, list jobs), the
 * credential test n8n runs against GET /api/v1/account, and what n8n shows when the service refuses: another
 * account's job, a wrong key.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createCredential, executionOf, n8nApi, outputOf, webhookWorkflow } from "./workflows.ts";

const base = inject("baseUrl");
const key = inject("apiKey");

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, { ...init, headers: { "x-api-key": key, ...init.headers } });

/** An image job of the test's account, rendered to the end; answers its id and output file id. */
const renderedJob = async () => {
  const created = await api("/api/v1/jobs", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      type: "image",
      config: {
        width: 48,
        height: 32,
        backgroundColor: "#123456",
        layers: [{ type: "text", text: "·", x: 4, y: 4 }],
      },
    }),
  });
  const { jobId } = ((await created.json()) as { data: { jobId: string } }).data;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = (
      (await (await api(`/api/v1/jobs/${jobId}`)).json()) as {
        data: { status: string; outputFileId: string | null };
      }
    ).data;
    if (job.status === "COMPLETED") return { jobId, outputFileId: job.outputFileId! };
    if (job.status === "FAILED" || Date.now() > deadline) throw new Error(`job ${jobId}: ${job.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

let credential: { id: string; name: string };
beforeAll(async () => {
  credential = await createCredential({ baseUrl: base, apiKey: key });
});

describe("credentials", () => {
  it("passes n8n's credential test with a valid key and fails it with the service's answer to a wrong one", async () => {
    const good = await n8nApi<{ status: string }>(`/credentials/${credential.id}/test`, { method: "POST" });
    expect(good.status).toBe("OK");
    const wrong = await createCredential({ baseUrl: `${base}/`, apiKey: "mrk_not_a_key" });
    const bad = await n8nApi<{ status: string; message: string }>(`/credentials/${wrong.id}/test`, {
      method: "POST",
    });
    expect(bad.status).toBe("Error");
    expect(bad.message).toMatch(/401|Unauthorized/i);
  });

  it("fails a workflow run with a wrong key with the service's 401", async () => {
    const wrong = await createCredential({ baseUrl: base, apiKey: "mrk_not_a_key" });
    const flow = await webhookWorkflow(
      [{ name: "List", parameters: { resource: "job", operation: "getAll", limit: 1 } }],
      wrong,
      "json",
    );
    expect((await flow.call("{}", "application/json")).status).toBe(500);
    const error = (await executionOf(flow.workflowId)).data.resultData.error!;
    expect(error.httpCode).toBe("401");
    expect(error.message).toBe("Unauthorized");
  });
});

describe("validate config", () => {
  it("answers the service's verdict with each field error, without failing the workflow", async () => {
    const flow = await webhookWorkflow(
      [
        {
          name: "Validate",
          parameters: {
            resource: "render",
            operation: "validateConfig",
            jobType: "image",
            config: JSON.stringify({
              width: 0,
              height: 100,
              layers: [{ type: "text", text: "x", x: 0, y: 0 }],
            }),
          },
        },
      ],
      credential,
      "json",
    );
    const res = await flow.call("{}", "application/json");
    expect(res.status).toBe(200);
    const [verdict] = (await res.json()) as { isValid: boolean; errors: { field: string }[] }[];
    expect(verdict!.isValid).toBe(false);
    expect(verdict!.errors.map((e) => e.field)).toContain("config.width");
  });
});

describe("jobs", () => {
  it("gets a job and downloads its output, byte for byte the service's file", async () => {
    const { jobId, outputFileId } = await renderedJob();
    const flow = await webhookWorkflow(
      [
        { name: "Get", parameters: { resource: "job", operation: "get", jobId: "={{ $json.body.jobId }}" } },
        {
          name: "Download",
          parameters: { resource: "job", operation: "downloadOutput", jobId: "={{ $json.id }}" },
        },
      ],
      credential,
      "binary",
    );
    const res = await flow.call(JSON.stringify({ jobId }), "application/json");
    expect(res.status).toBe(200);
    const fromN8n = Buffer.from(await res.arrayBuffer());
    const fromService = Buffer.from(
      await (await api(`/api/v1/files/${outputFileId}/download`)).arrayBuffer(),
    );
    expect(Buffer.compare(fromN8n, fromService)).toBe(0);
    const execution = await executionOf(flow.workflowId);
    expect(outputOf(execution, "Get")[0]).toMatchObject({ id: jobId, status: "COMPLETED", outputFileId });
  });

  it("lists jobs, newest first, up to the limit, filtered by status and type", async () => {
    const first = await renderedJob();
    const second = await renderedJob();
    const flow = await webhookWorkflow(
      [
        {
          name: "List",
          parameters: {
            resource: "job",
            operation: "getAll",
            returnAll: false,
            limit: 2,
            filters: { status: "COMPLETED", type: "IMAGE" },
          },
        },
      ],
      credential,
      "json",
    );
    const res = await flow.call("{}", "application/json");
    expect(res.status).toBe(200);
    const jobs = (await res.json()) as { id: string; status: string }[];
    expect(jobs.map((j) => j.id)).toEqual([second.jobId, first.jobId]);
  });

  it("says the service's 404 for another account's job, and downloads nothing", async () => {
    // A job of the test's account, asked for with a key of another account.
    const { jobId } = await renderedJob();
    const other = await createCredential({ baseUrl: base, apiKey: inject("otherApiKey") });
    const flow = await webhookWorkflow(
      [{ name: "Download", parameters: { resource: "job", operation: "downloadOutput", jobId } }],
      other,
      "binary",
    );
    expect((await flow.call("{}", "application/json")).status).toBe(500);
    const error = (await executionOf(flow.workflowId)).data.resultData.error!;
    expect(error.httpCode).toBe("404");
    expect(error.message).toMatch(/not found/i);
  });
});
