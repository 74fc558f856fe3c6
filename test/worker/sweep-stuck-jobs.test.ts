import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { markProcessing } from "../../src/jobs/lifecycle.ts";
import { MAX_RUN_MS, PENDING_TIMEOUT_MS, PROCESSING_SILENCE_MS } from "../../src/jobs/sweep-stuck-jobs.ts";
import worker from "../../src/index.ts";
import { newAccount, testCtx } from "./helpers.ts";
import { auditedBalance, jobRow, openPending } from "./jobs-seed.ts";

const MIN = 60_000;

/** Runs the real cron entry point as the 5-minute trigger fires it, at `at`. */
const cron = (at: number) =>
  worker.scheduled(createScheduledController({ cron: "*/5 * * * *", scheduledTime: at }), env);

describe("stuck-job sweep (scheduled handler)", () => {
  it("fails a PROCESSING job whose renderer went silent and refunds its reserve", async () => {
    const { userId } = await newAccount({ tokens: 100 });
    const t0 = Date.now();
    const jobId = await openPending(userId, 12, "VIDEO", t0);
    await markProcessing(testCtx(t0), jobId, { stage: "encoding", percent: 30 });
    expect(await auditedBalance(userId)).toBe(88);

    await cron(t0 + PROCESSING_SILENCE_MS - MIN); // not yet
    expect((await jobRow(jobId))!.status).toBe("PROCESSING");

    await cron(t0 + PROCESSING_SILENCE_MS + MIN);
    const row = await jobRow(jobId);
    expect(row).toMatchObject({ status: "FAILED", tokens_used: 0, tokens_reserved: 0 });
    expect(String(row!.error_message)).toContain("stopped reporting progress");
    expect(await auditedBalance(userId)).toBe(100);
  });

  it("fails a job that keeps reporting but runs past the maximum render time", async () => {
    const { userId } = await newAccount({ tokens: 100 });
    const t0 = Date.now();
    const jobId = await openPending(userId, 12, "VIDEO", t0);
    await markProcessing(testCtx(t0), jobId, { percent: 1 });
    // Progress keeps arriving (fresh updated_at), yet the render never ends.
    await markProcessing(testCtx(t0 + MAX_RUN_MS + 4 * MIN), jobId, { percent: 2 });
    await cron(t0 + MAX_RUN_MS + 5 * MIN);
    expect(await jobRow(jobId)).toMatchObject({ status: "FAILED" });
    expect(String((await jobRow(jobId))!.error_message)).toContain("took longer than 60 minutes");
    expect(await auditedBalance(userId)).toBe(100);
  });

  it("fails a PENDING job never picked up, but leaves young and finished jobs alone", async () => {
    const { userId } = await newAccount({ tokens: 100 });
    const t0 = Date.now();
    const stale = await openPending(userId, 5, "IMAGE", t0);
    const young = await openPending(userId, 5, "IMAGE", t0 + PENDING_TIMEOUT_MS);
    await cron(t0 + PENDING_TIMEOUT_MS + MIN);
    expect(await jobRow(stale)).toMatchObject({
      status: "FAILED",
      error_message: expect.stringContaining("not picked up"),
    });
    expect((await jobRow(young))!.status).toBe("PENDING");
    expect(await auditedBalance(userId)).toBe(95);
  });

  it("is idempotent: a second run changes nothing and never refunds twice", async () => {
    const { userId } = await newAccount({ tokens: 100 });
    const t0 = Date.now();
    const jobId = await openPending(userId, 7, "IMAGE", t0);
    await cron(t0 + PENDING_TIMEOUT_MS + MIN);
    await cron(t0 + PENDING_TIMEOUT_MS + 2 * MIN);
    const releases = await env.DB.prepare(
      "SELECT count(*) AS n FROM token_ledger WHERE job_id = ? AND kind = 'release'",
    )
      .bind(jobId)
      .first<{ n: number }>();
    expect(releases!.n).toBe(1);
    expect(await auditedBalance(userId)).toBe(100);
  });

  it("sweeps more than one batch in a single run", async () => {
    const { userId } = await newAccount({ planId: "business", tokens: 10_000 });
    const t0 = Date.now() - PENDING_TIMEOUT_MS - 10 * MIN;
    // 25 open jobs is the business plan's limit; insert the rest as rows to exceed one batch of 100.
    const opened = await Promise.all(Array.from({ length: 25 }, () => openPending(userId, 1, "IMAGE", t0)));
    const stmt = env.DB.prepare(
      `INSERT INTO jobs (id, user_id, type, status, config, input_file_ids, output_format, tokens_reserved, created_at, updated_at)
       VALUES (?, ?, 'IMAGE', 'PENDING', '{}', '[]', 'png', 0, ?, ?)`,
    );
    await env.DB.batch(
      Array.from({ length: 110 }, (_, i) => stmt.bind(`job_bulk_${userId}_${i}`, userId, t0, t0)),
    );
    await cron(Date.now());
    const open = await env.DB.prepare(
      "SELECT count(*) AS n FROM jobs WHERE user_id = ? AND status = 'PENDING'",
    )
      .bind(userId)
      .first<{ n: number }>();
    expect(open!.n).toBe(0);
    expect(opened).toHaveLength(25);
    expect(await auditedBalance(userId)).toBe(10_000);
  });
});
