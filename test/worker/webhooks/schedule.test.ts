import { describe, expect, it } from "vitest";
import { ATTEMPT_TIMEOUT_MS } from "../../../src/webhooks/limits.ts";
import { budget, nextAttemptAt, parseRetryAfter, RETRY_SCHEDULE_MS } from "../../../src/webhooks/schedule.ts";
import { attemptDelivery } from "../../../src/webhooks/transport.ts";
import { newBox, received } from "./support.ts";

const NOW = 1_800_000_000_000;
const DEV = { ENVIRONMENT: "development" };

describe("retry schedule", () => {
  it("follows the schedule, immediately then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then dead-letters", () => {
    const delays = RETRY_SCHEDULE_MS.slice(1).map(
      (_, i) => nextAttemptAt(i + 1, NOW, null, () => 0.5)! - NOW,
    );
    expect(delays).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(nextAttemptAt(8, NOW, null)).toBeNull();
  });

  it("spreads each delay by at most 20%", () => {
    expect(nextAttemptAt(1, NOW, null, () => 0)! - NOW).toBe(4_000);
    expect(nextAttemptAt(1, NOW, null, () => 1)! - NOW).toBe(6_000);
  });

  it("honours a longer Retry-After up to 10 hours, and never retries sooner than the schedule", () => {
    expect(nextAttemptAt(1, NOW, 60_000, () => 0.5)! - NOW).toBe(60_000);
    expect(nextAttemptAt(1, NOW, 1_000, () => 0.5)! - NOW).toBe(5_000);
    expect(nextAttemptAt(1, NOW, 48 * 3600_000, () => 0.5)! - NOW).toBe(10 * 3600_000);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(parseRetryAfter("120", NOW)).toBe(120_000);
    expect(parseRetryAfter(new Date(NOW + 30_000).toUTCString(), NOW)).toBe(30_000);
    expect(parseRetryAfter("soon", NOW)).toBeNull();
    expect(parseRetryAfter(null, NOW)).toBeNull();
  });

  it("allows a fixed number of attempts per hour, then says when the window reopens", () => {
    let window = { start: 0, count: 0 };
    for (let i = 0; i < 3; i++) {
      const d = budget(window, NOW, 3);
      if (!d.allowed) throw new Error("refused too early");
      window = d.window;
    }
    expect(budget(window, NOW + 10, 3)).toEqual({ allowed: false, until: NOW + 3600_000 });
    expect(budget(window, NOW + 3600_000, 3)).toMatchObject({ allowed: true, window: { count: 1 } });
  });
});

describe("one attempt", () => {
  it("fails a receiver that does not answer within the timeout", async () => {
    expect(ATTEMPT_TIMEOUT_MS).toBe(15_000);
    // The receiver would answer after 10 s: the attempt gives up at its 0.2 s, far from that on any machine.
    const { box, url } = newBox({ delay: 10_000 });
    const outcome = await attemptDelivery(DEV, { url, headers: {}, body: "{}" }, { timeoutMs: 200 });
    expect(outcome).toMatchObject({ ok: false, status: null, error: "no answer within 0.2 s" });
    expect(outcome.durationMs).toBeLessThan(5_000);
    expect(await received(box)).toHaveLength(1);
  });

  it("counts only 2xx as success", async () => {
    const ok = await attemptDelivery(DEV, { url: newBox().url, headers: {}, body: "{}" });
    expect(ok).toMatchObject({ ok: true, status: 200, responseBody: "ok" });
    const notFound = await attemptDelivery(DEV, {
      url: newBox({ fail: 1, status: 404 }).url,
      headers: {},
      body: "{}",
    });
    expect(notFound).toMatchObject({ ok: false, status: 404, error: "the receiver answered status 404" });
  });
});
