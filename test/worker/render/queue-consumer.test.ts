import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { finishJob, markProcessing } from "../../../src/jobs/lifecycle.ts";
import {
  MAX_RETRIES,
  offerAgainSeconds,
  RENDERER_WAIT_MS,
  retryDelaySeconds,
} from "../../../src/queues/consumer.ts";
import { RendererBusy, RendererUnreachable } from "../../../src/lib/errors.ts";
import worker from "../../../src/index.ts";
import { newAccount, testCtx } from "../helpers.ts";
import { auditedBalance, jobRow, openPending } from "../jobs-seed.ts";

/** The real consumer with a renderer address nothing listens on: every hand-over fails like a dead renderer. */
const deadRenderer = { ...env, RENDERER_URL: "http://127.0.0.1:9" };

/** Bindings whose VIDEO_QUEUE records what is sent instead of delivering it. */
const capturingQueue = (bindings: object) => {
  const sent: { body: unknown; options: unknown }[] = [];
  const queue = { send: async (body: unknown, options: unknown) => void sent.push({ body, options }) };
  return { sent, bindings: { ...bindings, VIDEO_QUEUE: queue } as unknown as typeof deadRenderer };
};

const deliver = async (queue: string, body: unknown, attempts = 1, bindings = deadRenderer) => {
  const batch = createMessageBatch(queue, [{ id: "msg-1", timestamp: new Date(), attempts, body }]);
  const ctx = createExecutionContext();
  await worker.queue(batch, bindings);
  return getQueueResult(batch, ctx);
};

const videoJob = async (tokens = 100, reserve = 12) => {
  const { userId } = await newAccount({ tokens });
  const jobId = await openPending(userId, reserve, "VIDEO");
  return { userId, jobId, body: { kind: "render", jobId, userId } };
};

describe("render queue consumer", () => {
  it("puts a job no renderer answers for back on its queue, delayed, without using its retries", async () => {
    const { userId, jobId, body } = await videoJob();
    const { bindings, sent } = capturingQueue(deadRenderer);
    const result = await deliver("render-video", body, 1, bindings);
    expect(result.explicitAcks).toEqual(["msg-1"]);
    expect(result.retryMessages).toEqual([]);
    expect(sent).toEqual([
      { body: { ...body, waitingSince: expect.any(Number) }, options: { delaySeconds: 2 } },
    ]);
    expect((await jobRow(jobId))!.status).toBe("PENDING");
    expect(await auditedBalance(userId)).toBe(88);
    // Waiting longer makes the next offer later (at most 15 s).
    expect([0, 9_000, 60_000].map((ms) => offerAgainSeconds(new RendererUnreachable("x"), ms))).toEqual([
      2, 5, 15,
    ]);
    expect(offerAgainSeconds(new RendererBusy("full", 7), 0)).toBe(7);
  });

  it("fails a job that found no renderer for RENDERER_WAIT_MS, refunding the reserve", async () => {
    const { userId, jobId, body } = await videoJob();
    const { bindings, sent } = capturingQueue(deadRenderer);
    const waited = { ...body, waitingSince: Date.now() - RENDERER_WAIT_MS - 1000 };
    const result = await deliver("render-video", waited, 1, bindings);
    expect(result.explicitAcks).toEqual(["msg-1"]);
    expect(sent).toEqual([]);
    const row = await jobRow(jobId);
    expect(row).toMatchObject({ status: "FAILED", tokens_used: 0, tokens_reserved: 0 });
    expect(String(row!.error_message)).toBe(
      "No renderer was free and reachable for 15 minutes; no tokens were charged",
    );
    expect(await auditedBalance(userId)).toBe(100);
  });

  it("fails the job with the last error when the final delivery fails, refunding the reserve", async () => {
    const { userId, jobId, body } = await videoJob();
    // A renderer that refuses the job outright (not busy, not unreachable): a failure, retried then final.
    const refusing = { ...env, RENDERER_URL: `${env.RENDERER_URL}/nowhere` };
    const result = await deliver("render-video", body, MAX_RETRIES + 1, refusing);
    expect(result.explicitAcks).toEqual(["msg-1"]);
    expect(result.retryMessages).toEqual([]);
    const row = await jobRow(jobId);
    expect(row).toMatchObject({ status: "FAILED", tokens_used: 0, tokens_reserved: 0 });
    expect(String(row!.error_message)).toMatch(
      /^Rendering failed after 4 attempts: Renderer refused the job/,
    );
    expect(await auditedBalance(userId)).toBe(100);
  });

  it("fails a job once, with a reference, when the renderer refuses the request dispatch built (a defect of ours)", async () => {
    const { userId, jobId, body } = await videoJob();
    // A plan at another rate than its config's: the renderer's request check refuses it (400), as it would any
    // request the Worker built wrong. Every delivery would get the same answer: no retry, no four attempts.
    const plan = {
      seconds: 1,
      estimatedTokens: 12,
      deadlineSeconds: 61,
      timeline: {
        fps: 24,
        clips: [{ startFrame: 0, frames: 24, start: 0, duration: 1, transition: null, inFrames: 0 }],
        totalFrames: 24,
        duration: 1,
      },
    };
    await env.DB.prepare("UPDATE jobs SET plan = ? WHERE id = ?").bind(JSON.stringify(plan), jobId).run();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const result = await deliver("render-video", body, 1, { ...env, RENDERER_URL: env.RENDERER_URL! });
    const lines = logged.mock.calls.map((c) => String(c[0]));
    logged.mockRestore();
    expect(result.explicitAcks).toEqual(["msg-1"]);
    expect(result.retryMessages).toEqual([]);
    const row = await jobRow(jobId);
    expect(row).toMatchObject({ status: "FAILED", tokens_used: 0, tokens_reserved: 0, failed_render_ms: 0 });
    const reference = /internal error, reference (ref_[0-9a-f]{12})/.exec(String(row!.error_message))?.[1];
    expect(reference).toBeDefined();
    // The log line names the job and the reference, with the stack, at error level.
    const defect = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.msg === "render defect");
    expect(defect).toMatchObject({
      level: "error",
      jobId,
      reference,
      error: expect.stringMatching(/timeline: planned at 24 fps/),
    });
    expect(String(defect!.stack)).toMatch(/RendererRefused/);
    expect(await auditedBalance(userId)).toBe(100);
  });

  it("dead letter: fails an open job and releases its reserve, once", async () => {
    const { userId, jobId, body } = await videoJob();
    const first = await deliver("render-video-dlq", body);
    expect(first.explicitAcks).toEqual(["msg-1"]);
    expect(await jobRow(jobId)).toMatchObject({
      status: "FAILED",
      error_message: "Rendering failed after repeated attempts (render-video-dlq)",
    });
    expect(await auditedBalance(userId)).toBe(100);
    await deliver("render-video-dlq", body); // a redelivered dead letter changes nothing
    expect(await auditedBalance(userId)).toBe(100);
    const releases = await env.DB.prepare(
      "SELECT count(*) AS n FROM token_ledger WHERE job_id = ? AND kind = 'release'",
    )
      .bind(jobId)
      .first<{ n: number }>();
    expect(releases!.n).toBe(1);
  });

  it("dead letter never touches a finished job", async () => {
    const { userId, jobId, body } = await videoJob();
    const job = { id: jobId, userId, tokensReserved: 12, reservedPrepaid: 0 };
    expect(await finishJob(testCtx(), job, { status: "CANCELLED" })).toBe(true);
    await deliver("render-video-dlq", body);
    expect(await jobRow(jobId)).toMatchObject({ status: "CANCELLED", error_message: null });
    expect(await auditedBalance(userId)).toBe(100);
  });

  it("does not hand a PROCESSING job to a renderer again (redelivered message)", async () => {
    const { jobId, body } = await videoJob();
    await markProcessing(testCtx(), jobId, { stage: "encoding", percent: 40 });
    // The renderer address is dead: had the consumer tried to dispatch, it would have retried.
    const result = await deliver("render-video", body, 2);
    expect(result.explicitAcks).toEqual(["msg-1"]);
    expect(await jobRow(jobId)).toMatchObject({ status: "PROCESSING", stage: "encoding" });
  });

  it("acks messages for finished or unknown jobs and malformed messages without work", async () => {
    const { jobId, body } = await videoJob();
    await env.DB.prepare("UPDATE jobs SET status = 'COMPLETED' WHERE id = ?").bind(jobId).run();
    expect((await deliver("render-video", body)).explicitAcks).toEqual(["msg-1"]);
    expect(
      (await deliver("render-video", { kind: "render", jobId: "job_missing", userId: "u" })).explicitAcks,
    ).toEqual(["msg-1"]);
    expect((await deliver("render-video", { nonsense: true })).explicitAcks).toEqual(["msg-1"]);
    expect((await deliver("render-image", { kind: "ping", at: 1 })).explicitAcks).toEqual(["msg-1"]);
  });

  it("caps the retry backoff at one minute", () => {
    expect([1, 2, 3, 5, 6, 20].map(retryDelaySeconds)).toEqual([2, 4, 8, 32, 60, 60]);
  });
});
