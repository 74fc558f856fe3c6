import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signCallback } from "@media-render/contract/signing";
import { body, call, newAccount } from "./helpers.ts";
import {
  auditedBalance as balance,
  createJobCall,
  jobOutputUrl,
  jobRow,
  openPending,
  postStatusReport as send,
  statusReport as report,
} from "./jobs-seed.ts";

const SECRET = env.RENDERER_SECRET;

/** A VIDEO job opened through the lifecycle (reserve taken) but not queued, so only the callback moves it. */
const seedJob = async (reserve = 20) => {
  const account = await newAccount();
  return { ...account, jobId: await openPending(account.userId, reserve, "VIDEO") };
};

/** Stores an output at the job's path and returns the URL to report. */
const storeOutput = (jobId: string) => jobOutputUrl(jobId, 1234);

describe("renderer callback: authentication", () => {
  it("refuses an unsigned report with 401", async () => {
    const { jobId } = await seedJob();
    const res = await send(report(jobId, "processing"), { sign: false });
    expect(res.status).toBe(401);
    expect(await body(res)).toEqual({ success: false, error: "Unauthorized" });
    expect((await jobRow(jobId))!.status).toBe("PENDING");
  });

  it("refuses a report signed with another secret", async () => {
    const { jobId } = await seedJob();
    expect((await send(report(jobId, "failed"), { secret: "wrong" })).status).toBe(401);
    expect((await jobRow(jobId))!.status).toBe("PENDING");
  });

  it("refuses a replayed report older than five minutes", async () => {
    const { jobId } = await seedJob();
    expect(
      (await send(report(jobId, "processing"), { ts: Math.floor(Date.now() / 1000) - 600 })).status,
    ).toBe(401);
  });

  it("refuses a body changed after signing", async () => {
    const { jobId } = await seedJob();
    const ts = Math.floor(Date.now() / 1000);
    const headers = await signCallback(SECRET, JSON.stringify(report(jobId, "failed")), ts);
    const res = await call("/api/v1/webhooks/runner/job-status", {
      method: "POST",
      headers,
      body: JSON.stringify(report(jobId, "completed")),
    });
    expect(res.status).toBe(401);
  });
});

describe("renderer callback: validation", () => {
  it("answers 400 for an invalid payload", async () => {
    const { jobId } = await seedJob();
    const res = await send({ jobId, status: "exploded", type: "video", timestamp: "yesterday" });
    expect(res.status).toBe(400);
    const fields = (await body(res)).details?.errors?.map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(["status", "timestamp"]));
  });

  it("answers 404 for an unknown job", async () => {
    const res = await send(report("job_missing", "processing"));
    expect(res.status).toBe(404);
    expect((await body(res)).error).toBe("Job not found");
  });
});

describe("renderer callback: transitions", () => {
  it("moves a job to PROCESSING with progress, then COMPLETED with the final charge", async () => {
    const { jobId, userId, key } = await seedJob(20);
    const before = await balance(userId);
    expect(
      (await send(report(jobId, "processing", { metadata: { progress: 42.4, stage: "encoding" } }))).status,
    ).toBe(200);
    expect(await jobRow(jobId)).toMatchObject({ status: "PROCESSING", progress: 42, stage: "encoding" });

    const resultUrl = await storeOutput(jobId);
    const res = await send(
      report(jobId, "completed", {
        resultUrl,
        metadata: { videoDuration: 2.5, outputWidth: 640, outputHeight: 360 },
      }),
    );
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ success: true, data: { received: true, applied: true } });
    // 10 + 2 per started second: 2.5 s -> 3 s -> 16 tokens; the other 4 of the 20 reserved come back.
    const row = await jobRow(jobId);
    expect(row).toMatchObject({ status: "COMPLETED", tokens_used: 16, tokens_reserved: 0, progress: 100 });
    expect(await balance(userId)).toBe(before + 4);

    const job = (
      await body<{ outputFileId: string; tokensUsed: number }>(
        await call(`/api/v1/jobs/${jobId}`, { headers: { "x-api-key": key } }),
      )
    ).data!;
    expect(job.outputFileId).toBe(row!.output_file_id);
    // Outputs are kept a week (OUTPUT_TTL_HOURS), then expire like any file.
    const kept = await env.DB.prepare("SELECT expires_at - created_at AS ttl FROM media_files WHERE id = ?")
      .bind(job.outputFileId)
      .first<{ ttl: number }>();
    expect(kept!.ttl).toBe(168 * 3_600_000);
    const download = await call(`/api/v1/files/${job.outputFileId}/download`, {
      headers: { "x-api-key": key },
    });
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBe(1234);
  });

  it("charges a job's speech as its estimate priced it: 1 token per started 100 characters of each text", async () => {
    const { key, userId } = await newAccount({ planId: "pro", tokens: 500 });
    const config = {
      width: 64,
      height: 36,
      clips: [
        {
          duration: 2,
          layers: [
            { type: "fill-color", color: "#000000" },
            { type: "speech", text: "a".repeat(250) },
          ],
        },
      ],
      audioTracks: [{ type: "speech", text: "Hello there" }],
    };
    const created = await createJobCall(key, { type: "video", config });
    const answer = await body<{ jobId: string; estimatedTokens: number }>(created);
    expect(created.status, JSON.stringify(answer)).toBe(201);
    // 10 + 2 x 2 s for the video, 3 + 1 for the speech.
    expect(answer.data!.estimatedTokens).toBe(14 + 4);
    const { jobId } = answer.data!;
    await send(
      report(jobId, "completed", { resultUrl: await storeOutput(jobId), metadata: { videoDuration: 2 } }),
    );
    expect(await jobRow(jobId)).toMatchObject({ status: "COMPLETED", tokens_used: 18, tokens_reserved: 0 });
    expect(await balance(userId)).toBe(500 - 18);
  });

  it("charges the reserve when no duration is reported", async () => {
    const { jobId, userId } = await seedJob(20);
    const before = await balance(userId);
    await send(report(jobId, "completed", { resultUrl: await storeOutput(jobId) }));
    expect((await jobRow(jobId))!.tokens_used).toBe(20);
    expect(await balance(userId)).toBe(before);
  });

  it("never charges more than the reserve", async () => {
    const { jobId } = await seedJob(20);
    await send(
      report(jobId, "completed", { resultUrl: await storeOutput(jobId), metadata: { videoDuration: 100 } }),
    );
    expect((await jobRow(jobId))!.tokens_used).toBe(20);
  });

  it("refuses a completion whose result is not the job's output path", async () => {
    const { jobId } = await seedJob();
    const res = await send(
      report(jobId, "completed", { resultUrl: "http://127.0.0.1:8787/storage/output/elsewhere.mp4" }),
    );
    expect(res.status).toBe(400);
    expect((await jobRow(jobId))!.status).toBe("PENDING");
  });

  it("fails a job whose reported output is missing, charging nothing", async () => {
    const { jobId, userId } = await seedJob(20);
    const before = await balance(userId);
    await send(report(jobId, "completed", { resultUrl: await jobOutputUrl(jobId) }));
    expect((await jobRow(jobId))!.status).toBe("FAILED");
    expect(await balance(userId)).toBe(before + 20);
  });

  it("fails a job with the error text and refunds the whole reserve", async () => {
    const { jobId, userId } = await seedJob(20);
    const before = await balance(userId);
    await send(report(jobId, "failed", { error: "ffmpeg exited with code 1" }));
    expect(await jobRow(jobId)).toMatchObject({
      status: "FAILED",
      tokens_used: 0,
      error_message: "ffmpeg exited with code 1",
    });
    expect(await balance(userId)).toBe(before + 20);
  });

  it("cancels a job without charging", async () => {
    const { jobId, userId } = await seedJob(20);
    const before = await balance(userId);
    await send(report(jobId, "cancelled"));
    expect(await jobRow(jobId)).toMatchObject({ status: "CANCELLED", tokens_used: 0 });
    expect(await balance(userId)).toBe(before + 20);
  });
});

describe("renderer callback: replays and ordering", () => {
  it("ignores a duplicate completion: one charge, one output", async () => {
    const { jobId, userId } = await seedJob(20);
    const resultUrl = await storeOutput(jobId);
    const done = report(jobId, "completed", { resultUrl, metadata: { videoDuration: 1 } });
    await send(done);
    const after = await balance(userId);
    const again = await send(done);
    expect(again.status).toBe(200);
    expect((await body(again)).data).toEqual({ received: true, applied: false });
    expect(await balance(userId)).toBe(after);
    const charges = await env.DB.prepare(
      "SELECT count(*) AS n FROM token_ledger WHERE job_id = ? AND kind = 'charge'",
    )
      .bind(jobId)
      .first<{ n: number }>();
    expect(charges!.n).toBe(1);
  });

  it("never moves a finished job: late processing, failed and cancelled reports after completion", async () => {
    const { jobId, userId } = await seedJob(20);
    await send(
      report(jobId, "completed", { resultUrl: await storeOutput(jobId), metadata: { videoDuration: 1 } }),
    );
    const after = await balance(userId);
    for (const status of ["processing", "failed", "cancelled"])
      await send(report(jobId, status, { error: "late" }));
    expect(await jobRow(jobId)).toMatchObject({ status: "COMPLETED", tokens_used: 12, error_message: null });
    expect(await balance(userId)).toBe(after);
  });

  it("ignores a completion that arrives after a failure", async () => {
    const { jobId, userId } = await seedJob(20);
    await send(report(jobId, "failed", { error: "boom" }));
    const after = await balance(userId);
    await send(
      report(jobId, "completed", { resultUrl: await storeOutput(jobId), metadata: { videoDuration: 1 } }),
    );
    expect(await jobRow(jobId)).toMatchObject({ status: "FAILED", tokens_used: 0 });
    expect(await balance(userId)).toBe(after);
  });

  it("applies exactly one of many simultaneous completions", async () => {
    const { jobId, userId } = await seedJob(20);
    const resultUrl = await storeOutput(jobId);
    const before = await balance(userId);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        send(report(jobId, "completed", { resultUrl, metadata: { videoDuration: 2 } })).then((r) => body(r)),
      ),
    );
    expect(results.filter((r) => (r.data as { applied: boolean }).applied)).toHaveLength(1);
    expect(await balance(userId)).toBe(before + 20 - 14);
    const rows = await env.DB.prepare(
      "SELECT kind, count(*) AS n FROM token_ledger WHERE job_id = ? GROUP BY kind ORDER BY kind",
    )
      .bind(jobId)
      .all();
    expect(rows.results).toEqual([
      { kind: "charge", n: 1 },
      { kind: "release", n: 1 },
      { kind: "reserve", n: 1 },
    ]);
  });
});
