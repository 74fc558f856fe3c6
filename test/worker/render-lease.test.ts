/**
 * Leases of handed-over video jobs: the renderer's reports renew them, a `watch` message checks them, and a job
 * whose renderer went silent (killed, frozen, cut off) or reported an infrastructure fault is handed over again, a
 * bounded number of times, then fails with its reserve released. Reports of a lost hand-over change nothing.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createContext } from "../../src/context.ts";
import { markProcessing } from "../../src/jobs/lifecycle.ts";
import { MAX_RENDER_ATTEMPTS } from "../../src/jobs/retry-render.ts";
import { LEASE_CHECK_SECONDS, LEASE_MS } from "../../src/queues/watch-lease.ts";
import { applyStatusReport } from "../../src/renderer/apply-status.ts";
import worker from "../../src/index.ts";
import { newAccount, testCtx } from "./helpers.ts";
import { auditedBalance, jobRow, openPending, statusReport } from "./jobs-seed.ts";

/** Bindings whose VIDEO_QUEUE records what is sent, and whose renderer is nowhere (cancels fail quietly). */
const recording = () => {
  const sent: { body: unknown; options: unknown }[] = [];
  const queue = { send: async (body: unknown, options: unknown) => void sent.push({ body, options }) };
  return {
    sent,
    bindings: { ...env, RENDERER_URL: "http://127.0.0.1:9", VIDEO_QUEUE: queue as unknown as Queue },
  };
};

/** A video job handed over `attempts` times, its renderer last heard from `silentMs` ago. */
const handedOver = async (attempts = 1, silentMs = 0) => {
  const { userId } = await newAccount({ tokens: 100 });
  const jobId = await openPending(userId, 12, "VIDEO");
  for (let i = 0; i < attempts; i++) await markProcessing(testCtx(), jobId, { countAttempt: true });
  await env.DB.prepare("UPDATE jobs SET updated_at = ? WHERE id = ?")
    .bind(Date.now() - silentMs, jobId)
    .run();
  return { userId, jobId };
};

const watch = async (jobId: string, attempt: number, bindings: typeof env) => {
  const batch = createMessageBatch("render-video", [
    { id: "w", timestamp: new Date(), attempts: 1, body: { kind: "watch", jobId, attempt } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, bindings, ctx);
  return getQueueResult(batch, ctx);
};

describe("render leases", () => {
  it("watches a job whose renderer keeps reporting again a few seconds later", async () => {
    const { jobId } = await handedOver(1, 1000);
    const { sent, bindings } = recording();
    expect((await watch(jobId, 1, bindings)).explicitAcks).toEqual(["w"]);
    expect(sent).toEqual([
      { body: { kind: "watch", jobId, attempt: 1 }, options: { delaySeconds: LEASE_CHECK_SECONDS } },
    ]);
    expect((await jobRow(jobId))!.status).toBe("PROCESSING");
  });

  it("hands a job whose renderer went silent past its lease over again, reserve still held", async () => {
    const { userId, jobId } = await handedOver(1, LEASE_MS + 1000);
    const { sent, bindings } = recording();
    await watch(jobId, 1, bindings);
    expect(await jobRow(jobId)).toMatchObject({ status: "PENDING", attempts: 1, tokens_reserved: 12 });
    expect(sent).toEqual([{ body: { kind: "render", jobId, userId }, options: undefined }]);
    expect(await auditedBalance(userId)).toBe(88);
    // A second notice of the same loss (another watch) changes nothing.
    await watch(jobId, 1, bindings);
    expect(sent).toHaveLength(1);
  });

  it(`fails a job after ${MAX_RENDER_ATTEMPTS} lost hand-overs, saying why and charging nothing`, async () => {
    const { userId, jobId } = await handedOver(MAX_RENDER_ATTEMPTS, LEASE_MS + 1000);
    const { sent, bindings } = recording();
    await watch(jobId, MAX_RENDER_ATTEMPTS, bindings);
    expect(sent).toEqual([]);
    expect(await jobRow(jobId)).toMatchObject({
      status: "FAILED",
      tokens_used: 0,
      error_message: `Rendering failed after ${MAX_RENDER_ATTEMPTS} attempts: the renderer stopped responding; no tokens were charged`,
    });
    expect(await auditedBalance(userId)).toBe(100);
  });

  it("ends the watch of a finished job or of an older hand-over", async () => {
    const { jobId } = await handedOver(2, LEASE_MS + 1000);
    const { sent, bindings } = recording();
    await watch(jobId, 1, bindings); // the first hand-over's watch: the job has moved on
    expect(sent).toEqual([]);
    expect((await jobRow(jobId))!.status).toBe("PROCESSING");
  });

  it("hands a job over again when its renderer reports an infrastructure fault", async () => {
    const { userId, jobId } = await handedOver(1);
    const { sent, bindings } = recording();
    const ctx = createContext(bindings);
    const report = statusReport(jobId, "failed", {
      attempt: 1,
      retryable: true,
      error: "The renderer's encoder was interrupted (SIGKILL)",
    });
    expect(await applyStatusReport(ctx, report as never)).toBe(true);
    expect(await jobRow(jobId)).toMatchObject({ status: "PENDING", error_message: null });
    expect(sent).toEqual([{ body: { kind: "render", jobId, userId }, options: undefined }]);
    // The lost hand-over's late reports neither revive nor fail the requeued job.
    for (const status of ["processing", "failed"])
      expect(await applyStatusReport(ctx, statusReport(jobId, status, { attempt: 1 }) as never)).toBe(false);
    expect((await jobRow(jobId))!.status).toBe("PENDING");
  });

  it("ignores a report of an older hand-over once the job was handed over again", async () => {
    const { jobId } = await handedOver(2);
    const ctx = createContext(recording().bindings);
    const old = statusReport(jobId, "failed", { attempt: 1, error: "late" });
    expect(await applyStatusReport(ctx, old as never)).toBe(false);
    expect((await jobRow(jobId))!.status).toBe("PROCESSING");
    const current = statusReport(jobId, "failed", { attempt: 2, error: "bad media" });
    expect(await applyStatusReport(ctx, current as never)).toBe(true);
    expect(await jobRow(jobId)).toMatchObject({ status: "FAILED", error_message: "bad media" });
  });
});
