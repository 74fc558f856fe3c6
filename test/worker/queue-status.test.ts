import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { QUEUE_STALL_MS, queueStatus } from "../../src/jobs/queue-status.ts";
import { BASE, body, call, newAccount, testCtx } from "./helpers.ts";
import { seedJob } from "./jobs-seed.ts";

type Status = {
  queues: Record<
    "image" | "video",
    { messageCount: number; consumerCount: number; isHealthy: boolean; oldestPendingSeconds: number }
  >;
  isHealthy: boolean;
};

describe("queue status: measurement", () => {
  it("counts PENDING jobs as messages and PROCESSING jobs as busy consumers, per type", async () => {
    const at = Date.now();
    const before = await queueStatus(testCtx(at));
    const { userId } = await newAccount();
    await seedJob(userId, { type: "IMAGE", status: "PENDING", createdAt: at - 1000 });
    await seedJob(userId, { type: "IMAGE", status: "PENDING", createdAt: at - 500 });
    await seedJob(userId, { type: "IMAGE", status: "PROCESSING" });
    await seedJob(userId, { type: "VIDEO", status: "PROCESSING" });
    await seedJob(userId, { type: "VIDEO", status: "COMPLETED" });
    const after = await queueStatus(testCtx(at));
    expect(after.queues.image.messageCount - before.queues.image.messageCount).toBe(2);
    expect(after.queues.image.consumerCount - before.queues.image.consumerCount).toBe(1);
    expect(after.queues.video.messageCount - before.queues.video.messageCount).toBe(0);
    expect(after.queues.video.consumerCount - before.queues.video.consumerCount).toBe(1);
  });

  it("is unhealthy when a job has waited longer than the stall limit", async () => {
    const { userId } = await newAccount();
    const at = Date.now();
    const id = await seedJob(userId, {
      type: "VIDEO",
      status: "PENDING",
      createdAt: at - QUEUE_STALL_MS - 60_000,
    });
    const s = await queueStatus(testCtx(at));
    expect(s.queues.video.isHealthy).toBe(false);
    expect(s.queues.video.oldestPendingSeconds).toBeGreaterThanOrEqual((QUEUE_STALL_MS + 60_000) / 1000);
    expect(s.isHealthy).toBe(false);
    await env.DB.prepare("DELETE FROM jobs WHERE id = ?").bind(id).run();
  });

  it("holds a batch's unqueued jobs apart: not messages, not stalls; queued ones count from their queuing", async () => {
    const { userId } = await newAccount();
    const at = Date.now();
    const before = await queueStatus(testCtx(at));
    const old = at - QUEUE_STALL_MS - 60_000;
    const held = await seedJob(userId, { type: "VIDEO", status: "PENDING", createdAt: old });
    const queued = await seedJob(userId, { type: "VIDEO", status: "PENDING", createdAt: old });
    await env.DB.prepare("UPDATE jobs SET batch_id = 'bat_test', queued_at = NULL WHERE id = ?")
      .bind(held)
      .run();
    await env.DB.prepare("UPDATE jobs SET batch_id = 'bat_test', queued_at = ? WHERE id = ?")
      .bind(at - 5_000, queued)
      .run();
    const s = await queueStatus(testCtx(at));
    expect(s.queues.video.heldInBatches - before.queues.video.heldInBatches).toBe(1);
    expect(s.queues.video.messageCount - before.queues.video.messageCount).toBe(1);
    // Created long ago, but queued 5 s ago: the queue is healthy. Other files' jobs may be pending in the shared
    // D1 (vitest.config.ts), so the oldest is theirs or ours counted from its queuing, never from its creation.
    expect(s.queues.video.isHealthy).toBe(before.queues.video.isHealthy);
    // Both readings use the same clock (`at`).
    expect(s.queues.video.oldestPendingSeconds).toBe(Math.max(before.queues.video.oldestPendingSeconds, 5));
    await env.DB.prepare("DELETE FROM jobs WHERE id IN (?, ?)").bind(held, queued).run();
  });
});

describe("GET /api/v1/jobs/queue-status", () => {
  it("answers the spec's shape outside production without credentials or an API key", async () => {
    const res = await call("/api/v1/jobs/queue-status");
    expect(res.status).toBe(200);
    const b = await body<Status>(res);
    expect(b.success).toBe(true);
    for (const q of ["image", "video"] as const) {
      expect(Number.isInteger(b.data!.queues[q].messageCount)).toBe(true);
      expect(Number.isInteger(b.data!.queues[q].consumerCount)).toBe(true);
      expect(typeof b.data!.queues[q].isHealthy).toBe("boolean");
    }
    expect(typeof b.data!.isHealthy).toBe("boolean");
  });

  it("is not shadowed by GET /api/v1/jobs/{jobId} (no API key demanded)", async () => {
    const res = await call("/api/v1/jobs/queue-status", { headers: { "x-api-key": "mk_wrong" } });
    expect(res.status).toBe(200);
  });
});

describe("GET /api/v1/jobs/queue-status: production (admin basic auth)", () => {
  const prod = { ...env, ENVIRONMENT: "production", ADMIN_USER: "admin", ADMIN_PASSWORD: "s3cret-pass" };
  const fetchProd = async (headers: Record<string, string> = {}) => {
    const { createApp } = await import("../../src/app.ts");
    const ctx = { waitUntil: () => undefined, passThroughOnException: () => undefined, props: {} };
    return createApp().fetch(
      new Request(`${BASE}/api/v1/jobs/queue-status`, { headers }),
      prod,
      ctx as never,
    );
  };

  it("answers 401 with a Basic challenge without credentials", async () => {
    const res = await fetchProd();
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("Basic");
    expect(await res.json()).toEqual({ success: false, error: "Unauthorized" });
  });

  it("answers 401 for a wrong password and for an API key in place of basic auth", async () => {
    expect((await fetchProd({ authorization: `Basic ${btoa("admin:nope")}` })).status).toBe(401);
    const { key } = await newAccount();
    expect((await fetchProd({ "x-api-key": key })).status).toBe(401);
  });

  it("answers 200 with the right credentials", async () => {
    const res = await fetchProd({ authorization: `Basic ${btoa("admin:s3cret-pass")}` });
    expect(res.status).toBe(200);
    expect((await body<Status>(res)).data!.queues.image).toBeDefined();
  });
});
