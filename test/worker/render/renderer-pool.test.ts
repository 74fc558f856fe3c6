/** The renderer pool's routing: per-job hashing with spill-over, instances from RENDERER_URL or by name. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createContext } from "../../../src/context.ts";
import { dispatchVideoJob } from "../../../src/queues/dispatch-video.ts";
import { RendererBusy } from "../../../src/lib/errors.ts";
import { rendererFor } from "../../../src/renderer/client.ts";
import { probeInstance, renderInstances, spillOrder } from "../../../src/renderer/pool.ts";
import { newAccount } from "../helpers.ts";
import { jobRow, openPending } from "../jobs-seed.ts";

describe("renderer pool", () => {
  it("tries every instance once, starting at the job's hash, and a new attempt starts one further", () => {
    const first = spillOrder("job_abc", 1, 4);
    expect([...first].sort()).toEqual([0, 1, 2, 3]);
    const second = spillOrder("job_abc", 2, 4);
    expect(second[0]).toBe((first[0]! + 1) % 4);
    expect(spillOrder("job_abc", 1, 1)).toEqual([0]);
  });

  it("spreads jobs evenly over the instances", () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) counts[spillOrder(`job_${i.toString(36)}x`, 1, 4)[0]!]!++;
    for (const c of counts) expect(c).toBeGreaterThan(800);
  });

  it("reads local instances from a comma-separated RENDERER_URL; probes go to RENDERER_PROBE_URL or the first", () => {
    const local = { ...env, RENDERER_URL: "http://127.0.0.1:1/, http://127.0.0.1:2" };
    expect(renderInstances(local).map((i) => [i.name, i.base])).toEqual([
      ["render-0", "http://127.0.0.1:1"],
      ["render-1", "http://127.0.0.1:2"],
    ]);
    expect(probeInstance(local).base).toBe("http://127.0.0.1:1");
    expect(probeInstance({ ...local, RENDERER_PROBE_URL: "http://127.0.0.1:3" }).base).toBe(
      "http://127.0.0.1:3",
    );
  });

  it("spills a job past an instance that does not answer to one that takes it, and watches it there", async () => {
    const { userId } = await newAccount({ tokens: 100 });
    const sent: { body: unknown; options: unknown }[] = [];
    // Instance render-0 is dead (nothing listens on port 9), render-1 is the real renderer of the test run.
    const bindings = {
      ...env,
      RENDERER_URL: `http://127.0.0.1:9,${env.RENDERER_URL}`,
      VIDEO_QUEUE: { send: async (body: unknown, options: unknown) => void sent.push({ body, options }) },
    } as unknown as typeof env;
    const ctx = createContext(bindings);
    // The live renderer is the whole run's: other files' renders may fill its queue for a moment, and a busy answer
    // puts the job back (as the queue's retry would), so dispatch again until it is taken.
    const dispatched = async (jobId: string) => {
      for (let tries = 1; ; tries++) {
        try {
          return await dispatchVideoJob(ctx, jobId);
        } catch (e) {
          if (!(e instanceof RendererBusy) || tries >= 120) throw e;
          // A busy answer leaves the job pending (no expect here: lint allows no conditional expects).
          const status = (await jobRow(jobId))?.status;
          if (status !== "PENDING") throw new Error(`a busy renderer left the job ${status}, not PENDING`);
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
    };
    for (let i = 0; i < 2; i++) {
      const jobId = await openPending(userId, 12, "VIDEO");
      expect(await dispatched(jobId)).toBe("done");
      expect(await jobRow(jobId)).toMatchObject({ status: "PROCESSING", attempts: 1 });
      expect(sent.at(-1)).toEqual({
        body: { kind: "watch", jobId, attempt: 1, instance: "render-1" },
        options: { delaySeconds: 5 },
      });
      // Its callbacks have nowhere to go in this test: stop the render.
      expect(await rendererFor(bindings).cancel(jobId, 1, "render-1")).toBe(true);
    }
  }, 180_000);
});
