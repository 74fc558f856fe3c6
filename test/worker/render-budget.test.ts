/**
 * A video job's render is bounded by what it asks for (issue 29): GL drawing that could never fit one render is
 * refused at validation, the deadline the renderer enforces comes from the planned length and size and is shared by
 * every hand-over of the job, and renderer time spent on renders that failed by the job's own fault counts against
 * the account (a quota over the last 24 hours; failed jobs still cost no tokens).
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createContext } from "../../src/context.ts";
import { FAILED_RENDER_SECONDS_PER_DAY, FAILED_RENDER_WINDOW_MS } from "../../src/jobs/render-quota.ts";
import { dispatchVideoJob } from "../../src/queues/dispatch-video.ts";
import { body, call, json, newAccount } from "./helpers.ts";
import {
  auditedBalance,
  jobRow,
  openPending,
  postStatusReport,
  statusReport,
  seedJob,
  textImage,
} from "./jobs-seed.ts";

afterEach(() => vi.restoreAllMocks());

/** One clip of `seconds` with `glLayers` gl layers, at `size` and `fps`. */
const glVideo = (size: number, fps: number, seconds: number, glLayers = 1) => ({
  type: "video",
  config: {
    width: size,
    height: size,
    fps,
    clips: [
      {
        duration: seconds,
        layers: Array.from({ length: glLayers }, () => ({
          type: "gl",
          fragmentShader: "void main() { gl_FragColor = vec4(1.0); }",
        })),
      },
    ],
  },
});

const openJobs = async (userId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?")
    .bind(userId)
    .first<{ n: number }>())!.n;

describe("GL budget", () => {
  it("refuses, at validate and at create, GL drawing that could never fit one render, naming it", async () => {
    const { key, userId } = await newAccount({ tokens: 10_000 });
    // 60 s of a 4096x4096 gl layer at 60 fps: 3600 frames x 16.8 million pixels = 60.4 billion (at most 50).
    const huge = glVideo(4096, 60, 60);
    const validated = await body(await call("/api/v1/jobs/validate", json("POST", huge, key)));
    expect(validated.data).toMatchObject({ isValid: false, estimatedTokens: 0 });
    const error = {
      field: "config",
      code: "GL_WORK_TOO_LARGE",
      message: expect.stringMatching(
        /^the video would draw 60\.4 billion pixels with software GL .* at most 50 billion fit in one render/,
      ),
    };
    expect((validated.data as { errors: unknown[] }).errors).toEqual([error]);
    const created = await call("/api/v1/jobs", json("POST", huge, key));
    expect(created.status).toBe(400);
    expect((await body(created)).details!.errors).toEqual([error]);
    expect(await openJobs(userId)).toBe(0);
    expect(await auditedBalance(userId)).toBe(10_000);
    // The same at 720x720 (1.9 billion) fits, and so does the 4096x4096 layer for 40 s at 60 fps (40.3 billion).
    for (const fits of [glVideo(720, 60, 60), glVideo(4096, 60, 40)]) {
      const res = await call("/api/v1/jobs/validate", json("POST", fits, key));
      expect((await body(res)).data).toMatchObject({ isValid: true });
    }
  });
});

describe("render deadline", () => {
  it("goes to the renderer whole on the first hand-over, and what is left of it on the next; none left fails", async () => {
    const { userId } = await newAccount({ tokens: 100 });
    const offered: { jobId: string; limits: { deadlineSeconds: number } }[] = [];
    // The renderer as a stand-in that accepts every offer and remembers it.
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname.endsWith("/render/video")) offered.push(await request.json());
      return Response.json({ accepted: true }, { status: 202 });
    });
    const sent: unknown[] = [];
    const bindings = {
      ...env,
      RENDERER_URL: "http://127.0.0.1:9",
      VIDEO_QUEUE: { send: async (b: unknown) => void sent.push(b) },
    } as unknown as typeof env;
    const ctx = createContext(bindings);
    // The seeded job: one 1 s clip of 32x32 at 25 fps: 60 + 25 x 0.02 + ... = 61 s.
    const first = await openPending(userId, 12, "VIDEO");
    expect(await dispatchVideoJob(ctx, first)).toBe("done");
    expect(offered.at(-1)).toMatchObject({ jobId: first, limits: { deadlineSeconds: 61 } });
    // Handed over again after its renders took 40 s: 21 s are left.
    const again = await openPending(userId, 12, "VIDEO");
    await env.DB.prepare("UPDATE jobs SET render_ms = 40000, attempts = 1 WHERE id = ?").bind(again).run();
    expect(await dispatchVideoJob(ctx, again)).toBe("done");
    expect(offered.at(-1)).toMatchObject({ jobId: again, limits: { deadlineSeconds: 21 } });
    // Its renders took the whole deadline: it fails without a renderer, charged nothing.
    const spent = await openPending(userId, 12, "VIDEO");
    await env.DB.prepare("UPDATE jobs SET render_ms = 61000, attempts = 2 WHERE id = ?").bind(spent).run();
    const before = offered.length;
    expect(await dispatchVideoJob(ctx, spent)).toBe("skipped");
    expect(offered.length).toBe(before);
    expect(await jobRow(spent)).toMatchObject({
      status: "FAILED",
      tokens_used: 0,
      error_message: "Rendering used up its deadline of 61 s over 2 attempts; no tokens were charged",
    });
  });

  it("a lost render's reported time counts toward the next hand-over's deadline", async () => {
    const { userId } = await newAccount({ tokens: 100 });
    const jobId = await openPending(userId, 12, "VIDEO");
    await env.DB.prepare("UPDATE jobs SET status = 'PROCESSING', attempts = 1 WHERE id = ?")
      .bind(jobId)
      .run();
    const res = await postStatusReport(
      statusReport(jobId, "failed", {
        attempt: 1,
        retryable: true,
        error: "The renderer's encoder was interrupted (SIGKILL)",
        metadata: { processingTime: 12_345 },
      }),
    );
    expect(res.status).toBe(200);
    expect(await jobRow(jobId)).toMatchObject({ status: "PENDING", render_ms: 12_345, failed_render_ms: 0 });
  });
});

describe("failed render quota", () => {
  it("records a permanent failure's renderer time (charging no tokens), and not an infrastructure fault's", async () => {
    const { userId } = await newAccount({ tokens: 100 });
    const jobId = await openPending(userId, 12, "VIDEO");
    await env.DB.prepare("UPDATE jobs SET status = 'PROCESSING', attempts = 1 WHERE id = ?")
      .bind(jobId)
      .run();
    const failed = statusReport(jobId, "failed", {
      attempt: 1,
      retryable: false,
      error: "Rendering took longer than its deadline of 67 s and was stopped; no tokens were charged",
      metadata: { processingTime: 67_012 },
    });
    expect((await postStatusReport(failed)).status).toBe(200);
    expect(await jobRow(jobId)).toMatchObject({
      status: "FAILED",
      tokens_used: 0,
      render_ms: 67_012,
      failed_render_ms: 67_012,
    });
    expect(await auditedBalance(userId)).toBe(100);
  });

  it("counts nothing against the account for a defect of ours: the job fails once, with the renderer's reference", async () => {
    const { userId } = await newAccount({ tokens: 100 });
    const jobId = await openPending(userId, 12, "VIDEO");
    await env.DB.prepare("UPDATE jobs SET status = 'PROCESSING', attempts = 1 WHERE id = ?")
      .bind(jobId)
      .run();
    const error =
      "Rendering failed: internal error, reference ref_0123456789ab (a fault of the service, not of the config; no tokens were charged). Please report the reference.";
    const failed = statusReport(jobId, "failed", {
      attempt: 1,
      retryable: false,
      fault: "defect",
      error,
      metadata: { processingTime: 4_321 },
    });
    expect((await postStatusReport(failed)).status).toBe(200);
    expect(await jobRow(jobId)).toMatchObject({
      status: "FAILED",
      error_message: error,
      attempts: 1,
      tokens_used: 0,
      render_ms: 4_321,
      failed_render_ms: 0,
    });
    expect(await auditedBalance(userId)).toBe(100);
  });

  it("refuses new video jobs once the day's failed renders took more than 30 minutes, until they are a day old", async () => {
    const { key, userId } = await newAccount({ tokens: 1000 });
    const now = Date.now();
    const failedAt = async (completedAt: number, ms: number) => {
      const id = await seedJob(userId, { type: "VIDEO", status: "FAILED", completedAt });
      await env.DB.prepare("UPDATE jobs SET render_ms = ?2, failed_render_ms = ?2 WHERE id = ?1")
        .bind(id, ms)
        .run();
    };
    const video = {
      type: "video",
      config: {
        width: 64,
        height: 64,
        clips: [{ duration: 1, layers: [{ type: "fill-color", color: "#000" }] }],
      },
    };
    // 29 minutes within the day, and an hour more than a day ago (it no longer counts): still allowed.
    await failedAt(now - FAILED_RENDER_WINDOW_MS - 60_000, 3_600_000);
    await failedAt(now - 3 * 3_600_000, 20 * 60_000);
    await failedAt(now - 3_600_000, 9 * 60_000);
    // An infrastructure fault's time (render_ms only) never counts.
    const lost = await seedJob(userId, { type: "VIDEO", status: "FAILED", completedAt: now });
    await env.DB.prepare("UPDATE jobs SET render_ms = 3600000 WHERE id = ?").bind(lost).run();
    const allowed = await call("/api/v1/jobs", json("POST", video, key));
    expect(allowed.status).toBe(201);
    // Two minutes more: 31 minutes, over the 30.
    await failedAt(now - 60_000, 2 * 60_000);
    const balance = await auditedBalance(userId);
    const refused = await call("/api/v1/jobs", json("POST", video, key));
    expect(refused.status).toBe(429);
    const envelope = await body(refused);
    expect(envelope).toMatchObject({
      success: false,
      error: `Your video jobs that failed used 1860 s of renderer time in the last 24 hours (at most ${FAILED_RENDER_SECONDS_PER_DAY} s); new video jobs are refused until some of it is a day old`,
      details: { failedRenderSeconds: 1860, maxFailedRenderSeconds: 1800 },
    });
    // Free again once the 20 minutes of three hours ago are a day old: in about 21 hours.
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBe((envelope.details as { retryAfter: number }).retryAfter);
    expect(Math.abs(retryAfter - 21 * 3600)).toBeLessThan(120);
    expect(await auditedBalance(userId)).toBe(balance);
    // Image jobs do not hold render slots: they are still accepted.
    const image = await call("/api/v1/jobs", json("POST", { type: "image", config: textImage() }, key));
    expect(image.status).toBe(201);
    // Nor can the same jobs come in as a template batch.
    const template = await call(
      "/api/v2/templates",
      json("POST", { name: "clip", type: "video", config: video.config }, key),
    );
    expect(template.status).toBe(201);
    const templateId = (await body<{ id: string }>(template)).data!.id;
    const batch = await call(`/api/v2/templates/${templateId}/batches`, json("POST", { rows: [{}] }, key));
    expect(batch.status).toBe(429);
    expect((await body(batch)).details).toMatchObject({ failedRenderSeconds: 1860 });
  });
});
