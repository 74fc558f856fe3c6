/**
 * Outputs on the Worker side (config reference, "Outputs"): formats and their prices, posters and thumbnails
 * refused where they cannot be made, priced per output, recorded on completion as the account's own expiring
 * files, listed on the job, and deleted with a render that finished after its job was cancelled.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { frameStorageUrl } from "../../src/jobs/frame-outputs.ts";
import { openJob } from "../../src/jobs/lifecycle.ts";
import { newId } from "../../src/lib/ids.ts";
import { body, call, newAccount, testCtx } from "./helpers.ts";
import {
  auditedBalance,
  createJobCall,
  get,
  jobOutputUrl,
  jobRow,
  postStatusReport,
  statusReport,
} from "./jobs-seed.ts";

const clips = [{ duration: 4, layers: [{ type: "fill-color", color: "#000000" }] }];
const framed = {
  width: 64,
  height: 36,
  clips,
  poster: { time: 1.5 },
  thumbnails: { count: 4, sprite: true },
};

const validate = async (key: string, config: Record<string, unknown>) =>
  body<{ isValid: boolean; estimatedTokens: number; errors: { field: string; message: string }[] }>(
    await call("/api/v1/jobs/validate", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ type: "video", config }),
    }),
  );

const openFramedJob = async (userId: string, reserve: number, config: Record<string, unknown> = framed) => {
  const id = newId("job");
  await openJob(testCtx(), {
    id,
    userId,
    type: "VIDEO",
    config,
    normalizedConfig: config,
    plan: null,
    inputFileIds: [],
    outputFormat: "mp4",
    reserve,
    priority: 5,
    createdAt: Date.now(),
  });
  return id;
};

const SUFFIXES = [
  ".poster.png",
  ".thumb-001.jpg",
  ".thumb-002.jpg",
  ".thumb-003.jpg",
  ".thumb-004.jpg",
  ".thumbnails.jpg",
  ".thumbnails.vtt",
];

/** Stores the files the renderer would upload for `framed`. */
const storeFrames = async (jobId: string) => {
  const row = (await jobRow(jobId))!;
  const job = { id: jobId, userId: String(row.user_id), createdAt: Number(row.created_at) };
  for (const suffix of SUFFIXES)
    await env.FILES.put(
      frameStorageUrl(job, suffix).slice(1),
      suffix.endsWith(".vtt") ? "WEBVTT\n" : new Uint8Array(50),
    );
  return job;
};

describe("output formats and their prices", () => {
  it("creates a GIF job (priced like a video) and an mp3 job (3 + 1 per second), named by outPath", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 500 });
    const gif = await createJobCall(key, { type: "video", config: { outPath: "./a.gif", clips } });
    const g = await body<{ job: { outputFormat: string }; estimatedTokens: number }>(gif);
    expect(gif.status, JSON.stringify(g)).toBe(201);
    expect(g.data).toMatchObject({ estimatedTokens: 10 + 8 });
    const mp3 = await body<{ estimatedTokens: number }>(
      await createJobCall(key, { type: "video", config: { format: "mp3", clips } }),
    );
    expect(mp3.data).toMatchObject({ estimatedTokens: 3 + 4 });
  });

  it("refuses alpha on mp4, and a poster or thumbnails of an audio-only output, naming the fields", async () => {
    const { key } = await newAccount({ planId: "pro" });
    const r = await validate(key, {
      alpha: true,
      format: "wav",
      poster: { time: 1 },
      thumbnails: { count: 2 },
      clips,
    });
    expect(r.data!.isValid).toBe(false);
    expect(r.data!.errors.map((e) => [e.field, e.message])).toEqual([
      ["config.alpha", 'alpha needs format "mov" (ProRes 4444) or "webm"; the format is wav'],
      ["config.poster", "a wav output has no picture to take a poster from"],
      ["config.thumbnails", "a wav output has no picture to take thumbnails from"],
    ]);
  });

  it("refuses a poster at or after the end, thumbnails with both count and interval, or too many", async () => {
    const { key } = await newAccount({ planId: "pro" });
    const bad = async (config: Record<string, unknown>) =>
      (await validate(key, { clips, ...config })).data!.errors.map((e) => [e.field, e.message]);
    expect(await bad({ poster: { time: 4 } })).toEqual([
      ["config.poster.time", "must be before the end of the video (4 s)"],
    ]);
    expect(await bad({ thumbnails: { count: 2, interval: 1 } })).toEqual([
      ["config.thumbnails", "set either count or interval"],
    ]);
    expect(await bad({ thumbnails: { interval: 0.02 } })).toEqual([
      ["config.thumbnails.interval", "must be at least 0.04"],
    ]);
    expect(await bad({ thumbnails: { interval: 0.04 } })).toEqual([]);
    const five = [{ duration: 5, layers: clips[0]!.layers }];
    expect(await bad({ clips: five, thumbnails: { interval: 0.04 } })).toEqual([
      ["config.thumbnails.interval", "one frame every 0.04 s of a 5 s video is more than 100 frames"],
    ]);
  });

  it("refuses a sprite sheet larger than 4096x4096 at creation, naming the field, and reserves nothing", async () => {
    const { key, userId } = await newAccount({ planId: "pro", tokens: 500 });
    const config = {
      width: 1280,
      height: 4096,
      clips,
      thumbnails: { count: 100, width: 1280, sprite: true },
    };
    const res = await createJobCall(key, { type: "video", config });
    expect(res.status).toBe(400);
    const answer = await body(res);
    expect(answer).toMatchObject({
      success: false,
      details: {
        errors: [
          {
            field: "config.thumbnails.sprite",
            message: expect.stringContaining("would be 12800x40960 px (524.3 million pixels)"),
          },
        ],
      },
    });
    expect(await auditedBalance(userId)).toBe(500);
  });

  it("prices a poster 1, thumbnails 1 per started 10 and the sprite 1", async () => {
    const { key } = await newAccount({ planId: "pro" });
    expect((await validate(key, framed)).data!.estimatedTokens).toBe(10 + 8 + 1 + 1 + 1);
    const many = { clips, thumbnails: { interval: 0.25 } };
    expect((await validate(key, many)).data!.estimatedTokens).toBe(10 + 8 + 2);
  });
});

describe("posters and thumbnails on completion", () => {
  it("records each file as the account's output, expiring with the video, and lists them on the job", async () => {
    const { key, userId } = await newAccount({ planId: "pro", tokens: 500 });
    const jobId = await openFramedJob(userId, 21);
    await storeFrames(jobId);
    const res = await postStatusReport(
      statusReport(jobId, "completed", {
        resultUrl: await jobOutputUrl(jobId, 2000),
        metadata: { videoDuration: 4 },
      }),
    );
    expect(res.status).toBe(200);
    expect((await jobRow(jobId))!.tokens_used).toBe(21);
    expect(await auditedBalance(userId)).toBe(500 - 21);
    type File = { kind: string; time: number | null; mimeType: string; fileId: string; downloadUrl: string };
    const job = await body<{
      status: string;
      outputFileId: string;
      frames: { status: string; files: File[] };
    }>(await get(`/api/v1/jobs/${jobId}`, key));
    expect(job.data!.frames.status).toBe("done");
    expect(job.data!.frames.files.map((f) => [f.kind, f.time, f.mimeType])).toEqual([
      ["poster", 1.5, "image/png"],
      ["thumbnail", 0, "image/jpeg"],
      ["thumbnail", 1, "image/jpeg"],
      ["thumbnail", 2, "image/jpeg"],
      ["thumbnail", 3, "image/jpeg"],
      ["sprite", null, "image/jpeg"],
      ["sprite-vtt", null, "text/vtt"],
    ]);
    const poster = await get(job.data!.frames.files[0]!.downloadUrl, key);
    expect(poster.status).toBe(200);
    expect(poster.headers.get("content-type")).toBe("image/png");
    const rows = await env.DB.prepare(
      "SELECT user_id, source, job_id, expires_at FROM media_files WHERE job_id = ?",
    )
      .bind(jobId)
      .all<{ user_id: string; source: string; job_id: string; expires_at: number }>();
    expect(rows.results).toHaveLength(1 + SUFFIXES.length);
    expect(new Set(rows.results.map((r) => `${r.user_id}/${r.source}`))).toEqual(
      new Set([`${userId}/output`]),
    );
    // Each file expires with the video (the rows are written moments apart).
    const expiries = rows.results.map((r) => r.expires_at);
    expect(Math.min(...expiries)).toBeGreaterThan(Date.now());
    expect(Math.max(...expiries) - Math.min(...expiries)).toBeLessThan(5000);
  });

  it("hides another account's frames (404) and shows pending ones on an open job", async () => {
    const { key, userId } = await newAccount({ planId: "pro", tokens: 500 });
    const other = await newAccount({ planId: "pro" });
    const jobId = await openFramedJob(userId, 21);
    expect((await body<{ frames: unknown }>(await get(`/api/v1/jobs/${jobId}`, key))).data!.frames).toEqual({
      status: "pending",
      files: [],
    });
    await storeFrames(jobId);
    await postStatusReport(
      statusReport(jobId, "completed", {
        resultUrl: await jobOutputUrl(jobId, 2000),
        metadata: { videoDuration: 4 },
      }),
    );
    const job = await body<{ frames: { files: { downloadUrl: string }[] } }>(
      await get(`/api/v1/jobs/${jobId}`, key),
    );
    expect((await get(`/api/v1/jobs/${jobId}`, other.key)).status).toBe(404);
    expect((await get(job.data!.frames.files[0]!.downloadUrl, other.key)).status).toBe(404);
  });

  it("deletes the frame files of a render that completed after its job was cancelled", async () => {
    const { key, userId } = await newAccount({ planId: "pro", tokens: 500 });
    const jobId = await openFramedJob(userId, 21);
    expect(
      (await call(`/api/v1/jobs/${jobId}`, { method: "DELETE", headers: { "x-api-key": key } })).status,
    ).toBe(200);
    const job = await storeFrames(jobId);
    await postStatusReport(
      statusReport(jobId, "completed", {
        resultUrl: await jobOutputUrl(jobId, 2000),
        metadata: { videoDuration: 4 },
      }),
    );
    for (const suffix of SUFFIXES)
      expect(await env.FILES.head(frameStorageUrl(job, suffix).slice(1)), suffix).toBeNull();
  });
});
