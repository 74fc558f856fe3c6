/**
 * Parallel rendering's Worker side (docs/parallel-rendering.md): when a job splits, each chunk's lease and
 * hand-overs, the chunks' reports (progress, stored segments, faults) and the one join they lead to.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { VideoConfig } from "@media-render/contract/config";
import { buildTimeline } from "@media-render/contract/timeline";
import { createContext } from "../../src/context.ts";
import {
  chunkCount,
  chunksOf,
  DEFAULT_MIN_WORK,
  minWorkOf,
  moveChunk,
  openChunks,
  segmentKey,
} from "../../src/jobs/chunks.ts";
import { markProcessing } from "../../src/jobs/lifecycle.ts";
import { outputStorageUrl } from "../../src/jobs/output.ts";
import { MAX_RENDER_ATTEMPTS } from "../../src/jobs/retry-render.ts";
import { watchChunk } from "../../src/queues/dispatch-chunks.ts";
import { LEASE_MS } from "../../src/queues/watch-lease.ts";
import { applyStatusReport } from "../../src/renderer/apply-status.ts";
import { keyOf } from "../../src/storage/paths.ts";
import { newAccount, testCtx } from "./helpers.ts";
import { auditedBalance, jobRow, openPending, statusReport } from "./jobs-seed.ts";

const video = (seconds: number, width = 1280, height = 720, extra: Partial<VideoConfig> = {}) => {
  const config = {
    width,
    height,
    fps: 25,
    clips: [{ duration: seconds, layers: [] }],
    ...extra,
  } as VideoConfig;
  return { config, timeline: buildTimeline(config, { videoLength: () => null }) };
};

describe("when a job splits", () => {
  it("at a minute of 1280x720, or the same work at another size, with two renderers or more", () => {
    const count = (v: ReturnType<typeof video>, renderers = 4, format = "mp4") =>
      chunkCount(v.config, v.timeline, format, renderers);
    expect(count(video(59))).toBe(1);
    expect(count(video(60))).toBe(2);
    expect(count(video(60), 1)).toBe(1);
    // 1920x1080 is 2.25x the pixels: 26.7 s is a minute of 720p's work.
    expect(count(video(26, 1920, 1080))).toBe(1);
    expect(count(video(27, 1920, 1080))).toBe(2);
    // More work, more chunks (each at least half the threshold), at most one per renderer.
    expect(count(video(300))).toBe(4);
    expect(count(video(300), 8)).toBe(8);
    expect(count(video(120), 8)).toBe(4);
    // Never captions (made from the whole mix first), previews or webm.
    expect(count(video(300, 1280, 720, { autoSubtitles: true }))).toBe(1);
    expect(count(video(300, 1280, 720, { fast: true }))).toBe(1);
    expect(count(video(300), 4, "webm")).toBe(1);
    // Only H.264 video is joined from segments: not a GIF, audio only, ProRes with alpha, a still, a preview, or a
    // job whose posters and thumbnails come from the finished file.
    for (const format of ["gif", "mp3", "wav", "m4a"]) expect(count(video(300), 4, format)).toBe(1);
    expect(count(video(300), 4, "mov")).toBe(4);
    for (const extra of [
      { alpha: true },
      { still: { time: 1 } },
      { preview: { to: 200 } },
      { poster: { time: 1 } },
      { thumbnails: { count: 4 } },
    ])
      expect(count(video(300, 1280, 720, extra as Partial<VideoConfig>), 4, "mov")).toBe(1);
  });

  it("by the configured threshold, the default when it is unset or not a positive number", () => {
    expect(minWorkOf(undefined)).toBe(DEFAULT_MIN_WORK);
    for (const bad of ["", "0", "-5", "abc"]) expect(minWorkOf(bad)).toBe(DEFAULT_MIN_WORK);
    expect(minWorkOf("1000")).toBe(1000);
    const v = video(10);
    expect(chunkCount(v.config, v.timeline, "mp4", 2, 5 * 1280 * 720)).toBe(2);
  });
});

/** Bindings whose VIDEO_QUEUE records what is sent, and whose renderer is nowhere (cancels fail quietly). */
const recording = () => {
  const sent: unknown[] = [];
  const queue = {
    send: async (body: unknown) => void sent.push(body),
    sendBatch: async (items: { body: unknown }[]) => void sent.push(...items.map((i) => i.body)),
  };
  return {
    sent,
    ctx: createContext({
      ...env,
      RENDERER_URL: "http://127.0.0.1:9",
      VIDEO_QUEUE: queue as unknown as Queue,
    }),
  };
};

/** A video job split into `count` chunks, each handed over `attempts` times, last heard from `silentMs` ago. */
const splitJob = async (count = 3, attempts = 1, silentMs = 0) => {
  const { userId } = await newAccount({ tokens: 100 });
  const jobId = await openPending(userId, 12, "VIDEO");
  await markProcessing(testCtx(), jobId, { countAttempt: true });
  await openChunks(testCtx(), jobId, count);
  for (let idx = 0; idx < count; idx++)
    await moveChunk(testCtx(), { jobId, idx }, "PENDING", "RENDERING", {
      attempts,
      instance: `render-${idx}`,
    });
  await env.DB.prepare("UPDATE job_chunks SET updated_at = ? WHERE job_id = ?")
    .bind(Date.now() - silentMs, jobId)
    .run();
  const row = (await jobRow(jobId))!;
  const outputKey = keyOf(
    outputStorageUrl({
      id: jobId,
      userId,
      createdAt: row.created_at as number,
      outputFormat: row.output_format as string,
    }),
  );
  return { userId, jobId, segment: (idx: number) => segmentKey(outputKey, idx) };
};

const report = (jobId: string, status: string, chunk: number, extra: Record<string, unknown> = {}) =>
  statusReport(jobId, status, { attempt: 1, chunk, ...extra }) as never;

describe("a split job's chunks", () => {
  it("a chunk whose renderer went silent is handed over alone; the others keep rendering", async () => {
    const { jobId } = await splitJob(3, 1, LEASE_MS + 1000);
    await env.DB.prepare("UPDATE job_chunks SET updated_at = ? WHERE job_id = ? AND idx <> 1")
      .bind(Date.now(), jobId)
      .run();
    const { sent, ctx } = recording();
    await watchChunk(ctx, { jobId, chunk: 1, attempt: 1 });
    expect(sent).toEqual([{ kind: "chunk", jobId, chunk: 1 }]);
    expect((await chunksOf(ctx, jobId)).map((r) => r.status)).toEqual(["RENDERING", "PENDING", "RENDERING"]);
    // A second notice of the same loss changes nothing; a live chunk is watched again.
    await watchChunk(ctx, { jobId, chunk: 1, attempt: 1 });
    await watchChunk(ctx, { jobId, chunk: 0, attempt: 1 });
    expect(sent.slice(1)).toEqual([{ kind: "watch-chunk", jobId, chunk: 0, attempt: 1 }]);
    expect((await jobRow(jobId))!.status).toBe("PROCESSING");
  });

  it(`a chunk lost ${MAX_RENDER_ATTEMPTS} times fails the job, nothing charged`, async () => {
    const { userId, jobId } = await splitJob(2, MAX_RENDER_ATTEMPTS, LEASE_MS + 1000);
    const { sent, ctx } = recording();
    await watchChunk(ctx, { jobId, chunk: 0, attempt: MAX_RENDER_ATTEMPTS });
    expect(sent).toEqual([]);
    expect(await jobRow(jobId)).toMatchObject({ status: "FAILED", tokens_used: 0 });
    expect(String((await jobRow(jobId))!.error_message)).toMatch(/chunk 1: the renderer stopped responding/);
    expect(await auditedBalance(userId)).toBe(100);
  });

  it("an infrastructure fault hands that chunk over; the job's own fault fails the job", async () => {
    const { jobId } = await splitJob(2);
    const { sent, ctx } = recording();
    expect(
      await applyStatusReport(ctx, report(jobId, "failed", 0, { retryable: true, error: "killed" })),
    ).toBe(true);
    expect(sent).toEqual([{ kind: "chunk", jobId, chunk: 0 }]);
    // The lost hand-over's late reports change nothing.
    expect(await applyStatusReport(ctx, report(jobId, "processing", 0))).toBe(false);
    expect(await applyStatusReport(ctx, report(jobId, "failed", 1, { error: "bad media" }))).toBe(true);
    expect(await jobRow(jobId)).toMatchObject({
      status: "FAILED",
      error_message: "bad media",
      tokens_used: 0,
    });
  });

  it("report the whole job's progress, and the last stored segment queues one join", async () => {
    const { jobId, segment } = await splitJob(2);
    const { sent, ctx } = recording();
    expect(await applyStatusReport(ctx, report(jobId, "processing", 0, { metadata: { progress: 50 } }))).toBe(
      true,
    );
    expect((await jobRow(jobId))!.progress).toBe(22); // (50 + 0) / 2 of the chunks' 90 %
    // A completion without its segment stored is a lost render: handed over.
    expect(await applyStatusReport(ctx, report(jobId, "completed", 1))).toBe(true);
    expect(sent).toEqual([{ kind: "chunk", jobId, chunk: 1 }]);
    await env.DB.prepare(
      "UPDATE job_chunks SET status = 'RENDERING', attempts = 1 WHERE job_id = ? AND idx = 1",
    )
      .bind(jobId)
      .run();
    sent.length = 0;
    for (const idx of [0, 1]) await env.FILES.put(segment(idx), "segment");
    expect(await applyStatusReport(ctx, report(jobId, "completed", 0))).toBe(true);
    expect(sent).toEqual([]);
    expect(await applyStatusReport(ctx, report(jobId, "completed", 1))).toBe(true);
    expect(await applyStatusReport(ctx, report(jobId, "completed", 1))).toBe(false); // a replay
    expect(sent).toEqual([{ kind: "join", jobId }]);
    expect((await chunksOf(ctx, jobId)).map((r) => r.status)).toEqual(["JOINED", "JOINED"]);
    expect(await jobRow(jobId)).toMatchObject({ status: "PROCESSING", progress: 90 });
  });

  it("a chunk that finishes after its job ended leaves no segment behind", async () => {
    const { jobId, segment } = await splitJob(2);
    const { ctx } = recording();
    expect(await applyStatusReport(ctx, report(jobId, "failed", 0, { error: "bad media" }))).toBe(true);
    await env.FILES.put(segment(1), "segment");
    expect(await applyStatusReport(ctx, report(jobId, "completed", 1))).toBe(false);
    expect(await env.FILES.head(segment(1))).toBeNull();
  });
});
