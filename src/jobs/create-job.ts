/**
 * POST /api/v1/jobs: validate, resolve inputs (uploads by storage path; public URLs fetched into storage),
 * reserve tokens and insert the job, then enqueue it. The config is stored as submitted; renderers map its
 * public URLs to the imported files through input-map.ts.
 */
import { validateJobConfig } from "../config";
import { getDb } from "../db/client";
import type { Env } from "../env";
import { ValidationFailed } from "../lib/errors";
import { newId } from "../lib/ids";
import { assertCanOpen, finishJob, openJob } from "./lifecycle";
import { importRemoteInputs, remoteReferenceErrors, remoteReferences, type Fetcher } from "./import-inputs";
import { fileReferences, isStoragePath, lookupStoredFiles, missingFileErrors } from "./resolve-inputs";

/** Every job gets this priority (spec: fixed at 5 for all users). */
export const DEFAULT_PRIORITY = 5;

export const createJob = async ({
  env,
  userId,
  input,
  fetcher,
}: {
  env: Env;
  userId: string;
  input: { type: unknown; config: unknown };
  /** Transport for public-URL inputs (tests); production uses the global fetch behind the SSRF guard. */
  fetcher?: Fetcher;
}) => {
  const checked = validateJobConfig(input.type, input.config);
  if (!checked.valid) throw new ValidationFailed(checked.errors);
  const db = getDb(env.DB);
  const refs = fileReferences(checked.type, checked.config);
  const stored = await lookupStoredFiles(db, userId, refs);
  const refused = [...missingFileErrors(refs, stored), ...remoteReferenceErrors(refs)];
  if (refused.length) throw new ValidationFailed(refused);
  let imported = new Map<string, { id: string }>();
  if (remoteReferences(refs).length) {
    // Downloads are the slow part: skip them when the job could not open anyway (402/429).
    await assertCanOpen(env.DB, userId, checked.estimatedTokens);
    imported = await importRemoteInputs({ env, userId, refs, fetcher });
  }
  // Input files in config order, each once: uploads by storage path, imports by their public URL.
  const inputFileIds = [
    ...new Set(refs.map((r) => (isStoragePath(r.url) ? stored.get(r.url)?.id : imported.get(r.url)?.id))),
  ].filter((id): id is string => id !== undefined);
  const at = Date.now();
  const job = {
    id: newId("job"),
    userId,
    type: checked.type === "image" ? ("IMAGE" as const) : ("VIDEO" as const),
    config: input.config,
    inputFileIds,
    outputFormat: checked.outputFormat,
    reserve: checked.estimatedTokens,
    priority: DEFAULT_PRIORITY,
  };
  await openJob(env.DB, job, at);
  const queue = job.type === "IMAGE" ? env.IMAGE_QUEUE : env.VIDEO_QUEUE;
  try {
    await queue.send({ kind: "render", jobId: job.id, userId });
  } catch (e) {
    // Nothing may be lost: a job that never reached the queue is failed and its reserve released.
    await finishJob(
      env.DB,
      { id: job.id, userId, tokensReserved: job.reserve },
      { status: "FAILED", error: "Could not enqueue the job" },
    );
    throw e;
  }
  return {
    jobId: job.id,
    status: "PENDING" as const,
    type: job.type,
    estimatedTokens: job.reserve,
    createdAt: new Date(at).toISOString(),
  };
};
