import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openJob } from "../../src/jobs/lifecycle.ts";
import { newId } from "../../src/lib/ids.ts";
import { body, newAccount, testCtx } from "./helpers.ts";
import { auditedBalance, createJobCall, seedMediaFile, textImage } from "./jobs-seed.ts";

/**
 * Video jobs: the renderer takes them but can never call back (no Worker listens on PUBLIC_URL in tests), so
 * they stay open for the whole test and the concurrent-job count cannot drop under our feet.
 * 1 s of video: 10 + 2 * 1 = 12 tokens reserved.
 */
const video = {
  type: "video",
  config: {
    width: 64,
    height: 64,
    fps: 10,
    clips: [{ duration: 1, layers: [{ type: "fill-color", color: "#00ff00" }] }],
  },
};
const VIDEO_RESERVE = 12;

const openCount = async (userId: string) =>
  (await env.DB.prepare(
    "SELECT count(*) AS n FROM jobs WHERE user_id = ? AND status IN ('PENDING','PROCESSING')",
  )
    .bind(userId)
    .first<{ n: number }>())!.n;

describe("POST /api/v1/jobs: concurrency of the reservation", () => {
  it("20 parallel creates against a balance for 3: exactly 3 succeed, the rest 402, never negative", async () => {
    const { key, userId } = await newAccount({ planId: "pro", tokens: 3 * VIDEO_RESERVE });
    const responses = await Promise.all(Array.from({ length: 20 }, () => createJobCall(key, video)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 402)).toHaveLength(17);
    const refused = await body(responses.find((r) => r.status === 402)!);
    expect(refused).toMatchObject({ success: false, error: "Insufficient tokens" });
    expect(await auditedBalance(userId)).toBe(0);
    const reserves = await env.DB.prepare(
      "SELECT count(*) AS n, sum(amount) AS s FROM token_ledger WHERE user_id = ? AND kind = 'reserve'",
    )
      .bind(userId)
      .first();
    expect(reserves).toEqual({ n: 3, s: -3 * VIDEO_RESERVE });
  });

  it("20 parallel creates against the free plan's limit of 3: exactly 3 succeed, the rest 429 with details", async () => {
    const { key, userId } = await newAccount({ planId: "free", tokens: 1000 });
    const responses = await Promise.all(Array.from({ length: 20 }, () => createJobCall(key, video)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
    const refused = await body(responses.find((r) => r.status === 429)!);
    expect(refused).toEqual({
      success: false,
      error: "Too many concurrent jobs",
      details: { activeJobs: 3, maxAllowed: 3 },
    });
    expect(await openCount(userId)).toBe(3);
    expect(await auditedBalance(userId)).toBe(1000 - 3 * VIDEO_RESERVE);
  });

  it("both limits at once (lifecycle directly, 40 racers): never over the limit, never negative, ledger == balance", async () => {
    // Balance for 4 reserves of 7 on a plan of 3 concurrent jobs: the concurrency limit binds first.
    const { userId } = await newAccount({ planId: "free", tokens: 28 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, () =>
        openJob(testCtx(), {
          id: newId("job"),
          userId,
          type: "IMAGE",
          config: {},
          normalizedConfig: {},
          plan: null,
          inputFileIds: [],
          outputFormat: "png",
          reserve: 7,
          priority: 5,
          createdAt: Date.now(),
        }),
      ),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(3);
    const reasons = outcomes.flatMap((o) => (o.status === "rejected" ? [String(o.reason)] : []));
    expect(reasons.every((r) => r.includes("Too many concurrent jobs"))).toBe(true);
    expect(await openCount(userId)).toBe(3);
    expect(await auditedBalance(userId)).toBe(7);
  });
});

describe("POST /api/v1/jobs: errors", () => {
  it("402 carries what was required and what is available", async () => {
    const { key } = await newAccount({ tokens: 5 });
    const res = await createJobCall(key, video);
    expect(res.status).toBe(402);
    expect(await body(res)).toEqual({
      success: false,
      error: "Insufficient tokens",
      details: { required: VIDEO_RESERVE, available: 5 },
    });
  });

  it("400 lists every problem with field, message and code", async () => {
    const { key } = await newAccount();
    const config = textImage(2);
    (config as Record<string, unknown>).width = -5;
    (config.layers[1] as Record<string, unknown>).opacity = 7;
    const res = await createJobCall(key, { type: "image", config });
    expect(res.status).toBe(400);
    const errors = (await body(res)).details!.errors!;
    expect(errors.map((e) => e.field)).toEqual(
      expect.arrayContaining(["config.width", "config.layers[1].opacity"]),
    );
    expect(errors.every((e) => e.code === "VALIDATION_ERROR" && e.message.length > 0)).toBe(true);
  });

  it("400 INVALID_CONFIG_TYPE when config is not an object", async () => {
    const { key } = await newAccount();
    const res = await createJobCall(key, { type: "image", config: [1] });
    expect(res.status).toBe(400);
    expect((await body(res)).details!.errors).toEqual([
      { field: "config", message: "config must be an object", code: "INVALID_CONFIG_TYPE" },
    ]);
  });

  it("400 FILE_NOT_FOUND names each missing file's field", async () => {
    const { key, userId } = await newAccount();
    const mine = await seedMediaFile(userId);
    const config = {
      ...textImage(0),
      layers: [
        { type: "image", path: mine.storageUrl },
        { type: "image", path: "/image/2026-01-01/x/missing.png" },
      ],
    };
    const res = await createJobCall(key, { type: "image", config });
    expect(res.status).toBe(400);
    expect((await body(res)).details!.errors).toEqual([
      {
        field: "config.layers[1].path",
        message: "File not found: /image/2026-01-01/x/missing.png",
        code: "FILE_NOT_FOUND",
      },
    ]);
  });

  it("400 for a body that is not JSON, and nothing is reserved", async () => {
    const { key, userId } = await newAccount({ tokens: 40 });
    const { call } = await import("./helpers.ts");
    const res = await call("/api/v1/jobs", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: "{",
    });
    expect(res.status).toBe(400);
    expect(await auditedBalance(userId)).toBe(40);
  });
});

describe("POST /api/v1/jobs: warnings", () => {
  it("answers the warnings validation lists, and an empty list for a config without any", async () => {
    const { key } = await newAccount({ planId: "pro" });
    const editly = { type: "video", config: { ...video.config, outPath: "./out.mp4", verbose: true } };
    const res = await createJobCall(key, editly);
    expect(res.status).toBe(201);
    const created = await body<{ jobId: string; warnings: unknown[] }>(res);
    expect(created.data!.warnings).toEqual([
      {
        field: "config.outPath",
        message: expect.stringContaining("stores the output"),
        code: "IGNORED_PROPERTY",
      },
      { field: "config.verbose", message: expect.stringContaining("no effect"), code: "IGNORED_PROPERTY" },
    ]);
    const row = await env.DB.prepare("SELECT config FROM jobs WHERE id = ?")
      .bind(created.data!.jobId)
      .first<{ config: string }>();
    // Stored as submitted, ignored options included.
    expect(JSON.parse(row!.config)).toEqual(editly.config);
    expect((await body<{ warnings: unknown[] }>(await createJobCall(key, video))).data!.warnings).toEqual([]);
  });
});

describe("POST /api/v1/jobs: security", () => {
  it("401 without a key, 403 with a read-only key; neither creates a job", async () => {
    const { key, userId } = await newAccount({ permissions: [{ resource: "jobs", action: "read" }] });
    expect((await createJobCall("", video)).status).toBe(401);
    const res = await createJobCall(key, video);
    expect(res.status).toBe(403);
    expect(await openCount(userId)).toBe(0);
  });

  it("stores the config as submitted and lists the caller's own input files", async () => {
    const { key, userId } = await newAccount();
    const a = await seedMediaFile(userId);
    const config = {
      ...textImage(0),
      layers: [
        { type: "image", path: a.storageUrl },
        { type: "image", path: a.storageUrl, x: 3 },
      ],
    };
    const res = await createJobCall(key, { type: "image", config });
    expect(res.status).toBe(201);
    const { jobId } = (await body<{ jobId: string }>(res)).data!;
    const row = await env.DB.prepare("SELECT config, input_file_ids FROM jobs WHERE id = ?")
      .bind(jobId)
      .first<{ config: string; input_file_ids: string }>();
    expect(JSON.parse(row!.config)).toEqual(config);
    expect(JSON.parse(row!.input_file_ids)).toEqual([a.id]);
  });
});
