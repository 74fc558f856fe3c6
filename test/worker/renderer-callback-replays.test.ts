import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { finalCost } from "../../src/jobs/cost.ts";
import { markProcessing } from "../../src/jobs/lifecycle.ts";
import { PROCESSING_SILENCE_MS } from "../../src/jobs/sweep-stuck-jobs.ts";
import worker from "../../src/index.ts";
import { body, newAccount, testCtx } from "./helpers.ts";
import {
  auditedBalance,
  jobOutputUrl,
  jobRow,
  openPending,
  postStatusReport,
  statusReport,
} from "./jobs-seed.ts";

const RESERVE = 20;
/** Sends a signed report; every report in these tests is accepted (200). Returns whether it changed the job. */
const send = async (jobId: string, status: string, extra: Record<string, unknown> = {}) => {
  const res = await postStatusReport(statusReport(jobId, status, extra));
  expect(res.status).toBe(200);
  return (await body<{ applied: boolean }>(res)).data!.applied;
};

const storeOutput = (jobId: string) => jobOutputUrl(jobId, 64);

const permutations = <T>(items: T[]): T[][] =>
  items.length <= 1
    ? [items]
    : items.flatMap((x, i) =>
        permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((p) => [x, ...p]),
      );

const FINAL: Record<string, string> = { completed: "COMPLETED", failed: "FAILED", cancelled: "CANCELLED" };

describe("renderer callback: every order of reports", () => {
  // 24 orders of processing/completed/failed/cancelled: the first final report wins, the rest change nothing.
  it.each(permutations(["processing", "completed", "failed", "cancelled"]).map((p) => [p.join(" > "), p]))(
    "%s",
    async (_name, order) => {
      const { userId } = await newAccount({ tokens: 100 });
      const jobId = await openPending(userId, RESERVE, "VIDEO");
      const resultUrl = await storeOutput(jobId);
      const applied: boolean[] = [];
      for (const status of order as string[])
        applied.push(
          await send(jobId, status, {
            resultUrl,
            error: "boom",
            metadata: { videoDuration: 1.2, progress: 50 },
          }),
        );
      const firstFinal = (order as string[]).find((s) => s !== "processing")!;
      const finalIndex = (order as string[]).indexOf(firstFinal);
      // processing applies only before the first final report; after it nothing applies.
      expect(applied).toEqual((order as string[]).map((_, i) => i <= finalIndex));
      const row = await jobRow(jobId);
      const charged = firstFinal === "completed" ? 10 + 2 * 2 : 0;
      expect(row).toMatchObject({ status: FINAL[firstFinal], tokens_used: charged, tokens_reserved: 0 });
      expect(await auditedBalance(userId)).toBe(100 - charged);
      const kinds = await env.DB.prepare(
        "SELECT kind, count(*) AS n FROM token_ledger WHERE job_id = ? GROUP BY kind ORDER BY kind",
      )
        .bind(jobId)
        .all();
      expect(kinds.results).toEqual([
        ...(charged ? [{ kind: "charge", n: 1 }] : []),
        { kind: "release", n: 1 },
        { kind: "reserve", n: 1 },
      ]);
    },
  );

  it("progress reports may repeat and arrive out of order while the job runs", async () => {
    const { userId } = await newAccount();
    const jobId = await openPending(userId, RESERVE, "VIDEO");
    expect(await send(jobId, "processing", { metadata: { progress: 60, stage: "encoding" } })).toBe(true);
    expect(await send(jobId, "processing", { metadata: { progress: 20, stage: "frames" } })).toBe(true);
    expect(await send(jobId, "processing")).toBe(true);
    // A bare report keeps the last known progress and stage.
    expect(await jobRow(jobId)).toMatchObject({ status: "PROCESSING", progress: 20, stage: "frames" });
  });

  it("a completion after the sweep failed the job is ignored: nothing charged", async () => {
    const { userId } = await newAccount({ tokens: 100 });
    const t0 = Date.now() - PROCESSING_SILENCE_MS - 60_000;
    const jobId = await openPending(userId, RESERVE, "VIDEO", t0);
    await markProcessing(testCtx(t0), jobId, {});
    await worker.scheduled(
      createScheduledController({ cron: "*/5 * * * *", scheduledTime: Date.now() }),
      env,
    );
    expect((await jobRow(jobId))!.status).toBe("FAILED");
    expect(
      await send(jobId, "completed", { resultUrl: await storeOutput(jobId), metadata: { videoDuration: 1 } }),
    ).toBe(false);
    expect(await jobRow(jobId)).toMatchObject({ status: "FAILED", tokens_used: 0, output_file_id: null });
    expect(await auditedBalance(userId)).toBe(100);
  });
});

describe("renderer callback: reports that do not fit the job", () => {
  it("refuses a report whose type is not the job's (400) and changes nothing", async () => {
    const { userId } = await newAccount({ tokens: 100 });
    const jobId = await openPending(userId, RESERVE, "VIDEO");
    const res = await postStatusReport(statusReport(jobId, "failed", { type: "image" }));
    expect(res.status).toBe(400);
    expect((await body(res)).details!.errors![0]).toMatchObject({ field: "type" });
    expect((await jobRow(jobId))!.status).toBe("PENDING");
    expect(await auditedBalance(userId)).toBe(100 - RESERVE);
  });

  it("a processing report on a PENDING job starts it once (startedAt kept on later reports)", async () => {
    const { userId } = await newAccount();
    const jobId = await openPending(userId, RESERVE, "VIDEO");
    await send(jobId, "processing");
    const started = (await jobRow(jobId))!.started_at;
    expect(started).toEqual(expect.any(Number));
    await send(jobId, "processing", { metadata: { progress: 90 } });
    expect((await jobRow(jobId))!.started_at).toBe(started);
  });
});

describe("final video cost: 10 + 2 per started second", () => {
  const job = { type: "VIDEO" as const, config: { clips: [] }, tokensReserved: 999 };
  it.each([
    [0, 10],
    [0.001, 12],
    [1, 12],
    [1.0000001, 12], // float noise below a millisecond is not another second
    [1.2, 14],
    [2.999, 16],
    [30, 70],
  ])("%s s costs %i tokens", (seconds, tokens) => {
    expect(finalCost(job, seconds)).toBe(tokens);
  });

  it("charges the reserve when no usable duration is reported", () => {
    for (const d of [undefined, null, Number.NaN, -1, Number.POSITIVE_INFINITY])
      expect(finalCost({ ...job, tokensReserved: 42 }, d)).toBe(42);
  });

  it("images cost 2 + 1 per layer, whatever the duration", () => {
    expect(finalCost({ type: "IMAGE", config: { layers: [{}, {}, {}] }, tokensReserved: 99 }, 12)).toBe(5);
  });
});
