/**
 * POST /render/video (renderer contract): validate the request with the contract's `RenderVideoRequest`
 * (the config with the same grammar the Worker used, and a signed URL for every file the job draws),
 * answer 202 at once, render in the background (at most one render per CPU pair, FIFO), PUT the file to
 * the signed upload URL and report progress/completion to the signed callback.
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import * as v from "valibot";
import { toFieldErrors } from "../../../src/contract/field-errors.ts";
import {
  RENDERER_PATHS,
  RenderVideoRequest,
  type RenderAccepted,
  type RunnerStatus,
} from "../../../src/contract/wire.ts";
import type { AppDeps } from "../deps.ts";
import { BadRequest } from "../lib/errors.ts";
import { withTempDir } from "../lib/temp-dir.ts";
import { pocketsphinxTranscriber } from "../transcribe/pocketsphinx.ts";
import type { Transcriber } from "../transcribe/types.ts";
import { workersAiTranscriber } from "../transcribe/workers-ai.ts";
import { toSrt, toTranscriptJson, toWebVtt } from "../video/captions/caption-files.ts";
import type { Captions } from "../video/captions/captions.ts";
import { sendCallback, uploadFile, uploadText } from "../video/delivery.ts";
import { videoSpec } from "../video/config.ts";
import { missingInput } from "../video/fetch-inputs.ts";
import { JobQueue } from "../video/job-queue.ts";
import { renderVideo } from "../video/render.ts";

const PROGRESS_INTERVAL_MS = 1000;

/** The request's transcription backend (absent: the offline one). */
function transcriberFor(deps: AppDeps, job: RenderVideoRequest): Transcriber {
  const t = job.transcription;
  if (t?.backend === "workers-ai") return workersAiTranscriber(t.url, job.jobId, deps.config.runnerSecret);
  return pocketsphinxTranscriber(deps.config.pocketsphinxPath);
}

/** Stores the transcript, WebVTT and SRT files at the request's caption URLs. */
async function uploadCaptions(
  job: RenderVideoRequest,
  captions: Captions,
  signal?: AbortSignal,
): Promise<void> {
  const urls = job.output.captions;
  if (!urls) return;
  await Promise.all([
    uploadText(urls.transcript, toTranscriptJson(captions), "json", signal),
    uploadText(urls.vtt, toWebVtt(captions), "vtt", signal),
    uploadText(urls.srt, toSrt(captions), "srt", signal),
  ]);
}

/** Runs one accepted job to its final callback; never throws. */
export async function runVideoJob(deps: AppDeps, job: RenderVideoRequest): Promise<void> {
  const secret = deps.config.runnerSecret;
  const started = Date.now();
  const base = (status: RunnerStatus["status"]): RunnerStatus => ({
    jobId: job.jobId,
    status,
    type: "video",
    timestamp: new Date().toISOString(),
  });
  let lastSent = 0;
  let inFlight: Promise<unknown> = Promise.resolve();
  const progress = (percent: number, stage: string) => {
    const now = Date.now();
    if (now - lastSent < PROGRESS_INTERVAL_MS) return;
    lastSent = now;
    inFlight = sendCallback(
      job.callbackUrl,
      secret,
      { ...base("processing"), metadata: { progress: percent, stage } },
      0,
    );
  };
  let final: RunnerStatus;
  try {
    const result = await withTempDir(deps.config.tmpDir, "video-", async (dir) => {
      const outPath = join(dir, `out.${job.output.format}`);
      const r = await renderVideo({
        jobId: job.jobId,
        config: job.config,
        inputs: job.inputs,
        format: job.output.format,
        workDir: dir,
        outPath,
        onProgress: progress,
        tools: deps.config,
        transcriber: job.config.autoSubtitles ? transcriberFor(deps, job) : undefined,
        signal: deps.shutdownSignal,
      });
      progress(95, "uploading");
      if (r.captions) await uploadCaptions(job, r.captions, deps.shutdownSignal);
      const fileSize = await uploadFile(
        job.output.uploadUrl,
        outPath,
        job.output.format,
        deps.shutdownSignal,
      );
      return { ...r, fileSize };
    });
    const url = new URL(job.output.uploadUrl);
    final = {
      ...base("completed"),
      resultUrl: `${url.origin}${url.pathname}`,
      metadata: {
        processingTime: Date.now() - started,
        fileSize: result.fileSize,
        videoDuration: result.duration,
        outputWidth: result.width,
        outputHeight: result.height,
        progress: 100,
        stage: "uploading",
        ...(result.captions && {
          captions: {
            backend: result.captions.backend,
            language: result.captions.language,
            words: result.captions.words.length,
            cues: result.captions.cues.length,
            note: result.captions.note,
          },
        }),
      },
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    final = {
      ...base("failed"),
      error: message.slice(0, 1000),
      metadata: { processingTime: Date.now() - started },
    };
  }
  await inFlight.catch(() => {});
  await sendCallback(job.callbackUrl, secret, final, 4);
}

/** Route factory: one queue per app, sized to the machine's CPU pairs. */
export const renderVideoRoutes = (deps: AppDeps): Hono => {
  const queue = new JobQueue(Math.floor(availableParallelism() / 2));
  return new Hono().post(RENDERER_PATHS.renderVideo, async (c) => {
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      throw new BadRequest("Body must be JSON");
    }
    const parsed = v.safeParse(RenderVideoRequest, raw);
    if (!parsed.success) {
      const [first] = toFieldErrors(parsed.issues);
      throw new BadRequest(`${first?.field ?? "body"}: ${first?.message ?? "invalid"}`);
    }
    // Every file the job draws needs its signed URL: refuse now rather than fail after the 202.
    const missing = missingInput(videoSpec(parsed.output.config), parsed.output.inputs);
    if (missing !== null) throw new BadRequest(`inputs: no signed URL for the file reference "${missing}"`);
    queue.push(() => runVideoJob(deps, parsed.output));
    const accepted: v.InferOutput<typeof RenderAccepted> = { accepted: true };
    return c.json(accepted, 202);
  });
};
