import { describe, expect, it } from "vitest";
import { RenderQueue, type QueuedJob } from "../../../src/video/render-queue.ts";

/** A job that runs until released (or aborted), recording when it started and why it was aborted. */
const job = (id: string, account: string, log: string[], attempt = 1) => {
  let release = () => {};
  const q: QueuedJob & { release: () => void; aborted?: string } = {
    id,
    attempt,
    account,
    release: () => release(),
    run: (signal) =>
      new Promise<void>((resolve) => {
        log.push(`start ${id}`);
        release = resolve;
        signal.addEventListener("abort", () => {
          q.aborted = String(signal.reason);
          resolve();
        });
        if (signal.aborted) {
          q.aborted = String(signal.reason);
          resolve();
        }
      }),
  };
  return q;
};

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("the render queue", () => {
  it("runs at most `slots` jobs and refuses offers past the waiting room, with a Retry-After", () => {
    const log: string[] = [];
    const q = new RenderQueue({ slots: 1, maxWaiting: 1, perAccount: 5 });
    expect(q.offer(job("a", "x", log))).toEqual({ accepted: true });
    expect(q.offer(job("b", "y", log))).toEqual({ accepted: true });
    const refused = q.offer(job("c", "z", log));
    expect(refused).toMatchObject({ accepted: false, reason: "full" });
    expect(refused.accepted === false && refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(log).toEqual(["start a"]);
    expect({ running: q.running, waiting: q.waiting }).toEqual({ running: 1, waiting: 1 });
  });

  it("holds at most `perAccount` jobs of one account, so another account still gets in", () => {
    const log: string[] = [];
    const q = new RenderQueue({ slots: 1, maxWaiting: 3, perAccount: 2 });
    expect(q.offer(job("a1", "greedy", log)).accepted).toBe(true);
    expect(q.offer(job("a2", "greedy", log)).accepted).toBe(true);
    expect(q.offer(job("a3", "greedy", log))).toMatchObject({ accepted: false, reason: "account" });
    expect(q.offer(job("b1", "other", log)).accepted).toBe(true);
  });

  it("gives a free slot to the account running the fewest jobs, oldest first among equals", async () => {
    const log: string[] = [];
    const q = new RenderQueue({ slots: 2, maxWaiting: 4, perAccount: 4 });
    const a1 = job("a1", "A", log);
    q.offer(a1);
    q.offer(job("a2", "A", log));
    q.offer(job("a3", "A", log));
    q.offer(job("b1", "B", log));
    expect(log).toEqual(["start a1", "start a2"]);
    a1.release();
    await tick();
    await tick();
    expect(log).toEqual(["start a1", "start a2", "start b1"]);
  });

  it("accepts a redelivered hand-over once, and a newer attempt replaces the older one", async () => {
    const log: string[] = [];
    const q = new RenderQueue({ slots: 1, maxWaiting: 0, perAccount: 1 });
    const first = job("j", "A", log, 1);
    expect(q.offer(first).accepted).toBe(true);
    expect(q.offer(job("j", "A", log, 1)).accepted).toBe(true);
    expect(log).toEqual(["start j"]);
    expect(q.offer(job("j", "A", log, 2)).accepted).toBe(true);
    expect(first.aborted).toBe("cancelled");
    await tick();
    await tick();
    expect(log).toEqual(["start j", "start j"]);
    expect(q.held()).toEqual([{ id: "j", attempt: 2, running: true }]);
  });

  it("cancels a running job through its signal and a waiting one before it starts", () => {
    const log: string[] = [];
    const q = new RenderQueue({ slots: 1, maxWaiting: 1, perAccount: 2 });
    const running = job("r", "A", log);
    const waiting = job("w", "A", log);
    q.offer(running);
    q.offer(waiting);
    expect(q.cancel("w")).toBe(true);
    expect(waiting.aborted).toBe("cancelled");
    expect(q.cancel("r", 7)).toBe(false); // another attempt: not this one
    expect(q.cancel("r", 1, "deadline")).toBe(true);
    expect(running.aborted).toBe("deadline");
    expect(q.cancel("nope")).toBe(false);
  });
});
