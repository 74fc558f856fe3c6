/**
 * Hands a video job to the renderer: the config as submitted, plus `inputs`, every file reference of it
 * (storage path, or public URL imported at creation) mapped to a short-lived signed GET URL, and the output's
 * signed PUT URL at the job's output path (packages/contract/src/wire.ts RenderVideoRequest), with the account (the
 * renderer's fairness) and the hand-over number (its reports echo it; older ones are ignored). The renderer then
 * reports through the signed renderer callback, and a `watch` message checks that it keeps doing so (watch-lease.ts).
 */
import { inArray } from "drizzle-orm";
import type { Ctx } from "../context.ts";
import type { VideoConfig } from "@media-render/contract/config";
import type { RenderFormat } from "@media-render/contract/config/outputs";
import {
  CALLBACK_PATH,
  SPEAK_PATH,
  TRANSCRIBE_PATH,
  type RenderVideoRequestInput,
} from "@media-render/contract/wire";
import { mediaFiles } from "../db/schema.ts";
import { hostedFontSource } from "../fonts/hosted-source.ts";
import { catalogueOnline } from "../fonts/online.ts";
import type { FontSource } from "../fonts/source.ts";
import { hostedVideoFonts } from "../fonts/video-fonts.ts";
import { referenceTargets } from "../jobs/input-map.ts";
import { getJobById } from "../jobs/lookup.ts";
import { finishJob, markProcessing } from "../jobs/lifecycle.ts";
import { captionStorageUrl, outputStorageUrl } from "../jobs/output.ts";
import { frameFiles, frameStorageUrl } from "../jobs/frame-outputs.ts";
import { storedVideoConfig, storedVideoPlan } from "../jobs/stored-config.ts";
import { dispatchChunks, splitInto, type BuildRequest } from "./dispatch-chunks.ts";
import { keyOf } from "../storage/paths.ts";
import { LEASE_CHECK_SECONDS } from "./watch-lease.ts";
import { signedStorageUrl } from "../storage/signed-url.ts";

/** Signed input/output URLs outlive the longest render (an hour: deadline.ts) with margin; each offer signs afresh. */
const URL_TTL_SECONDS = 3 * 3600;

/** Whether a config says anything: a speech layer in a clip or a speech entry of audioTracks. */
const hasSpeech = (config: VideoConfig): boolean =>
  config.clips.some((c) => c.layers.some((l) => l.type === "speech")) ||
  (config.audioTracks ?? []).some((t) => "text" in t);

/**
 * The render request of a job (without `attempt`), and its planned timeline; null when its earlier renders used up
 * its deadline (the job is failed here). Chunks and joins of a split job are this request with `chunk` or `join`.
 * Fonts of the hosted catalogue come from `hosted` (default: the catalogue through R2's font cache when
 * FONT_CATALOGUE_ONLINE is on; tests pass a stand-in).
 */
export const videoRequest: BuildRequest = (ctx, job) =>
  buildVideoRequest(ctx, job, catalogueOnline(ctx.env) ? hostedFontSource({ bucket: ctx.env.FILES }) : null);

export const buildVideoRequest = async (
  ctx: Ctx,
  job: Parameters<BuildRequest>[1],
  hosted: FontSource | null,
): ReturnType<BuildRequest> => {
  const { env } = ctx;
  const files = job.inputFileIds.length
    ? await ctx.db.query.mediaFiles.findMany({ where: inArray(mediaFiles.id, job.inputFileIds) })
    : [];
  const config = storedVideoConfig(job);
  const byReference = referenceTargets(files);
  // The length validated and charged at creation, and the deadline it earns: the plan stored then.
  const planned = await storedVideoPlan(ctx, job, config);
  // A job handed over again (an infrastructure fault lost its render) gets what its earlier renders left of that
  // deadline: together they never run longer than the one deadline its length and size earn.
  const deadlineSeconds = planned.deadlineSeconds - Math.ceil(job.renderMs / 1000);
  if (deadlineSeconds < 1) {
    const error = `Rendering used up its deadline of ${planned.deadlineSeconds} s over ${job.attempts} attempts; no tokens were charged`;
    await finishJob(ctx, job, { status: "FAILED", error });
    return null;
  }
  const sign = { secret: env.STORAGE_SIGNING_SECRET, baseUrl: env.PUBLIC_URL };
  const inputs: Record<string, string> = {};
  for (const [reference, f] of byReference)
    inputs[reference] = await signedStorageUrl({ ...sign, method: "GET" }, f.storageKey, URL_TTL_SECONDS);
  // Hosted catalogue fonts: each file by its R2 key (a reference no config can write: those are storage paths
  // starting with "/" or URLs), downloaded by the renderer like the job's own files.
  const fonts = await hostedVideoFonts(config, hosted);
  for (const font of Object.values(fonts ?? {}))
    for (const { ref } of font.faces)
      inputs[ref] ??= await signedStorageUrl({ ...sign, method: "GET" }, ref, URL_TTL_SECONDS);
  const putUrl = (storageUrl: string) =>
    signedStorageUrl({ ...sign, method: "PUT" }, keyOf(storageUrl), URL_TTL_SECONDS);
  const base = env.PUBLIC_URL.replace(/\/+$/, "");
  const captions = config.autoSubtitles
    ? {
        transcript: await putUrl(captionStorageUrl(job, "transcript")),
        vtt: await putUrl(captionStorageUrl(job, "vtt")),
        srt: await putUrl(captionStorageUrl(job, "srt")),
      }
    : undefined;
  // Posters and thumbnails: one signed URL per file, the thumbnails counted on the planned length.
  const frames = frameFiles(config, planned.seconds);
  const frameUrl = async (kind: string) => {
    const file = frames.find((f) => f.kind === kind);
    return file && (await putUrl(frameStorageUrl(job, file.suffix)));
  };
  const thumbnailUrls = await Promise.all(
    frames.filter((f) => f.kind === "thumbnail").map((f) => putUrl(frameStorageUrl(job, f.suffix))),
  );
  const poster = await frameUrl("poster");
  const thumbnails = config.thumbnails && {
    frames: thumbnailUrls,
    sprite: await frameUrl("sprite"),
    vtt: await frameUrl("sprite-vtt"),
  };
  // Workers AI when the deployment says so and has the binding; otherwise the renderer's offline recogniser.
  const transcription =
    env.TRANSCRIPTION_BACKEND === "workers-ai" && env.AI
      ? { backend: "workers-ai" as const, url: `${base}${TRANSCRIBE_PATH}` }
      : { backend: "pocketsphinx" as const };
  const request: RenderVideoRequestInput = {
    jobId: job.id,
    accountId: job.userId,
    // In normal form, as creation stored it; the renderer refuses any other form.
    config,
    timeline: planned.timeline,
    inputs,
    ...(fonts && { fonts }),
    output: {
      uploadUrl: await signedStorageUrl(
        { ...sign, method: "PUT" },
        keyOf(outputStorageUrl(job)),
        URL_TTL_SECONDS,
      ),
      format: job.outputFormat as RenderFormat,
      captions,
      poster,
      thumbnails,
    },
    callbackUrl: `${base}${CALLBACK_PATH}`,
    ...(config.autoSubtitles && { transcription }),
    // The same deployment switch picks the voice of speech layers: Workers AI, else the renderer's espeak-ng.
    ...(transcription.backend === "workers-ai" && hasSpeech(config)
      ? { speech: { backend: "workers-ai" as const, url: `${base}${SPEAK_PATH}` } }
      : {}),
    limits: { maxDurationSeconds: planned.seconds, deadlineSeconds },
  };
  return { request, timeline: planned.timeline, config };
};

export const dispatchVideoJob = async (ctx: Ctx, jobId: string): Promise<"done" | "skipped"> => {
  const { env } = ctx;
  const job = await getJobById(ctx, jobId);
  // Only a PENDING job is handed over: PROCESSING means a renderer already accepted it (a redelivered message
  // must not start a second render); a renderer that then dies is caught by the stuck-job sweep.
  if (job.status !== "PENDING") return "skipped";
  const built = await videoRequest(ctx, job);
  if (!built) return "skipped";
  // A long video renders as chunks on several renderers (dispatch-chunks.ts).
  const chunks = splitInto(ctx, job, built);
  if (chunks > 1) return dispatchChunks(ctx, job, chunks);
  const attempt = job.attempts + 1;
  const instance = await ctx.renderer.renderVideo({ ...built.request, attempt });
  if (!(await markProcessing(ctx, job.id, { stage: "queued", percent: 0, countAttempt: true }))) {
    // Finished (cancelled, swept) while the renderer accepted it: that render must not run on.
    ctx.defer(ctx.renderer.cancel(job.id, attempt, instance).catch(() => false));
    return "skipped";
  }
  // From now on the renderer's reports renew the job's lease; the watch notices when they stop.
  await env.VIDEO_QUEUE.send(
    { kind: "watch", jobId: job.id, attempt, instance },
    { delaySeconds: LEASE_CHECK_SECONDS },
  );
  return "done";
};
