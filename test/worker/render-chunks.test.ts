/**
 * Parallel rendering's Worker side (docs/parallel-rendering.md): when a job splits, each chunk's lease and
 * hand-overs, the chunks' reports (progress, stored segments, faults) and the one join they lead to.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { VideoConfig } from "@media-render/contract/config";
import { chunksForDeadline, renderWork, videoDeadlineSeconds } from "@media-render/contract/deadline";
import { chunkWindow, MAX_CHUNKS } from "@media-render/contract/windows";
import { createContext } from "../../src/context.ts";
import {
  chunkCount,
  chunksOf,
  DEFAULT_MIN_WORK,
  captionedSecondsOf,
  CAPTIONED_CHUNK_SECONDS,
  minWorkOf,
  moveChunk,
  openChunks,
  segmentKey,
} from "../../src/jobs/chunks.ts";
import { markProcessing } from "../../src/jobs/lifecycle.ts";
import { outputStorageUrl } from "../../src/jobs/output.ts";
import { MAX_RENDER_ATTEMPTS } from "../../src/jobs/retry-render.ts";
import { dispatchJoin, offerChunk, watchChunk } from "../../src/queues/dispatch-chunks.ts";
import { videoRequest } from "../../src/queues/dispatch-video.ts";
import { LEASE_MS } from "../../src/queues/watch-lease.ts";
import { applyStatusReport } from "../../src/renderer/apply-status.ts";
import { keyOf } from "../../src/storage/paths.ts";
import { newAccount, testCtx } from "./helpers.ts";
import { auditedBalance, jobOutputUrl, jobRow, openPending, statusReport, plannedClip } from "./jobs-seed.ts";

const video = plannedClip;

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
    // Ten minutes of 1080p on 64 renderers: 45 chunks of 30 s of 720p's work each.
    expect(count(video(600, 1920, 1080), 64)).toBe(45);
    // Captions split like the video, in chunks of at least five minutes (each chunk transcribes its parts:
    // render-chunks-captions.test.ts); never previews or webm.
    expect(count(video(300, 1280, 720, { autoSubtitles: true }))).toBe(1);
    expect(count(video(1200, 1280, 720, { autoSubtitles: true }))).toBe(4);
    expect(count(video(300, 1280, 720, { fast: true }))).toBe(1);
    expect(count(video(300), 4, "webm")).toBe(1);
    // Only H.264 video is joined from segments: not a GIF, audio only, ProRes with alpha, a still or a preview.
    for (const format of ["gif", "mp3", "wav", "m4a"]) expect(count(video(300), 4, format)).toBe(1);
    expect(count(video(300), 4, "mov")).toBe(4);
    for (const extra of [{ alpha: true }, { still: { time: 1 } }, { preview: { to: 200 } }])
      expect(count(video(300, 1280, 720, extra as Partial<VideoConfig>), 4, "mov")).toBe(1);
    // Posters and thumbnails are taken from the joined file: they split like the video.
    for (const extra of [{ poster: { time: 1 } }, { thumbnails: { count: 4 } }])
      expect(count(video(300, 1280, 720, extra as Partial<VideoConfig>), 4, "mp4")).toBe(4);
  });

  it("into as many chunks as the longest render's deadline needs, with one renderer or many", () => {
    // An hour of 1080p25 earns 60 + 90,000 x (0.02 + 0.27) = 26,160 s: no render may run over 3,600 s.
    const hour = video(3600, 1920, 1080);
    expect(chunksForDeadline(hour.config, hour.timeline)).toBe(8);
    expect(chunkCount(hour.config, hour.timeline, "mp4", 1)).toBe(8);
    expect(chunkCount(hour.config, hour.timeline, "mp4", 4)).toBe(8);
    expect(chunkCount(hour.config, hour.timeline, "mp4", 16)).toBe(16);
    expect(chunkCount(hour.config, hour.timeline, "mp4", 200)).toBe(MAX_CHUNKS);
    for (let index = 0; index < 8; index++) {
      const window = chunkWindow(hour.config, hour.timeline, { index, count: 8 });
      const work = renderWork(hour.config, hour.timeline, window);
      expect(work.frames).toBe(11_250);
      expect(videoDeadlineSeconds(work)).toBe(3323); // 60 + 11,250 x 0.29, under the hour
    }
    // A minute fits one render, whatever its size.
    const minute = video(60, 1920, 1080);
    expect(chunksForDeadline(minute.config, minute.timeline)).toBe(1);
  });

  it("by the configured threshold, the default when it is unset or not a positive number", () => {
    expect(minWorkOf(undefined)).toBe(DEFAULT_MIN_WORK);
    for (const bad of ["", "0", "-5", "abc"]) expect(minWorkOf(bad)).toBe(DEFAULT_MIN_WORK);
    expect(minWorkOf("1000")).toBe(1000);
    const v = video(10);
    expect(chunkCount(v.config, v.timeline, "mp4", 2, 5 * 1280 * 720)).toBe(2);
    // A captioned job's shortest chunk, likewise (the end-to-end suite splits a 6 s captioned job).
    expect(captionedSecondsOf(undefined)).toBe(CAPTIONED_CHUNK_SECONDS);
    for (const bad of ["", "0", "-5", "abc"]) expect(captionedSecondsOf(bad)).toBe(CAPTIONED_CHUNK_SECONDS);
    const captioned = video(10, 1280, 720, { autoSubtitles: true });
    expect(chunkCount(captioned.config, captioned.timeline, "mp4", 2, 5 * 1280 * 720)).toBe(1);
    const short = captionedSecondsOf("1");
    expect(chunkCount(captioned.config, captioned.timeline, "mp4", 2, 5 * 1280 * 720, short)).toBe(2);
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
  // Handed over `silentMs` ago and silent since (as offerChunk records a hand-over).
  await env.DB.prepare("UPDATE job_chunks SET updated_at = ?1, started_at = ?1 WHERE job_id = ?2")
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

  it("count each hand-over's renderer time: a silent one's wall time, a reported one's own figure", async () => {
    const { jobId } = await splitJob(2, 1, LEASE_MS + 5000);
    const { ctx } = recording();
    await watchChunk(ctx, { jobId, chunk: 0, attempt: 1 });
    const [lapsed] = await chunksOf(ctx, jobId);
    expect(lapsed).toMatchObject({ status: "PENDING", startedAt: null });
    expect(lapsed!.renderMs).toBeGreaterThanOrEqual(LEASE_MS + 5000);
    expect(lapsed!.renderMs).toBeLessThan(LEASE_MS + 65_000);
    // A fault the renderer reports counts the time it reports.
    await env.DB.prepare("UPDATE job_chunks SET updated_at = ?1 WHERE job_id = ?2")
      .bind(Date.now(), jobId)
      .run();
    const fault = { retryable: true, error: "killed", metadata: { processingTime: 1234 } };
    expect(await applyStatusReport(ctx, report(jobId, "failed", 1, fault))).toBe(true);
    expect((await chunksOf(ctx, jobId))[1]).toMatchObject({ status: "PENDING", renderMs: 1234 });
    // None of it is the job's yet: it counts when the job ends.
    expect(await jobRow(jobId)).toMatchObject({ status: "PROCESSING", render_ms: 0 });
  });

  it("a job failed by one chunk's fault counts every chunk's time against the account, the stopped ones' too", async () => {
    const { userId, jobId, segment } = await splitJob(3);
    const { ctx } = recording();
    await env.FILES.put(segment(0), "segment");
    const done = { metadata: { processingTime: 10_000 } };
    expect(await applyStatusReport(ctx, report(jobId, "completed", 0, done))).toBe(true);
    // Chunk 2 has rendered for 20 s when chunk 1 fails by the job's own fault after 5 s.
    await env.DB.prepare("UPDATE job_chunks SET started_at = ? WHERE job_id = ? AND idx = 2")
      .bind(Date.now() - 20_000, jobId)
      .run();
    const failed = { error: "bad media", metadata: { processingTime: 5_000 } };
    expect(await applyStatusReport(ctx, report(jobId, "failed", 1, failed))).toBe(true);
    const row = (await jobRow(jobId))!;
    expect(row).toMatchObject({ status: "FAILED", tokens_used: 0 });
    expect(row.failed_render_ms).toBe(row.render_ms);
    expect(row.render_ms as number).toBeGreaterThanOrEqual(35_000);
    expect(row.render_ms as number).toBeLessThan(95_000);
    expect(await auditedBalance(userId)).toBe(100);
    // Its stored segment went with it.
    expect(await env.FILES.head(segment(0))).toBeNull();
  });

  it("a completed join counts its chunks' times and its own in the job's render time", async () => {
    const { jobId, segment } = await splitJob(2);
    const { ctx } = recording();
    for (const idx of [0, 1]) {
      await env.FILES.put(segment(idx), "segment");
      const done = { metadata: { processingTime: 7_000 + idx } };
      expect(await applyStatusReport(ctx, report(jobId, "completed", idx, done))).toBe(true);
    }
    await env.DB.prepare("UPDATE jobs SET attempts = 1 WHERE id = ?").bind(jobId).run();
    const row = (await jobRow(jobId))!;
    const output = await jobOutputUrl(jobId, 64);
    const joined = statusReport(jobId, "completed", {
      attempt: 1,
      resultUrl: output,
      metadata: { processingTime: 3_000, videoDuration: 1, outputWidth: 32, outputHeight: 32 },
    });
    expect(await applyStatusReport(ctx, joined as never)).toBe(true);
    expect(await jobRow(jobId)).toMatchObject({
      status: "COMPLETED",
      render_ms: 17_001,
      failed_render_ms: 0,
      tokens_used: expect.any(Number),
    });
    expect(row.status).toBe("PROCESSING");
  });
});

describe("a split job's deadlines", () => {
  /** The renderer as a stand-in that accepts every offer and remembers it (render-budget.test.ts does the same). */
  const offers = () => {
    const offered: { chunk?: { index: number }; join?: object; limits: { deadlineSeconds: number } }[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname.endsWith("/render/video")) offered.push(await request.json());
      return Response.json({ accepted: true }, { status: 202 });
    });
    return offered;
  };
  afterEach(() => vi.restoreAllMocks());

  /** A split job of 20 s of 1280x720 at 25 fps (stored as creation stores it), its chunks PENDING. */
  const longJob = async (count = 2) => {
    const { jobId, segment } = await splitJob(count);
    const config = {
      width: 1280,
      height: 720,
      fps: 25,
      clips: [{ duration: 20, layers: [{ type: "fill-color", color: "#fff" }] }],
    };
    await env.DB.prepare("UPDATE jobs SET config = ?1, normalized_config = ?1, plan = NULL WHERE id = ?2")
      .bind(JSON.stringify(config), jobId)
      .run();
    await env.DB.prepare(
      "UPDATE job_chunks SET status = 'PENDING', attempts = 0, started_at = NULL WHERE job_id = ?",
    )
      .bind(jobId)
      .run();
    return { jobId, segment };
  };

  it("a chunk is given its own frames' deadline, less its earlier hand-overs' time; none left fails the job", async () => {
    const offered = offers();
    const { jobId } = await longJob(2);
    const { ctx } = recording();
    // The whole job would earn 60 + 500 x 0.14 = 130 s; each half earns 60 + 250 x 0.14 = 95 s.
    expect(await offerChunk(ctx, { jobId, chunk: 0 }, videoRequest)).toBe("done");
    expect(offered.at(-1)).toMatchObject({ chunk: { index: 0, count: 2 }, limits: { deadlineSeconds: 95 } });
    const [held] = await chunksOf(ctx, jobId);
    expect(held).toMatchObject({ status: "RENDERING", attempts: 1 });
    expect(held!.startedAt).toBeGreaterThan(Date.now() - 60_000);
    // Chunk 1's earlier hand-overs took 40 s: 55 s are left.
    await env.DB.prepare("UPDATE job_chunks SET render_ms = 40000, attempts = 1 WHERE job_id = ? AND idx = 1")
      .bind(jobId)
      .run();
    expect(await offerChunk(ctx, { jobId, chunk: 1 }, videoRequest)).toBe("done");
    expect(offered.at(-1)).toMatchObject({ chunk: { index: 1, count: 2 }, limits: { deadlineSeconds: 55 } });
    // Took all of it: the job fails, charged nothing, without another offer.
    await env.DB.prepare(
      "UPDATE job_chunks SET status = 'PENDING', render_ms = 95000, attempts = 2 WHERE job_id = ? AND idx = 1",
    )
      .bind(jobId)
      .run();
    const before = offered.length;
    expect(await offerChunk(ctx, { jobId, chunk: 1 }, videoRequest)).toBe("skipped");
    expect(offered.length).toBe(before);
    const row = (await jobRow(jobId))!;
    expect(row).toMatchObject({
      status: "FAILED",
      tokens_used: 0,
      error_message: "Rendering chunk 2 used up its deadline of 95 s over 2 attempts; no tokens were charged",
    });
    // The chunks' time is the job's: 95 s of chunk 1, and chunk 0's since its hand-over.
    expect(row.render_ms as number).toBeGreaterThanOrEqual(95_000);
  });

  it("the join is given its own work's deadline: the mix and the copy, not the frames", async () => {
    const offered = offers();
    const { jobId, segment } = await longJob(2);
    await env.DB.prepare("UPDATE job_chunks SET status = 'JOINED' WHERE job_id = ?").bind(jobId).run();
    for (const idx of [0, 1]) await env.FILES.put(segment(idx), "segment");
    const { ctx } = recording();
    expect(await dispatchJoin(ctx, jobId, videoRequest)).toBe("done");
    // 60 + 20 s x 0.25 = 65 s.
    expect(offered.at(-1)).toMatchObject({
      join: { segments: expect.any(Array) },
      limits: { deadlineSeconds: 65 },
    });
  });
});
