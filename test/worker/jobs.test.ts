import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { body, call, fixture, json, newAccount, upload } from "./helpers.ts";

type Created = { jobId: string; status: string; type: string; estimatedTokens: number; createdAt: string };
type Job = Record<string, unknown> & {
  id: string;
  status: string;
  outputFileId: string | null;
  tokensUsed: number;
  inputFileIds: string[];
};

const imageConfig = (layers: unknown[] = [{ type: "text", text: "Hi", x: 10, y: 10 }]) => ({
  width: 200,
  height: 100,
  backgroundColor: "#336699",
  layers,
});

const create = (key: string, payload: unknown) => call("/api/v1/jobs", json("POST", payload, key));
const getJob = async (key: string, id: string) =>
  body<Job>(await call(`/api/v1/jobs/${id}`, { headers: { "x-api-key": key } }));

describe("job creation", () => {
  it("creates a PENDING image job with priority 5 and reserves the estimate", async () => {
    const { key, userId } = await newAccount();
    const res = await create(key, { type: "image", config: imageConfig() });
    expect(res.status).toBe(201);
    const b = await body<Created>(res);
    expect(b.success).toBe(true);
    expect(b.data).toMatchObject({ status: "PENDING", type: "IMAGE", estimatedTokens: 3 });
    expect(b.data!.jobId).toMatch(/^job_/);
    const row = await env.DB.prepare("SELECT priority, tokens_reserved, user_id FROM jobs WHERE id = ?")
      .bind(b.data!.jobId)
      .first();
    expect(row).toEqual({ priority: 5, tokens_reserved: 3, user_id: userId });
    const ledger = await env.DB.prepare("SELECT kind, amount FROM token_ledger WHERE job_id = ?")
      .bind(b.data!.jobId)
      .all();
    expect(ledger.results).toEqual([{ kind: "reserve", amount: -3 }]);
  });

  it("renders the image job to COMPLETED with an output file and 2 + 1 per layer tokens", async () => {
    const { key } = await newAccount();
    const img = (
      await body<{ storageUrl: string; id: string }>(await upload(key, "emoji.png", fixture("emoji.png")))
    ).data!;
    const config = imageConfig([
      { type: "image", path: img.storageUrl, x: 0, y: 0, width: 100, height: 100 },
      { type: "text", text: "Hi", x: 120, y: 30, fontSize: 30, color: "#ffffff" },
    ]);
    const created = (await body<Created>(await create(key, { type: "image", config }))).data!;
    const job = await vi.waitFor(
      async () => {
        const j = (await getJob(key, created.jobId)).data!;
        if (j.status !== "COMPLETED" && j.status !== "FAILED") throw new Error(`still ${j.status}`);
        return j;
      },
      { timeout: 25_000, interval: 100 },
    );
    expect(job).toMatchObject({
      status: "COMPLETED",
      tokensUsed: 4,
      outputFormat: "png",
      priority: 5,
      errorMessage: null,
    });
    expect(job.inputFileIds).toEqual([img.id]);
    expect(job.config).toEqual(config);
    expect(Date.parse(String(job.startedAt))).toBeLessThanOrEqual(Date.parse(String(job.completedAt)));
    const png = await call(`/api/v1/files/${job.outputFileId}/download`, { headers: { "x-api-key": key } });
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await png.arrayBuffer());
    const view = new DataView(bytes.buffer);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([200, 100]);
  });

  it("answers 400 with field errors for an invalid config and creates nothing", async () => {
    const { key, userId } = await newAccount();
    const res = await create(key, { type: "image", config: { width: 0, height: 100, layers: [] } });
    expect(res.status).toBe(400);
    const b = await body(res);
    expect(b.success).toBe(false);
    expect(b.details?.errors?.length).toBeGreaterThan(0);
    expect(b.details?.errors?.every((e) => typeof e.message === "string")).toBe(true);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?")
      .bind(userId)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
  });

  it("answers 400 INVALID_JOB_TYPE for an unknown type", async () => {
    const { key } = await newAccount();
    const b = await body(await create(key, { type: "gif", config: imageConfig() }));
    expect(b.details?.errors?.[0]).toMatchObject({ field: "type", code: "INVALID_JOB_TYPE" });
  });

  it("answers 400 when a referenced file does not exist or is another account's", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const img = (
      await body<{ storageUrl: string }>(await upload(owner.key, "emoji.png", fixture("emoji.png")))
    ).data!;
    const res = await create(other.key, {
      type: "image",
      config: imageConfig([{ type: "image", path: img.storageUrl }]),
    });
    expect(res.status).toBe(400);
    expect((await body(res)).details?.errors?.[0]).toMatchObject({ code: "FILE_NOT_FOUND" });
  });

  it("answers 402 when the balance cannot cover the estimate", async () => {
    const { key, userId } = await newAccount({ tokens: 2 });
    const res = await create(key, { type: "image", config: imageConfig() });
    expect(res.status).toBe(402);
    expect(await body(res)).toMatchObject({ success: false, error: "Insufficient tokens" });
    const u = await env.DB.prepare("SELECT token_balance AS b FROM users WHERE id = ?")
      .bind(userId)
      .first<{ b: number }>();
    expect(u!.b).toBe(2);
  });

  it("answers 429 with activeJobs and maxAllowed over the plan's concurrent-job limit", async () => {
    const { key, userId } = await newAccount({ planId: "free" });
    // Hold three open jobs without letting the queue finish them.
    for (let i = 0; i < 3; i++) {
      await env.DB.prepare(
        "INSERT INTO jobs (id, user_id, type, status, config, input_file_ids, output_format, tokens_reserved, created_at, updated_at) VALUES (?, ?, 'VIDEO', 'PROCESSING', '{}', '[]', 'mp4', 0, ?, ?)",
      )
        .bind(`job_open_${userId}_${i}`, userId, Date.now(), Date.now())
        .run();
    }
    const res = await create(key, { type: "image", config: imageConfig() });
    expect(res.status).toBe(429);
    expect(await body(res)).toMatchObject({ success: false, details: { activeJobs: 3, maxAllowed: 3 } });
  });
});

describe("job reading", () => {
  it("answers 404 for another account's job", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const created = (await body<Created>(await create(owner.key, { type: "image", config: imageConfig() })))
      .data!;
    const res = await call(`/api/v1/jobs/${created.jobId}`, { headers: { "x-api-key": other.key } });
    expect(res.status).toBe(404);
    expect(await body(res)).toEqual({ success: false, error: "Job not found" });
  });
});
