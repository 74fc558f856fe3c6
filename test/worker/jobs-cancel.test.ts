import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { markProcessing } from "../../src/jobs/lifecycle.ts";
import { body, call, newAccount, testCtx } from "./helpers.ts";
import { auditedBalance, jobRow, openPending, seedJob } from "./jobs-seed.ts";

const cancel = (key: string | undefined, jobId: string) =>
  call(`/api/v1/jobs/${jobId}`, { method: "DELETE", headers: key ? { "x-api-key": key } : {} });

describe("DELETE /api/v1/jobs/{jobId}: happy path", () => {
  it("cancels a PENDING job, returns id/status/updatedAt and refunds the whole reserve", async () => {
    const { key, userId } = await newAccount({ tokens: 50 });
    const jobId = await openPending(userId, 7);
    expect(await auditedBalance(userId)).toBe(43);
    const res = await cancel(key, jobId);
    expect(res.status).toBe(200);
    const b = await body<{ id: string; status: string; updatedAt: string }>(res);
    expect(b.success).toBe(true);
    expect(Object.keys(b.data!).sort()).toEqual(["id", "status", "updatedAt"]);
    expect(b.data).toMatchObject({ id: jobId, status: "CANCELLED" });
    const row = await jobRow(jobId);
    expect(row).toMatchObject({ status: "CANCELLED", tokens_used: 0, tokens_reserved: 0 });
    expect(b.data!.updatedAt).toBe(new Date(row!.updated_at as number).toISOString());
    expect(await auditedBalance(userId)).toBe(50);
    const ledger = await env.DB.prepare(
      "SELECT kind, amount FROM token_ledger WHERE job_id = ? ORDER BY kind",
    )
      .bind(jobId)
      .all();
    expect(ledger.results).toEqual([
      { kind: "release", amount: 7 },
      { kind: "reserve", amount: -7 },
    ]);
  });

  it("frees the concurrent-job slot", async () => {
    const { key, userId } = await newAccount({ planId: "free" });
    const ids = [await openPending(userId), await openPending(userId), await openPending(userId)];
    await expect(openPending(userId)).rejects.toThrow("Too many concurrent jobs");
    expect((await cancel(key, ids[0]!)).status).toBe(200);
    await expect(openPending(userId)).resolves.toMatch(/^job_/);
  });
});

describe("DELETE /api/v1/jobs/{jobId}: errors", () => {
  it.each(["PROCESSING", "COMPLETED", "FAILED", "CANCELLED"] as const)(
    "answers 400 for a %s job and changes nothing",
    async (status) => {
      const { key, userId } = await newAccount();
      const jobId = await seedJob(userId, { status, updatedAt: 1000 });
      const res = await cancel(key, jobId);
      expect(res.status).toBe(400);
      const b = await body(res);
      expect(b.success).toBe(false);
      expect(b.error).toContain(status);
      expect(await jobRow(jobId)).toMatchObject({ status, updated_at: 1000 });
    },
  );

  it("answers 400 when a consumer took the job first, and never refunds twice", async () => {
    const { key, userId } = await newAccount({ tokens: 50 });
    const jobId = await openPending(userId, 5);
    expect(await markProcessing(testCtx(), jobId)).toBe(true);
    expect((await cancel(key, jobId)).status).toBe(400);
    expect(await auditedBalance(userId)).toBe(45);
  });

  it("cancels exactly once under parallel requests", async () => {
    const { key, userId } = await newAccount({ tokens: 50 });
    const jobId = await openPending(userId, 5);
    const statuses = await Promise.all(
      Array.from({ length: 6 }, () => cancel(key, jobId).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(5);
    expect(await auditedBalance(userId)).toBe(50);
  });

  it("answers 404 for an unknown job", async () => {
    const { key } = await newAccount();
    const res = await cancel(key, "job_nope");
    expect(res.status).toBe(404);
    expect(await body(res)).toEqual({ success: false, error: "Job not found" });
  });
});

describe("DELETE /api/v1/jobs/{jobId}: security", () => {
  it("answers 401 without a key", async () => {
    expect((await cancel(undefined, "job_x")).status).toBe(401);
  });

  it("answers 403 for a read-only key and leaves the job PENDING", async () => {
    const { key, userId } = await newAccount({ permissions: [{ resource: "jobs", action: "read" }] });
    const jobId = await openPending(userId);
    const res = await cancel(key, jobId);
    expect(res.status).toBe(403);
    expect((await jobRow(jobId))!.status).toBe("PENDING");
  });

  it("answers 404 for another account's job and leaves it PENDING", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const jobId = await openPending(owner.userId);
    expect((await cancel(other.key, jobId)).status).toBe(404);
    expect((await jobRow(jobId))!.status).toBe("PENDING");
  });
});
