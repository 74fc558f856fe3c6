/**
 * autoSubtitles on the Worker side: paid plans only, the extra tokens in the estimate and the final charge,
 * the caption files recorded as job outputs and listed on the job, and the Workers AI transcription route.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "@media-render/contract/crypto";
import { signCallback, TRANSCRIBE_JOB_HEADER, transcribeSigningText } from "@media-render/contract/signing";
import { TRANSCRIBE_PATH } from "@media-render/contract/wire";
import worker from "../../src/index.ts";
import { openJob } from "../../src/jobs/lifecycle.ts";
import { captionStorageUrl } from "../../src/jobs/output.ts";
import { whisperWords } from "../../src/renderer/transcribe.ts";
import { newId } from "../../src/lib/ids.ts";
import type { Env } from "../../src/env.ts";
import { BASE, body, call, newAccount, testCtx } from "./helpers.ts";
import {
  auditedBalance,
  createJobCall,
  get,
  jobOutputUrl,
  jobRow,
  openPending,
  postStatusReport,
  statusReport,
} from "./jobs-seed.ts";

const captioned = {
  width: 64,
  height: 36,
  clips: [{ duration: 4.2, layers: [{ type: "fill-color", color: "#000000" }] }],
  autoSubtitles: true,
};

/** A PENDING video job asking for captions, opened through the lifecycle with `reserve` held. */
const openCaptionedJob = async (userId: string, reserve: number) => {
  const id = newId("job");
  await openJob(testCtx(), {
    id,
    userId,
    type: "VIDEO",
    config: captioned,
    normalizedConfig: captioned,
    plan: null,
    inputFileIds: [],
    outputFormat: "mp4",
    reserve,
    priority: 5,
    createdAt: Date.now(),
  });
  return id;
};

/** Stores the three caption files at the job's caption paths, as the renderer's uploads would. */
const storeCaptionFiles = async (jobId: string) => {
  const row = (await jobRow(jobId))!;
  const job = { id: jobId, userId: String(row.user_id), createdAt: Number(row.created_at) };
  await env.FILES.put(
    captionStorageUrl(job, "vtt").slice(1),
    "WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\nhello\n",
  );
  await env.FILES.put(captionStorageUrl(job, "srt").slice(1), "1\n00:00:01,000 --> 00:00:02,000\nhello\n");
  await env.FILES.put(captionStorageUrl(job, "transcript").slice(1), '{"words":[]}');
};

describe("autoSubtitles: plans and cost", () => {
  it("refuses a free-plan job with 402 PLAN_REQUIRED naming the field and the paid plans; nothing is reserved", async () => {
    const { key, userId } = await newAccount({ planId: "free", tokens: 500 });
    const before = await auditedBalance(userId);
    const res = await createJobCall(key, { type: "video", config: captioned });
    expect(res.status).toBe(402);
    const b = await body(res);
    expect(b.error).toBe("autoSubtitles is available on paid plans (Pro or Business); your plan is Free");
    expect(b.details?.errors).toEqual([
      {
        field: "config.autoSubtitles",
        message:
          "autoSubtitles needs a paid plan (Pro or Business); your plan is Free: upgrade at POST /api/v1/billing/plan or remove it",
        code: "PLAN_REQUIRED",
      },
    ]);
    expect(b.details).toMatchObject({ plan: "Free", plans: ["pro", "business"] });
    expect(await auditedBalance(userId)).toBe(before);
  });

  it("accepts it on a paid plan and reserves 10 + 2/s + 5 + 1/s", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 500 });
    const res = await createJobCall(key, { type: "video", config: captioned });
    const b = await body<{ estimatedTokens: number }>(res);
    expect(res.status, JSON.stringify(b)).toBe(201);
    // 4.2 s: 5 started seconds -> 10 + 10 + 5 + 5
    expect(b.data!.estimatedTokens).toBe(30);
  });

  it("validation states the same estimate", async () => {
    const { key } = await newAccount({ planId: "pro" });
    const res = await call("/api/v1/jobs/validate", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ type: "video", config: captioned }),
    });
    expect(await body(res)).toMatchObject({ data: { isValid: true, estimatedTokens: 30 } });
  });
});

describe("autoSubtitles: outputs on completion", () => {
  it("records the transcript, WebVTT and SRT files, lists them on the job with the backend, and charges captions", async () => {
    const { key, userId } = await newAccount({ planId: "pro", tokens: 500 });
    const jobId = await openCaptionedJob(userId, 30);
    await storeCaptionFiles(jobId);
    const captions = { backend: "pocketsphinx", language: "en", words: 12, cues: 2, note: null };
    const res = await postStatusReport(
      statusReport(jobId, "completed", {
        resultUrl: await jobOutputUrl(jobId, 2000),
        metadata: { videoDuration: 4.2, captions },
      }),
    );
    expect(res.status).toBe(200);
    expect((await jobRow(jobId))!.tokens_used).toBe(30);
    const job = await body<{
      status: string;
      captions: Record<string, unknown> & {
        files: { kind: string; downloadUrl: string; mimeType: string }[];
      };
    }>(await get(`/api/v1/jobs/${jobId}`, key));
    expect(job.data!.status).toBe("COMPLETED");
    expect(job.data!.captions).toMatchObject({ status: "done", ...captions });
    expect(job.data!.captions.files.map((f) => [f.kind, f.mimeType])).toEqual([
      ["transcript", "application/json"],
      ["vtt", "text/vtt"],
      ["srt", "application/x-subrip"],
    ]);
    const vtt = await get(job.data!.captions.files[1]!.downloadUrl, key);
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get("content-type")).toContain("text/vtt");
    expect(await vtt.text()).toMatch(/^WEBVTT\n/);
    expect(await auditedBalance(userId)).toBe(500 - 30);
  });

  it("does not charge captions when the video had no audio to transcribe, and says why", async () => {
    const { key, userId } = await newAccount({ planId: "pro", tokens: 500 });
    const jobId = await openCaptionedJob(userId, 30);
    await storeCaptionFiles(jobId);
    const note = "the video has no audio, so there is nothing to caption";
    await postStatusReport(
      statusReport(jobId, "completed", {
        resultUrl: await jobOutputUrl(jobId, 2000),
        metadata: {
          videoDuration: 4.2,
          captions: { backend: null, language: null, words: 0, cues: 0, note },
        },
      }),
    );
    expect((await jobRow(jobId))!.tokens_used).toBe(20);
    const job = await body<{ captions: { note: string; backend: null } }>(
      await get(`/api/v1/jobs/${jobId}`, key),
    );
    expect(job.data!.captions).toMatchObject({ backend: null, note });
  });

  it("a failed transcription fails the job with its message and charges nothing", async () => {
    const { userId } = await newAccount({ planId: "pro", tokens: 500 });
    const jobId = await openCaptionedJob(userId, 30);
    const error = "transcription failed: the offline speech recogniser did not run (not installed)";
    await postStatusReport(statusReport(jobId, "failed", { error }));
    const row = (await jobRow(jobId))!;
    expect(row).toMatchObject({ status: "FAILED", error_message: error, tokens_used: 0 });
    expect(await auditedBalance(userId)).toBe(500);
  });

  it("a completion after the job was cancelled deletes the caption files with the video", async () => {
    const { key, userId } = await newAccount({ planId: "pro", tokens: 500 });
    const jobId = await openCaptionedJob(userId, 30);
    expect(
      (await call(`/api/v1/jobs/${jobId}`, { method: "DELETE", headers: { "x-api-key": key } })).status,
    ).toBe(200);
    await storeCaptionFiles(jobId);
    const resultUrl = await jobOutputUrl(jobId, 2000);
    await postStatusReport(
      statusReport(jobId, "completed", {
        resultUrl,
        metadata: {
          videoDuration: 4.2,
          captions: { backend: "pocketsphinx", language: "en", words: 1, cues: 1, note: null },
        },
      }),
    );
    const row = (await jobRow(jobId))!;
    const job = { id: jobId, userId: String(row.user_id), createdAt: Number(row.created_at) };
    for (const kind of ["vtt", "srt", "transcript"] as const)
      expect(await env.FILES.head(captionStorageUrl(job, kind).slice(1)), kind).toBeNull();
    expect(row.status).toBe("CANCELLED");
  });

  it("shows captions pending on an open job, and nothing on jobs without autoSubtitles", async () => {
    const { key, userId } = await newAccount({ planId: "pro", tokens: 500 });
    const jobId = await openCaptionedJob(userId, 30);
    const job = await body<{ captions: unknown }>(await get(`/api/v1/jobs/${jobId}`, key));
    expect(job.data!.captions).toEqual({ status: "pending", files: [] });
    const plain = await openPending(userId, 12, "VIDEO");
    const other = await body<Record<string, unknown>>(await get(`/api/v1/jobs/${plain}`, key));
    expect(other.data).not.toHaveProperty("captions");
  });
});

describe("autoSubtitles: the Workers AI transcription route", () => {
  const audio = new Uint8Array([82, 73, 70, 70, 1, 2, 3, 4]);
  const signedRequest = async (jobId: string, secret = env.RENDERER_SECRET) => {
    const headers = await signCallback(secret, transcribeSigningText(jobId, await sha256Hex(audio)));
    return new Request(`${BASE}${TRANSCRIBE_PATH}?language=en`, {
      method: "POST",
      headers: { ...headers, "content-type": "audio/wav", [TRANSCRIBE_JOB_HEADER]: jobId },
      body: audio,
    });
  };
  const fetchWith = (request: Request, bindings: Partial<Env> = {}) =>
    worker.fetch!(
      request as Request<unknown, IncomingRequestCfProperties>,
      { ...(env as unknown as Env), ...bindings },
      createExecutionContext(),
    );

  it("refuses a request not signed with the renderer secret", async () => {
    const { userId } = await newAccount({ planId: "pro", tokens: 500 });
    const jobId = await openCaptionedJob(userId, 30);
    expect((await fetchWith(await signedRequest(jobId, "wrong"))).status).toBe(401);
  });

  it("answers 502 with the reason when no AI binding is configured", async () => {
    const { userId } = await newAccount({ planId: "pro", tokens: 500 });
    const jobId = await openCaptionedJob(userId, 30);
    const res = await fetchWith(await signedRequest(jobId));
    expect(res.status).toBe(502);
    expect(await body(res)).toMatchObject({ error: "Workers AI is not configured here (no AI binding)" });
  });

  it("runs Whisper on the audio with the language hint and answers its words", async () => {
    const { userId } = await newAccount({ planId: "pro", tokens: 500 });
    const jobId = await openCaptionedJob(userId, 30);
    const calls: { model: string; input: { audio: string; language?: string } }[] = [];
    const AI = {
      run: async (model: string, input: { audio: string; language?: string }) => {
        calls.push({ model, input });
        return {
          text: "Hallo Welt",
          transcription_info: { language: "de" },
          segments: [
            {
              words: [
                { word: " Hallo", start: 0.5, end: 0.9 },
                { word: "Welt", start: 1, end: 1.4 },
              ],
            },
          ],
        };
      },
    } as unknown as Ai;
    const res = await fetchWith(await signedRequest(jobId), { AI });
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({
      success: true,
      data: {
        language: "de",
        words: [
          { text: "Hallo", start: 0.5, end: 0.9 },
          { text: "Welt", start: 1, end: 1.4 },
        ],
      },
    });
    expect(calls[0]!.model).toBe("@cf/openai/whisper-large-v3-turbo");
    expect(calls[0]!.input).toEqual({ audio: btoa(String.fromCharCode(...audio)), language: "en" });
  });

  it("flattens Whisper segments and skips words without times", () => {
    expect(
      whisperWords({ segments: [{ words: [{ word: "a", start: 0, end: 1 }, { word: "b" }] }, {}] }),
    ).toEqual({ language: null, words: [{ text: "a", start: 0, end: 1 }] });
  });
});
