/**
 * POST /api/v1/jobs: validate, resolve inputs (uploads by storage path; public URLs fetched into storage),
 * reserve tokens and insert the job, then enqueue it. The grammar parses the config once, here: the job stores the
 * config as submitted (echoed to its owner), its normal form (what everything downstream reads:
 * stored-config.ts) and, for a video, its plan (timeline, seconds, reserve, deadline: planned-length.ts).
 * Renderers map the config's public URLs to the imported files through input-map.ts. The answer carries
 * validation's `warnings` (properties accepted with no effect). A `webhookUrl` (judged by the webhook endpoint policy)
 * has the job's render events delivered there too (src/webhooks/job-callbacks.ts); `metadata` (metadata.ts) is
 * stored with the job and echoed in them.
 * A job's `destinations` (src/destinations) are checked before anything is reserved and written once the job is open.
 */
import { validateJobConfig } from "@media-render/contract/config";
import type { CallerCtx } from "../context.ts";
import { planDeliveries, recordDeliveries } from "../destinations/plan.ts";
import { catalogueOnline } from "../fonts/online.ts";
import { ValidationFailed } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { getJobById } from "./lookup.ts";
import type { JobCreated } from "./schemas.ts";
import { plannedVideo } from "./planned-length.ts";
import { assertPlanFeatures, videoLengthCap } from "./plan-features.ts";
import { assertCanOpen, finishJob, openJob } from "./lifecycle.ts";
import {
  importRemoteInputs,
  remoteReferenceErrors,
  remoteReferences,
  type Fetcher,
} from "./import-inputs.ts";
import { fileReferences, isStoragePath, lookupStoredFiles, missingFileErrors } from "./resolve-inputs.ts";
import { callbackEndpoint, callbackUrlErrors } from "../webhooks/job-callbacks.ts";
import { metadataErrors } from "./metadata.ts";

/** Every job gets this priority (spec: fixed at 5 for all users). */
export const DEFAULT_PRIORITY = 5;

/** What a job request carries: the spec's `type` and `config`, and optionally where to call back and metadata. */
export interface JobInput {
  type: unknown;
  config: unknown;
  webhookUrl?: unknown;
  metadata?: unknown;
  /** Where the outputs are delivered besides our storage (src/destinations). */
  destinations?: unknown;
}

export const createJob = async (
  ctx: CallerCtx,
  input: JobInput,
  /**
   * Transport for public-URL inputs and the webhookUrl's name lookups (tests); production uses the global fetch
   * behind the SSRF guard.
   */
  fetcher?: Fetcher,
): Promise<JobCreated> => {
  const { env } = ctx;
  const userId = ctx.caller.userId;
  const checked = validateJobConfig(input.type, input.config, { catalogueOnline: catalogueOnline(env) });
  const extra = metadataErrors(input.metadata);
  if (!checked.valid || extra.length)
    throw new ValidationFailed([...(checked.valid ? [] : checked.errors), ...extra]);
  const urlErrors = await callbackUrlErrors(ctx, input.webhookUrl, fetcher);
  if (urlErrors.length) throw new ValidationFailed(urlErrors);
  if (checked.type === "video") await assertPlanFeatures(ctx, checked.config);
  const refs = fileReferences(checked.type, checked.config);
  const stored = await lookupStoredFiles(ctx, refs);
  const refused = [...missingFileErrors(refs, stored), ...remoteReferenceErrors(refs)];
  if (refused.length) throw new ValidationFailed(refused);
  let imported = new Map<string, { id: string; duration: number | null }>();
  if (remoteReferences(refs).length) {
    // Downloads are the slow part: skip them when the job could not open anyway (402/429).
    await assertCanOpen(ctx, userId, checked.estimatedTokens);
    imported = await importRemoteInputs(ctx, { refs, fetcher });
  }
  const fileOf = (ref: string) => (isStoragePath(ref) ? stored.get(ref) : imported.get(ref));
  // Input files in config order, each once: uploads by storage path, imports by their public URL.
  const inputFileIds = [...new Set(refs.map((r) => fileOf(r.url)?.id))].filter(
    (id): id is string => id !== undefined,
  );
  // A video costs what it will render: its clips sized by the files' real lengths.
  const plan =
    checked.type === "video"
      ? plannedVideo(checked.config, (ref) => fileOf(ref)?.duration ?? null, await videoLengthCap(ctx))
      : null;
  const reserve = plan?.estimatedTokens ?? checked.estimatedTokens;
  const webhookUrl = typeof input.webhookUrl === "string" ? input.webhookUrl : null;
  // The endpoint its events go through exists before the job can raise one.
  if (webhookUrl !== null) await callbackEndpoint(ctx, userId);
  const at = ctx.now();
  const job = {
    id: newId("job"),
    userId,
    type: checked.type === "image" ? ("IMAGE" as const) : ("VIDEO" as const),
    config: input.config,
    normalizedConfig: checked.config,
    plan,
    inputFileIds,
    outputFormat: checked.outputFormat,
    reserve,
    priority: DEFAULT_PRIORITY,
    createdAt: at,
    webhookUrl,
    metadata: (input.metadata as Record<string, unknown> | undefined) ?? null,
  };
  const deliveries = await planDeliveries(ctx, input.destinations, {
    jobId: job.id,
    createdAt: at,
    ext: job.outputFormat,
    type: job.type,
    metadata: job.metadata ?? undefined,
  });
  await openJob(ctx, job);
  const queue = job.type === "IMAGE" ? env.IMAGE_QUEUE : env.VIDEO_QUEUE;
  try {
    await recordDeliveries(ctx, deliveries);
    await queue.send({ kind: "render", jobId: job.id, userId });
  } catch (e) {
    // Nothing may be lost: a job that never reached the queue is failed and its reserve released.
    // The row says how the reserve split between the monthly allowance and prepaid tokens.
    await finishJob(ctx, await getJobById(ctx, job.id), {
      status: "FAILED",
      error: "Could not enqueue the job",
    });
    throw e;
  }
  return {
    jobId: job.id,
    status: "PENDING",
    type: job.type,
    estimatedTokens: job.reserve,
    createdAt: new Date(at).toISOString(),
    warnings: checked.warnings,
  };
};
