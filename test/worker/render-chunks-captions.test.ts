/**
 * autoSubtitles in a split job, the Worker's side (docs/parallel-rendering.md, "Captions"): a captioned job splits
 * like any other; each chunk is given a signed PUT URL for the words of the transcription parts it owns (beside its
 * segment) and a deadline that counts only the parts its frames reach; a chunk whose words were not stored is handed
 * over like one whose segment was not; the join is given every chunk's words file and a deadline without
 * transcription; its completion records the caption files, and the segments and words files go.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { VideoConfig } from "@media-render/contract/config";
import { transcribedSeconds } from "@media-render/contract/caption-parts";
import {
  chunksForDeadline,
  chunkWork,
  MAX_DEADLINE_SECONDS,
  renderWork,
  videoDeadlineSeconds,
} from "@media-render/contract/deadline";
import { chunkWindow, composedRange } from "@media-render/contract/windows";
import { createContext } from "../../src/context.ts";
import { chunkCount, chunksOf, moveChunk, openChunks, segmentKey, wordsKey } from "../../src/jobs/chunks.ts";
import { markProcessing } from "../../src/jobs/lifecycle.ts";
import { captionStorageUrl, outputStorageUrl } from "../../src/jobs/output.ts";
import { plannedVideo } from "../../src/jobs/planned-length.ts";
import { ValidationFailed } from "../../src/lib/errors.ts";
import { dispatchJoin, offerChunk } from "../../src/queues/dispatch-chunks.ts";
import { videoRequest } from "../../src/queues/dispatch-video.ts";
import { applyStatusReport } from "../../src/renderer/apply-status.ts";
import { keyOf } from "../../src/storage/paths.ts";
import { body, call, json, newAccount, testCtx } from "./helpers.ts";
import {
  auditedBalance,
  get,
  jobOutputUrl,
  jobRow,
  openPending,
  statusReport,
  plannedClip,
} from "./jobs-seed.ts";

const video = plannedClip;

describe("a captioned job", () => {
  it("splits like any other: by its work and the pool, and into as many chunks as the longest render needs", () => {
    // Chunks of at least five minutes: each boundary's caption part is transcribed twice.
    const short = video(300, 1280, 720, { autoSubtitles: true });
    expect(chunkCount(short.config, short.timeline, "mp4", 4)).toBe(1);
    expect(chunkCount(short.config, short.timeline, "mp4", 4)).toBeLessThan(
      chunkCount(video(300, 1280, 720).config, short.timeline, "mp4", 4),
    );
    const captioned = video(1200, 1280, 720, { autoSubtitles: true });
    expect(chunkCount(captioned.config, captioned.timeline, "mp4", 8)).toBe(4);
    // One renderer: 20 minutes of captioned 720p earn the longest render's deadline, so it still takes two.
    expect(chunksForDeadline(captioned.config, captioned.timeline)).toBe(2);
    expect(chunkCount(captioned.config, captioned.timeline, "mp4", 1)).toBe(2);
    // An hour of 1080p: each chunk's captions are its parts' (a window of 400 s and the parts at its edges), not
    // the hour's, so 9 chunks fit the longest render where 8 do without captions. Before, none did.
    const hour = video(3600, 1920, 1080, { autoSubtitles: true });
    expect(chunksForDeadline(hour.config, hour.timeline)).toBe(9);
    expect(chunkCount(hour.config, hour.timeline, "mp4", 2)).toBe(9);
    for (let index = 0; index < 9; index++) {
      const work = chunkWork(
        hour.config,
        hour.timeline,
        chunkWindow(hour.config, hour.timeline, { index, count: 9 }),
      );
      expect(work.frames).toBe(10_000);
      // Its window's 400 s, the parts reaching past its edges, each part's ±2 s search counted in full.
      expect(work.captionSeconds).toBeGreaterThan(400);
      expect(work.captionSeconds).toBeLessThanOrEqual(510);
      expect(videoDeadlineSeconds(work)).toBeLessThan(MAX_DEADLINE_SECONDS);
    }
    // The whole render counts the whole hour of captions.
    expect(renderWork(hour.config, hour.timeline).captionSeconds).toBe(3600);
  });

  it("of an hour is accepted at creation: it renders as chunks", () => {
    const hour = (extra: Partial<VideoConfig>) =>
      ({
        width: 1920,
        height: 1080,
        fps: 25,
        autoSubtitles: true,
        clips: [{ duration: 3600, layers: [{ type: "fill-color", color: "#123" }] }],
        ...extra,
      }) as VideoConfig;
    expect(plannedVideo(hour({}), () => undefined).seconds).toBe(3600);
    // A webm still renders in one piece, captions or not.
    let refused: unknown;
    try {
      plannedVideo(hour({ format: "webm" }), () => undefined);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ValidationFailed);
    expect((refused as ValidationFailed).errors[0]!.message).toMatch(/and a webm renders in one piece/);
  });
});

/** A stand-in renderer that accepts every offer and remembers its request. */
const offers = () => {
  const offered: {
    chunk?: { index: number };
    join?: { segments: string[]; words?: string[] };
    output: { words?: string; uploadUrl: string };
    limits: { deadlineSeconds: number };
  }[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (new URL(request.url).pathname.endsWith("/render/video")) offered.push(await request.json());
    return Response.json({ accepted: true }, { status: 202 });
  });
  return offered;
};

/** Bindings whose VIDEO_QUEUE records what is sent and whose deferred work can be awaited. */
const recording = () => {
  const sent: unknown[] = [];
  const deferred: Promise<unknown>[] = [];
  const queue = {
    send: async (b: unknown) => void sent.push(b),
    sendBatch: async (items: { body: unknown }[]) => void sent.push(...items.map((i) => i.body)),
  };
  const ctx = createContext(
    { ...env, RENDERER_URL: "http://127.0.0.1:9", VIDEO_QUEUE: queue as unknown as Queue },
    { defer: (work) => void deferred.push(work.catch(() => undefined)) },
  );
  return { sent, ctx, settled: () => Promise.all(deferred) };
};

/**
 * A split video job (`seconds` of 640x360 at 25 fps, autoSubtitles unless `captions` is false) of `count` chunks,
 * PENDING (to be offered) or RENDERING at hand-over 1.
 */
const splitJob = async (o: { count?: number; seconds?: number; captions?: boolean; rendering?: boolean }) => {
  const { count = 2, seconds = 120, captions = true, rendering = false } = o;
  const { userId, key } = await newAccount({ tokens: 1000, planId: "pro" });
  const jobId = await openPending(userId, 300, "VIDEO");
  const config = {
    width: 640,
    height: 360,
    fps: 25,
    clips: [{ duration: seconds, layers: [{ type: "fill-color", color: "#fff" }] }],
    ...(captions && { autoSubtitles: true }),
  };
  await env.DB.prepare("UPDATE jobs SET config = ?1, normalized_config = ?1, plan = NULL WHERE id = ?2")
    .bind(JSON.stringify(config), jobId)
    .run();
  await markProcessing(testCtx(), jobId, { countAttempt: true });
  await openChunks(testCtx(), jobId, count);
  if (rendering)
    for (let idx = 0; idx < count; idx++)
      await moveChunk(testCtx(), { jobId, idx }, "PENDING", "RENDERING", {
        attempts: 1,
        instance: `r${idx}`,
      });
  const row = (await jobRow(jobId))!;
  const outputKey = keyOf(
    outputStorageUrl({
      id: jobId,
      userId,
      createdAt: row.created_at as number,
      outputFormat: row.output_format as string,
    }),
  );
  return {
    userId,
    key,
    jobId,
    segment: (idx: number) => segmentKey(outputKey, idx),
    words: (idx: number) => wordsKey(outputKey, idx),
  };
};

const chunkReport = (jobId: string, status: string, chunk: number, extra: Record<string, unknown> = {}) =>
  statusReport(jobId, status, { attempt: 1, chunk, ...extra }) as never;

/** The storage key a signed URL names. */
const keyIn = (url: string) => decodeURIComponent(new URL(url).pathname.replace(/^\/storage\//, ""));

describe("a captioned job's chunks", () => {
  afterEach(() => vi.restoreAllMocks());

  it("are each given a signed PUT URL for their words beside their segment, which stores them", async () => {
    const offered = offers();
    const { jobId, words } = await splitJob({ count: 4 });
    const { ctx } = recording();
    expect(await offerChunk(ctx, { jobId, chunk: 2 }, videoRequest)).toBe("done");
    const request = offered.at(-1)!;
    expect(request.chunk).toMatchObject({ index: 2 });
    expect(keyIn(request.output.words!)).toBe(words(2));
    expect(keyIn(request.output.uploadUrl)).toBe(words(2).replace(/\.words\.json$/, ""));
    vi.restoreAllMocks();
    // The URL is the storage route's own: the renderer's PUT stores the file there.
    const url = new URL(request.output.words!);
    const text = JSON.stringify({ backend: "pocketsphinx", parts: [] });
    const put = await call(`${url.pathname}${url.search}`, {
      method: "PUT",
      headers: { "content-type": "application/json", "content-length": String(text.length) },
      body: text,
    });
    expect(put.status).toBe(201);
    expect(await (await env.FILES.get(words(2)))!.text()).toBe(text);
    // Its GET is not signed by a PUT URL.
    expect((await call(`${url.pathname}${url.search}`)).status).toBe(403);
  });

  it("are given no words URL without autoSubtitles", async () => {
    const offered = offers();
    const { jobId } = await splitJob({ captions: false });
    expect(await offerChunk(recording().ctx, { jobId, chunk: 0 }, videoRequest)).toBe("done");
    expect(offered.at(-1)!.output.words).toBeUndefined();
  });

  it("are given deadlines that count their own parts' transcription, not the whole video's", async () => {
    const offered = offers();
    const { jobId } = await splitJob({ count: 4 });
    const { ctx } = recording();
    for (const chunk of [0, 1]) await offerChunk(ctx, { jobId, chunk }, videoRequest);
    // 120 s of 640x360: each quarter's frames earn 60 + 750 x 0.05 = 97.5 s. The mix is cut near 30, 60 and 90 s
    // (each cut within 2 s): chunk 0 (0-30 s) may reach the parts up to 32 s and 28-62 s, 66 s of audio; chunk 1
    // (30-60 s) those and the one from 58 s, 100 s. The whole video would transcribe 120 s, and earn 330 s.
    expect(offered.map((o) => o.limits.deadlineSeconds)).toEqual([164, 198]);
    const config = { ...video(120, 640, 360, { autoSubtitles: true }) };
    const range = composedRange(
      config.timeline,
      chunkWindow(config.config, config.timeline, { index: 1, count: 4 }),
    );
    expect(transcribedSeconds(120, 25, range)).toBe(100);
    expect(videoDeadlineSeconds(renderWork(config.config, config.timeline))).toBe(330);
  });

  it("are handed over when their words were not stored, like a missing segment; done with both", async () => {
    const { jobId, segment, words } = await splitJob({ rendering: true });
    const { sent, ctx } = recording();
    await env.FILES.put(segment(0), "segment");
    expect(await applyStatusReport(ctx, chunkReport(jobId, "completed", 0))).toBe(true);
    expect(sent).toEqual([{ kind: "chunk", jobId, chunk: 0 }]);
    expect((await chunksOf(ctx, jobId))[0]).toMatchObject({ status: "PENDING" });
    // Chunk 1 stored both: it is done.
    await env.FILES.put(segment(1), "segment");
    await env.FILES.put(words(1), '{"backend":"pocketsphinx","parts":[]}');
    expect(await applyStatusReport(ctx, chunkReport(jobId, "completed", 1))).toBe(true);
    expect((await chunksOf(ctx, jobId))[1]).toMatchObject({ status: "DONE" });
    expect(sent).toHaveLength(1);
  });

  it("leave no words file behind when they finish after their job ended", async () => {
    const { jobId, segment, words } = await splitJob({ rendering: true });
    const { ctx } = recording();
    expect(await applyStatusReport(ctx, chunkReport(jobId, "failed", 0, { error: "bad media" }))).toBe(true);
    await env.FILES.put(segment(1), "segment");
    await env.FILES.put(words(1), "{}");
    expect(await applyStatusReport(ctx, chunkReport(jobId, "completed", 1))).toBe(false);
    expect(await env.FILES.head(segment(1))).toBeNull();
    expect(await env.FILES.head(words(1))).toBeNull();
  });
});

describe("a captioned job's join", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is given every chunk's words file by signed GET, in order, and a deadline without transcription", async () => {
    const offered = offers();
    const { jobId, segment, words } = await splitJob({ count: 3 });
    await env.DB.prepare("UPDATE job_chunks SET status = 'JOINED' WHERE job_id = ?").bind(jobId).run();
    const { ctx } = recording();
    expect(await dispatchJoin(ctx, jobId, videoRequest)).toBe("done");
    const join = offered.at(-1)!;
    expect(join.join!.segments.map(keyIn)).toEqual([0, 1, 2].map(segment));
    expect(join.join!.words!.map(keyIn)).toEqual([0, 1, 2].map(words));
    // 60 + 120 s x 0.25: the mix and the copy, as without captions.
    expect(join.limits.deadlineSeconds).toBe(90);
    // Signed for reading: a stored words file downloads from it.
    vi.restoreAllMocks();
    await env.FILES.put(words(1), '{"backend":null,"parts":[]}');
    const url = new URL(join.join!.words![1]!);
    const res = await call(`${url.pathname}${url.search}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"backend":null,"parts":[]}');
  });

  it("is given no words without autoSubtitles", async () => {
    const offered = offers();
    const { jobId } = await splitJob({ captions: false });
    await env.DB.prepare("UPDATE job_chunks SET status = 'JOINED' WHERE job_id = ?").bind(jobId).run();
    expect(await dispatchJoin(recording().ctx, jobId, videoRequest)).toBe("done");
    expect(offered.at(-1)!.join).toEqual({ segments: expect.any(Array) });
  });

  it("completes the job with its caption files recorded and charged, and the segments and words files go", async () => {
    const { userId, key, jobId, segment, words } = await splitJob({ rendering: true, seconds: 4 });
    const { ctx, settled } = recording();
    for (const idx of [0, 1]) {
      await env.FILES.put(segment(idx), "segment");
      await env.FILES.put(words(idx), '{"backend":"pocketsphinx","parts":[]}');
      expect(await applyStatusReport(ctx, chunkReport(jobId, "completed", idx))).toBe(true);
    }
    const row = (await jobRow(jobId))!;
    const job = { id: jobId, userId, createdAt: Number(row.created_at) };
    for (const kind of ["transcript", "vtt", "srt"] as const)
      await env.FILES.put(keyOf(captionStorageUrl(job, kind)), kind === "vtt" ? "WEBVTT\n" : "x");
    const captions = { backend: "pocketsphinx", language: "en", words: 9, cues: 2, note: null };
    const joined = statusReport(jobId, "completed", {
      attempt: 1,
      resultUrl: await jobOutputUrl(jobId, 64),
      metadata: { processingTime: 1000, videoDuration: 4, outputWidth: 640, outputHeight: 360, captions },
    });
    expect(await applyStatusReport(ctx, joined as never)).toBe(true);
    await settled();
    const answer = await body<{ status: string; captions: { status: string; files: { kind: string }[] } }>(
      await get(`/api/v1/jobs/${jobId}`, key),
    );
    expect(answer.data).toMatchObject({ status: "COMPLETED", captions: { status: "done", ...captions } });
    expect(answer.data!.captions.files.map((f) => f.kind)).toEqual(["transcript", "vtt", "srt"]);
    // Charged as one render with captions: 300 reserved, the video's and the captions' tokens used (4 s).
    const used = (await jobRow(jobId))!.tokens_used as number;
    expect(used).toBeGreaterThan(0);
    expect(await auditedBalance(userId)).toBe(1000 - used);
    for (const idx of [0, 1]) {
      expect(await env.FILES.head(segment(idx))).toBeNull();
      expect(await env.FILES.head(words(idx))).toBeNull();
    }
  });
});

describe("creation of a captioned hour", () => {
  it("validates on a paid plan: it renders as chunks, each within the longest render", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 20_000 });
    const payload = {
      type: "video",
      config: {
        width: 1920,
        height: 1080,
        fps: 25,
        autoSubtitles: true,
        clips: [{ duration: 3600, layers: [{ type: "fill-color", color: "#123" }] }],
      },
    };
    const res = await call("/api/v1/jobs/validate", json("POST", payload, key));
    expect(res.status).toBe(200);
    expect((await body(res)).data).toMatchObject({ isValid: true });
  });
});
