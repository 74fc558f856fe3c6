import { describe, expect, it } from "vitest";
import { lastDays } from "../../src/jobs/job-stats.ts";
import { body, newAccount } from "./helpers.ts";
import { get, seedJob } from "./jobs-seed.ts";

type Stats = {
  total: number;
  totalTokensUsed: number;
  byStatus: Record<string, number>;
  byType: Record<string, number>;
};
type Day = { date: string; success: number; failed: number };

const DAY = 86_400_000;

describe("GET /api/v1/jobs/stats", () => {
  it("counts every status and type, zeros included, and sums the tokens used", async () => {
    const { key, userId } = await newAccount();
    await seedJob(userId, { status: "COMPLETED", type: "IMAGE", tokensUsed: 3 });
    await seedJob(userId, { status: "COMPLETED", type: "VIDEO", tokensUsed: 16 });
    await seedJob(userId, { status: "FAILED", type: "VIDEO" });
    await seedJob(userId, { status: "PENDING", type: "IMAGE", tokensReserved: 4 });
    const res = await get("/api/v1/jobs/stats", key);
    expect(res.status).toBe(200);
    expect((await body<Stats>(res)).data).toEqual({
      total: 4,
      totalTokensUsed: 19,
      byStatus: { PENDING: 1, PROCESSING: 0, COMPLETED: 2, FAILED: 1, CANCELLED: 0 },
      byType: { IMAGE: 2, VIDEO: 2 },
    });
  });

  it("answers zeros for an account without jobs", async () => {
    const { key } = await newAccount();
    expect((await body<Stats>(await get("/api/v1/jobs/stats", key))).data).toEqual({
      total: 0,
      totalTokensUsed: 0,
      byStatus: { PENDING: 0, PROCESSING: 0, COMPLETED: 0, FAILED: 0, CANCELLED: 0 },
      byType: { IMAGE: 0, VIDEO: 0 },
    });
  });

  it("answers 401 without a key and counts only the caller's jobs", async () => {
    expect((await get("/api/v1/jobs/stats")).status).toBe(401);
    const a = await newAccount();
    const b = await newAccount();
    await seedJob(a.userId, { tokensUsed: 7 });
    expect((await body<Stats>(await get("/api/v1/jobs/stats", b.key))).data!.total).toBe(0);
  });
});

describe("GET /api/v1/jobs/stats/last-30-days", () => {
  it("lists 30 UTC days oldest first, ending today", () => {
    const days = lastDays(Date.UTC(2026, 2, 1, 23, 59));
    expect(days).toHaveLength(30);
    expect(days[29]).toBe("2026-03-01");
    expect(days[28]).toBe("2026-02-28");
    expect(days[0]).toBe("2026-01-31");
  });

  it("counts completions as success and failures as failed on the UTC day they finished, zero-filling the rest", async () => {
    const { key, userId } = await newAccount();
    const now = Date.now();
    const today = Math.floor(now / DAY) * DAY;
    // Finished today (just after UTC midnight) and yesterday (just before it): the day boundary is UTC.
    await seedJob(userId, { status: "COMPLETED", completedAt: today + 1 });
    await seedJob(userId, { status: "COMPLETED", completedAt: today + 2 });
    await seedJob(userId, { status: "FAILED", completedAt: today - 1 });
    await seedJob(userId, { status: "COMPLETED", completedAt: today - 29 * DAY + 5 });
    // Not counted: cancelled, open, and finished 30 days ago (outside the window).
    await seedJob(userId, { status: "CANCELLED", completedAt: today + 3 });
    await seedJob(userId, { status: "PENDING" });
    await seedJob(userId, { status: "FAILED", completedAt: today - 30 * DAY + 5 });
    const res = await get("/api/v1/jobs/stats/last-30-days", key);
    expect(res.status).toBe(200);
    const days = (await body<Day[]>(res)).data!;
    expect(days).toHaveLength(30);
    const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect(days[29]).toEqual({ date: iso(today), success: 2, failed: 0 });
    expect(days[28]).toEqual({ date: iso(today - DAY), success: 0, failed: 1 });
    expect(days[0]).toEqual({ date: iso(today - 29 * DAY), success: 1, failed: 0 });
    expect(days.slice(1, 28).every((d) => d.success === 0 && d.failed === 0)).toBe(true);
    // Strictly increasing dates.
    expect(days.map((d) => d.date)).toEqual([...days.map((d) => d.date)].sort());
  });

  it("answers 401 without a key", async () => {
    expect((await get("/api/v1/jobs/stats/last-30-days")).status).toBe(401);
  });
});
