import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { handOverMissed } from "../../../src/webhooks/announce.ts";
import { deliveriesOf, raiseEvent } from "../../../src/webhooks/events.ts";
import { MAX_ATTEMPTS_PER_HOUR } from "../../../src/webhooks/limits.ts";
import { until } from "../../poll.ts";
import { body, call, json, newAccount, testCtx } from "../helpers.ts";
import { jobOutputUrl, openPending, postStatusReport, statusReport, seedJob } from "../jobs-seed.ts";
import {
  createEndpoint,
  deliveriesWhere,
  deliveryRows,
  endpointStub,
  fastForward,
  newBox,
  received,
  receivedAtLeast,
  verify,
} from "./support.ts";

/** A VIDEO job of a fresh account with an endpoint at a receiver box behaving as `params` say. */
const setup = async (params: Record<string, string | number> = {}, eventTypes?: string[]) => {
  const account = await newAccount();
  const { box, url } = newBox(params);
  const endpoint = await createEndpoint(account.key, url, eventTypes);
  const jobId = await openPending(account.userId, 20, "VIDEO");
  return { ...account, box, endpoint, jobId };
};

const complete = async (jobId: string) => {
  const res = await postStatusReport(
    statusReport(jobId, "completed", {
      resultUrl: await jobOutputUrl(jobId, 1234),
      metadata: { videoDuration: 1 },
    }),
  );
  expect(res.status).toBe(200);
};

describe("webhook deliveries of render events", () => {
  it("delivers render.started and render.completed, each verified by standardwebhooks, with a download link", async () => {
    const { box, endpoint, jobId } = await setup();
    expect((await postStatusReport(statusReport(jobId, "processing"))).status).toBe(200);
    await complete(jobId);
    const got = await receivedAtLeast(box, 2);
    const events = got.map((r) => verify(endpoint.secret, r));
    expect(events.map((e) => e.type)).toEqual(["render.started", "render.completed"]);
    const done = events[1]!.data;
    expect(done).toMatchObject({
      jobId,
      status: "COMPLETED",
      jobType: "VIDEO",
      tokensUsed: 12,
      errorMessage: null,
    });
    expect(done.outputFileId).toEqual(expect.any(String));
    // The signed link downloads the output without an API key.
    const link = new URL(String(done.downloadUrl));
    const download = await call(`${link.pathname}${link.search}`);
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBe(1234);
    const rows = await deliveriesWhere(endpoint.id, 2, (r) => r.status === "delivered");
    expect(rows.map((r) => r.attempts)).toEqual([1, 1]);
  });

  it("delivers render.failed with the error and nothing charged, to endpoints subscribed to it only", async () => {
    const { box, endpoint, jobId } = await setup({}, ["render.failed"]);
    expect((await postStatusReport(statusReport(jobId, "processing"))).status).toBe(200);
    const res = await postStatusReport(statusReport(jobId, "failed", { error: "codec exploded" }));
    expect(res.status).toBe(200);
    const [got] = await receivedAtLeast(box, 1);
    const event = verify(endpoint.secret, got!);
    expect(event.type).toBe("render.failed");
    expect(event.data).toMatchObject({
      jobId,
      status: "FAILED",
      tokensUsed: 0,
      errorMessage: "codec exploded",
    });
    // render.started was not subscribed: one delivery only.
    expect(await deliveryRows(endpoint.id)).toHaveLength(1);
  });

  it("raises nothing twice when the renderer repeats a report", async () => {
    const { box, endpoint, jobId } = await setup();
    await complete(jobId);
    await complete(jobId);
    await receivedAtLeast(box, 1);
    await deliveriesWhere(endpoint.id, 1, (r) => r.status === "delivered");
    expect(await deliveryRows(endpoint.id)).toHaveLength(1);
    expect(await received(box)).toHaveLength(1);
  });

  it("delivers render.cancelled when the owner cancels a pending job", async () => {
    const { box, endpoint, jobId, key } = await setup();
    expect(
      (await call(`/api/v1/jobs/${jobId}`, { method: "DELETE", headers: { "x-api-key": key } })).status,
    ).toBe(200);
    const [got] = await receivedAtLeast(box, 1);
    expect(verify(endpoint.secret, got!)).toMatchObject({
      type: "render.cancelled",
      data: { status: "CANCELLED" },
    });
  });
});

describe("webhook retries", () => {
  it("retries a receiver that fails 3 times and delivers exactly once, with the same webhook-id every time", async () => {
    const { box, endpoint, jobId } = await setup({ fail: 3 }, ["render.completed"]);
    await complete(jobId);
    await receivedAtLeast(box, 1);
    for (let i = 0; i < 3; i++) {
      await deliveriesWhere(endpoint.id, 1, (r) => Number(r.attempts) === i + 1);
      expect(await fastForward(endpoint.id)).toBe(true);
    }
    const [row] = await deliveriesWhere(endpoint.id, 1, (r) => r.status === "delivered");
    const got = await received(box);
    expect(got.map((r) => r.answered)).toEqual([500, 500, 500, 200]);
    expect(new Set(got.map((r) => r.id)).size).toBe(1);
    expect(got[0]!.id).toBe(row!.event_id);
    for (const r of got) verify(endpoint.secret, r);
    expect(row).toMatchObject({ attempts: 4, response_status: 200 });
    // Nothing left to send.
    expect(await endpointStub(endpoint.id).pending()).toBe(0);
    expect(await fastForward(endpoint.id)).toBe(false);
    expect(await received(box)).toHaveLength(4);
  });

  it("waits at least the schedule's 5 s before the first retry, and longer when Retry-After asks", async () => {
    const { endpoint, jobId } = await setup({ fail: 1, status: 503, retryAfter: 120 }, ["render.completed"]);
    const before = Date.now();
    await complete(jobId);
    const [row] = await deliveriesWhere(endpoint.id, 1, (r) => Number(r.attempts) === 1);
    // The attempt happened between `before` and now, whatever the machine's speed: the retry is 120 s after it.
    const next = Number(row!.next_attempt_at);
    expect(next).toBeGreaterThanOrEqual(before + 120_000);
    expect(next).toBeLessThanOrEqual(Date.now() + 120_000);
    expect(row).toMatchObject({ status: "pending", response_status: 503 });
  });

  it("dead-letters after the last scheduled attempt, and a replay then delivers with the same webhook-id", async () => {
    const account = await newAccount();
    const { box, url } = newBox({ fail: 8 });
    const endpoint = await createEndpoint(account.key, url, ["render.completed"]);
    const jobId = await openPending(account.userId, 20, "VIDEO");
    await complete(jobId);
    await receivedAtLeast(box, 1);
    for (let i = 1; i < 8; i++) {
      await deliveriesWhere(endpoint.id, 1, (r) => Number(r.attempts) === i);
      await fastForward(endpoint.id);
    }
    const [dead] = await deliveriesWhere(endpoint.id, 1, (r) => r.status === "dead_letter");
    expect(dead).toMatchObject({ attempts: 8, response_status: 500, next_attempt_at: null });
    expect(await endpointStub(endpoint.id).pending()).toBe(0);

    const listed = await body<Array<Record<string, unknown>>>(
      await call(`/api/v2/webhooks/${endpoint.id}/deliveries?status=dead_letter`, {
        headers: { "x-api-key": account.key },
      }),
    );
    expect(listed.data!.map((d) => d.id)).toEqual([dead!.id]);

    const replay = await call(
      `/api/v2/webhooks/${endpoint.id}/deliveries/${String(dead!.id)}/replay`,
      json("POST", {}, account.key),
    );
    expect(await body(replay)).toEqual({ success: true, data: { replayed: true, status: "pending" } });
    const got = await receivedAtLeast(box, 9);
    expect(got.at(-1)!.answered).toBe(200);
    expect(new Set(got.map((r) => r.id))).toEqual(new Set([dead!.event_id]));
    verify(endpoint.secret, got.at(-1)!);
    await deliveriesWhere(endpoint.id, 1, (r) => r.status === "delivered" && r.attempts === 9);

    // Replaying a delivered one does nothing.
    const again = await call(
      `/api/v2/webhooks/${endpoint.id}/deliveries/${String(dead!.id)}/replay`,
      json("POST", {}, account.key),
    );
    expect((await body(again)).data).toEqual({ replayed: false, status: "delivered" });
  });

  it("counts a redirect as a failure and never follows it", async () => {
    const { box, endpoint, jobId } = await setup({ redirect: 1 }, ["render.completed"]);
    await complete(jobId);
    await receivedAtLeast(box, 1);
    const [row] = await deliveriesWhere(endpoint.id, 1, (r) => Number(r.attempts) === 1);
    expect(row).toMatchObject({ status: "pending", response_status: 302 });
    expect(String(row!.last_error)).toContain("redirects are not followed");
  });

  it("disables an endpoint whose attempts failed for 5 days, with the reason on its record", async () => {
    const { box, endpoint, jobId, key } = await setup({ fail: 100 }, ["render.completed"]);
    await env.DB.prepare("UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?")
      .bind(Date.now() - 6 * 86_400_000, endpoint.id)
      .run();
    await complete(jobId);
    await receivedAtLeast(box, 1);
    const listed = await until(
      "the endpoint to be disabled",
      async () => {
        const list = (
          await body<Array<Record<string, unknown>>>(
            await call("/api/v2/webhooks", { headers: { "x-api-key": key } }),
          )
        ).data!;
        return list[0]!.active === false ? list : undefined;
      },
      10_000,
      25,
    );
    expect(String(listed[0]!.disabledReason)).toMatch(/failed for 5 days.*status 500/);
    // Its queued retry is dead-lettered at the next run instead of being sent.
    await fastForward(endpoint.id);
    await deliveriesWhere(endpoint.id, 1, (r) => r.status === "dead_letter");
    expect(await received(box)).toHaveLength(1);
  });
});

describe("webhook limits", () => {
  it("holds deliveries past the hourly attempt budget until the window reopens, sending nothing meanwhile", async () => {
    const { key } = await newAccount();
    const { box, url } = newBox();
    const endpoint = await createEndpoint(key, url);
    const windowStart = Date.now() - 60_000;
    await runInDurableObject(endpointStub(endpoint.id), (_o, state) => {
      state.storage.sql.exec(
        "INSERT OR REPLACE INTO meta (k, v) VALUES ('window_start', ?), ('window_count', ?)",
        windowStart,
        MAX_ATTEMPTS_PER_HOUR,
      );
    });
    await call(`/api/v2/webhooks/${endpoint.id}/test`, { method: "POST", headers: { "x-api-key": key } });
    const due = await until(
      "the delivery to wait for the next window",
      () =>
        runInDurableObject(endpointStub(endpoint.id), (_o, state) => {
          const row = state.storage.sql.exec<{ due_at: number }>("SELECT due_at FROM queue").toArray()[0];
          return row && row.due_at > Date.now() ? row.due_at : undefined;
        }),
      10_000,
      25,
    );
    expect(due).toBe(windowStart + 3600_000);
    expect(await received(box)).toEqual([]);
    expect((await deliveryRows(endpoint.id))[0]).toMatchObject({ status: "pending", attempts: 0 });
  });
});

describe("webhook durability", () => {
  it("hands over, from the cron, a delivery whose hand-over was lost after the transition committed", async () => {
    const account = await newAccount();
    const { box, url } = newBox();
    const endpoint = await createEndpoint(account.key, url, ["render.completed"]);
    // A Worker that died right after the transition's batch: the event and delivery rows exist, no object has them.
    const at = Date.now() - 120_000;
    const jobId = await seedJob(account.userId, { status: "COMPLETED", completedAt: at, tokensUsed: 3 });
    const results = await env.DB.batch(raiseEvent(env.DB, { jobId, type: "render.completed", at }));
    expect(deliveriesOf(results)).toHaveLength(1);
    expect(await endpointStub(endpoint.id).pending()).toBe(0);
    expect(await handOverMissed(testCtx())).toBeGreaterThanOrEqual(1);
    const [got] = await receivedAtLeast(box, 1);
    expect(verify(endpoint.secret, got!)).toMatchObject({
      type: "render.completed",
      data: { jobId, tokensUsed: 3 },
    });
    await deliveriesWhere(endpoint.id, 1, (r) => r.status === "delivered" && r.handed_off_at !== null);
  });

  it("raises no event for a transition that did not happen", async () => {
    const account = await newAccount();
    const endpoint = await createEndpoint(account.key, newBox().url);
    const jobId = await seedJob(account.userId, { status: "FAILED", completedAt: Date.now() });
    const results = await env.DB.batch(
      raiseEvent(env.DB, { jobId, type: "render.completed", at: Date.now() }),
    );
    expect(deliveriesOf(results)).toEqual([]);
    expect(await deliveryRows(endpoint.id)).toEqual([]);
  });
});

describe("webhook ordering", () => {
  it("delivers an endpoint's events in the order they happened", async () => {
    const account = await newAccount({ tokens: 1000, planId: "pro" });
    const { box, url } = newBox();
    const endpoint = await createEndpoint(account.key, url, ["render.completed"]);
    const jobs: string[] = [];
    for (let i = 0; i < 6; i++) jobs.push(await openPending(account.userId, 20, "VIDEO"));
    for (const jobId of jobs) await complete(jobId);
    const got = await receivedAtLeast(box, 6);
    expect(got.map((r) => verify(endpoint.secret, r).data.jobId)).toEqual(jobs);
  });
});
