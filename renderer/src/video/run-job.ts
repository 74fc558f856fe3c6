/**
 * One accepted video job, from the 202 to its final callback: a heartbeat renews the job's lease with the Worker
 * while it waits and while it renders (HEARTBEAT_INTERVAL_MS); the render runs under a wall-clock deadline (the
 * request's `limits.deadlineSeconds`) that kills ffmpeg (the run's signal) and, when the job is in its browser
 * stage, the renderer's Chromium processes, instead of only giving up waiting; the final callback says whether a
 * failure was the job's (permanent) or the infrastructure's (retryable). A cancelled job reports nothing: the
 * Worker already settled it.
 */
import { join } from "node:path";
import type { RenderVideoRequest, StatusReport } from "@media-render/contract/wire";
import { isAudioFormat } from "@media-render/contract/config/outputs";
import type { AppDeps } from "../deps.ts";
import { MemoryWatch } from "../lib/process-memory.ts";
import type { Identity } from "../lib/run-as.ts";
import { withTempDir } from "../lib/temp-dir.ts";
import type { ToolLease } from "../lib/tool-users.ts";
import { pocketsphinxTranscriber } from "../transcribe/pocketsphinx.ts";
import type { Transcriber } from "../transcribe/types.ts";
import { workersAiTranscriber } from "../transcribe/workers-ai.ts";
import { espeakSynthesizer } from "../speech/espeak.ts";
import type { Synthesizer } from "../speech/types.ts";
import { workersAiSynthesizer } from "../speech/workers-ai.ts";
import { uploadCaptionOutputs } from "./captions/upload-captions.ts";
import { fetchWordsFiles } from "./captions/words-file.ts";
import { uploadFile } from "./delivery.ts";
import { Reporter } from "./job-reporter.ts";
import { describeFailure } from "./render-failure.ts";
import type { AbortReason, QueuedJob } from "./render-queue.ts";
import { deliverFrames } from "./outputs/upload-frames.ts";
import { renderVideo } from "./render.ts";
import { sharedInputs } from "./chunk-inputs.ts";
import { chunkLogFields, fetchSegments, queueId } from "./chunks.ts";

/** How long an aborted render's work may take to wind down (processes reaped) before its report goes out. */
const REAP_WAIT_MS = 2000;

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());
/** Without limits in the request (an older Worker), the longest any render may run. */
const FALLBACK_DEADLINE_SECONDS = 3600;

/** The request's voice for speech layers (absent: the offline espeak-ng); its programs run as `user`. */
const synthesizerFor = (deps: AppDeps, job: RenderVideoRequest, user: Identity | null): Synthesizer => {
  const speech = job.speech;
  const { rendererSecret, ffmpegPath, espeakPath } = deps.config;
  if (speech?.backend === "workers-ai")
    return workersAiSynthesizer(speech.url, job.jobId, rendererSecret, ffmpegPath, user);
  return espeakSynthesizer(espeakPath, user);
};

/** The request's transcription backend (absent: the offline one, run as `user`). */
const transcriberFor = (deps: AppDeps, job: RenderVideoRequest, user: Identity | null): Transcriber => {
  const transcription = job.transcription;
  if (transcription?.backend === "workers-ai")
    return workersAiTranscriber(transcription.url, job.jobId, deps.config.rendererSecret);
  return pocketsphinxTranscriber(deps.config.pocketsphinxPath, user);
};

/** Resolves never; rejects when `signal` aborts. */
const aborted = (signal: AbortSignal): Promise<never> =>
  new Promise((_, reject) => {
    const fail = () => reject(new Error(`aborted: ${String(signal.reason)}`));
    if (signal.aborted) fail();
    else signal.addEventListener("abort", fail, { once: true });
  });

/** What one render holds while it runs: its job, its folder and output path, its user, signal and memory watch. */
interface RenderRun {
  deps: AppDeps;
  job: RenderVideoRequest;
  reporter: Reporter;
  dir: string;
  outPath: string;
  user: Identity | null;
  signal: AbortSignal;
  memory: MemoryWatch;
  started: number;
}

/** Renders the job into `outPath`, uploads it (and its captions and frames), and logs where the time went. */
const renderAndUpload = async ({
  deps,
  job,
  reporter,
  dir,
  outPath,
  user,
  signal,
  memory,
  started,
}: RenderRun) => {
  signal.throwIfAborted(); // cancelled or shut down while it waited: start nothing (no browser launch)
  const segments = job.join && (await fetchSegments(job.join.segments, dir, signal));
  const words = job.join?.words && (await fetchWordsFiles(job.join.words, dir, signal));
  const shared = job.chunk || job.join ? sharedInputs(deps.config.tmpDir, job.jobId, deps.toolUsers) : null;
  const rendered = await renderVideo({
    fetchInputs: shared?.fetch,
    jobId: job.jobId,
    config: job.config,
    timeline: job.timeline,
    inputs: job.inputs,
    fonts: job.fonts,
    format: job.output.format,
    workDir: dir,
    outPath,
    onProgress: (p, s) => reporter.progress(p, s),
    chunk: job.chunk,
    joinSegments: segments,
    joinWords: words,
    tools: deps.config,
    transcriber: job.config.autoSubtitles ? transcriberFor(deps, job, user) : undefined,
    synthesizer: synthesizerFor(deps, job, user),
    signal,
    onSpawn: (pid) => memory.add(pid),
    user,
  }).finally(() => shared?.release());
  reporter.progress(95, "uploading");
  const uploadStart = performance.now();
  await uploadCaptionOutputs(job, rendered, signal);
  const video = { path: outPath, format: job.output.format, ...rendered };
  await deliverFrames(job, video, { ffmpegPath: deps.config.ffmpegPath, workDir: dir, signal, user });
  const fileSize = await uploadFile(job.output.uploadUrl, outPath, job.output.format, signal);
  const uploadMs = Math.round(performance.now() - uploadStart);
  // One line per job, like the image path's "image rendered": where this render's time went.
  console.log(
    JSON.stringify({
      level: "info",
      msg: "video rendered",
      jobId: job.jobId,
      ...rendered.timings,
      uploadMs,
      jobMs: Date.now() - started,
      peakMemoryMb: Math.round(memory.peak / 2 ** 20),
      bytes: fileSize,
      frames: Math.round(rendered.duration * rendered.fps),
      size: `${rendered.width}x${rendered.height}`,
      ...chunkLogFields(job),
    }),
  );
  return { ...rendered, fileSize };
};

/** The final report of a render that completed. */
const completedReport = (
  job: RenderVideoRequest,
  reporter: Reporter,
  result: Awaited<ReturnType<typeof renderAndUpload>>,
  started: number,
): StatusReport => {
  const url = new URL(job.output.uploadUrl);
  return {
    ...reporter.base("completed"),
    resultUrl: `${url.origin}${url.pathname}`,
    metadata: {
      processingTime: Date.now() - started,
      fileSize: result.fileSize,
      videoDuration: result.duration,
      // An audio-only output has no picture to measure.
      ...(!isAudioFormat(job.output.format) && { outputWidth: result.width, outputHeight: result.height }),
      progress: 100,
      stage: "uploading",
      // A chunk's captions are only those its frames draw: the join reports the job's.
      ...(result.captions &&
        !job.chunk && {
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
};

/** The final report of a render that failed (not cancelled), logged as a defect or a failure when it is one. */
const failedReport = (
  job: RenderVideoRequest,
  reporter: Reporter,
  error: unknown,
  reason: AbortReason | undefined,
  limits: { deadlineSeconds: number; memoryMb: number },
  started: number,
): StatusReport => {
  const failure = describeFailure(error, reason, limits);
  if (failure.fault === "defect")
    console.error(
      JSON.stringify({
        level: "error",
        msg: "render defect",
        jobId: job.jobId,
        reference: failure.reference,
        error: String(error),
        stack: error instanceof Error ? error.stack : undefined,
        ...chunkLogFields(job),
      }),
    );
  else if (!failure.retryable || reason === undefined)
    console.error(`[renderer] job ${job.jobId} failed:`, error instanceof Error ? error.message : error);
  return {
    ...reporter.base("failed"),
    error: failure.error,
    retryable: failure.retryable,
    fault: failure.fault,
    metadata: { processingTime: Date.now() - started },
  };
};

const runVideoJob = async (
  deps: AppDeps,
  job: RenderVideoRequest,
  reporter: Reporter,
  queueSignal: AbortSignal,
): Promise<void> => {
  const started = Date.now();
  const deadlineSeconds = job.limits?.deadlineSeconds ?? FALLBACK_DEADLINE_SECONDS;
  const control = new AbortController();
  const stop = (reason: AbortReason) => {
    if (control.signal.aborted) return;
    // The render stops what it holds and nothing else (other jobs' pages share the renderer's browsers): its
    // ffmpeg runs are killed, an html page's begin-frame browser too (a page that never yields holds it; it is
    // launched again on next use), and its WebGL page's own browser is closed if a draw is under way.
    control.abort(reason);
  };
  const onQueueAbort = () => stop(queueSignal.reason as AbortReason);
  const onShutdown = () => stop("shutdown");
  if (queueSignal.aborted) onQueueAbort();
  queueSignal.addEventListener("abort", onQueueAbort, { once: true });
  deps.shutdownSignal.addEventListener("abort", onShutdown, { once: true });
  if (deps.shutdownSignal.aborted) onShutdown();
  const timer = setTimeout(() => stop("deadline"), deadlineSeconds * 1000);
  // The job's own processes (its ffmpeg runs and GL helpers) share RENDER_JOB_MEMORY_MB: past it the job is
  // stopped as its own fault, before the machine runs out and the system kills whatever it picks.
  const memoryMb = deps.config.renderJobMemoryMb;
  const memory = new MemoryWatch(memoryMb * 2 ** 20, () => stop("memory"));
  const signal = control.signal;
  let final: StatusReport | null;
  // Every program of the job but Chromium runs as the job's tool user, whose folder this is (lib/tool-users.ts).
  let lease: ToolLease | null = null;
  try {
    const held = await deps.toolUsers.lease(job.jobId);
    lease = held;
    const user = held.user;
    const result = await withTempDir(deps.config.tmpDir, "video-", async (dir) => {
      await held.own(dir);
      const outPath = join(dir, `out.${job.output.format}`);
      const work = renderAndUpload({ deps, job, reporter, dir, outPath, user, signal, memory, started });
      try {
        return await Promise.race([work, aborted(signal)]);
      } catch (error) {
        // Aborted: ffmpeg was sent SIGKILL; let it be reaped before the temp dir goes and the report is sent. A page
        // that never yields may hold `work` forever (its browser is being killed): wait a moment, not for it.
        await Promise.race([work.catch(() => {}), delay(REAP_WAIT_MS)]);
        throw error;
      }
    });
    final = completedReport(job, reporter, result, started);
  } catch (error) {
    const reason = signal.aborted ? (signal.reason as AbortReason) : undefined;
    final =
      reason === "cancelled"
        ? null
        : failedReport(job, reporter, error, reason, { deadlineSeconds, memoryMb }, started);
  } finally {
    // Whatever of the job still runs as its user (a helper past its reap wait) is killed here.
    await lease?.release();
    clearTimeout(timer);
    memory.stop();
    queueSignal.removeEventListener("abort", onQueueAbort);
    deps.shutdownSignal.removeEventListener("abort", onShutdown);
  }
  await reporter.final(final);
};

/** The queue entry of an accepted job; its heartbeat starts now, while it may still wait for a slot. */
export const videoJobTask = (deps: AppDeps, job: RenderVideoRequest): QueuedJob => {
  let reporter: Reporter | null = null;
  return {
    id: queueId(job.jobId, job.chunk?.index),
    attempt: job.attempt ?? 1,
    account: job.accountId ?? job.jobId,
    onAccepted() {
      reporter ??= new Reporter(deps, job);
    },
    run(signal) {
      reporter ??= new Reporter(deps, job);
      return runVideoJob(deps, job, reporter, signal);
    },
  };
};
