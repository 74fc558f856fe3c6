/**
 * POST /render/video (renderer contract): validate, answer 202 at once, render in the background
 * (at most one render per CPU pair, FIFO), PUT the file to the signed upload URL and report
 * progress/completion to the signed callback.
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppDeps } from "../app.ts";
import { BadRequest } from "../lib/errors.ts";
import { withTempDir } from "../lib/temp-dir.ts";
import { sendCallback, uploadFile, type StatusPayload } from "../video/delivery.ts";
import { JobQueue } from "../video/job-queue.ts";
import { renderVideo } from "../video/render.ts";

const HttpUrl = v.pipe(v.string(), v.url(), v.regex(/^https?:\/\//i, "must be an http(s) URL"));

/** The request body; `config` is checked defensively by the engine itself. */
export const RenderVideoBody = v.object({
  jobId: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  config: v.record(v.string(), v.unknown()),
  output: v.object({ uploadUrl: HttpUrl, format: v.picklist(["mp4", "mov", "webm"]) }),
  callbackUrl: HttpUrl,
});
export type RenderVideoBody = v.InferOutput<typeof RenderVideoBody>;

const PROGRESS_INTERVAL_MS = 1000;

/** Runs one accepted job to its final callback; never throws. */
export async function runVideoJob(deps: AppDeps, job: RenderVideoBody): Promise<void> {
  const secret = deps.config.runnerSecret;
  const started = Date.now();
  const base = (status: StatusPayload["status"]): StatusPayload => ({
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
  let final: StatusPayload;
  try {
    const result = await withTempDir(deps.config.tmpDir, "video-", async (dir) => {
      const outPath = join(dir, `out.${job.output.format}`);
      const r = await renderVideo({
        jobId: job.jobId,
        config: job.config,
        format: job.output.format,
        workDir: dir,
        outPath,
        onProgress: progress,
        signal: deps.shutdownSignal,
      });
      progress(95, "uploading");
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
  return new Hono().post("/render/video", async (c) => {
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      throw new BadRequest("Body must be JSON");
    }
    const parsed = v.safeParse(RenderVideoBody, raw);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const path = issue?.path?.map((p) => String(p.key)).join(".") ?? "body";
      throw new BadRequest(`${path}: ${issue?.message ?? "invalid"}`);
    }
    queue.push(() => runVideoJob(deps, parsed.output));
    return c.json({ accepted: true }, 202);
  });
};
