/** POST /api/v1/jobs: validate, resolve inputs, reserve tokens and insert the job, then enqueue it. */
import { validateJobConfig } from "../config";
import { getDb } from "../db/client";
import type { Env } from "../env";
import { ValidationFailed } from "../lib/errors";
import { newId } from "../lib/ids";
import { finishJob, openJob } from "./lifecycle";
import {
  fileReferences,
  isStoragePath,
  lookupStoredFiles,
  missingFileErrors,
  storedInputs,
} from "./resolve-inputs";

/** Every job gets this priority (spec: fixed at 5 for all users). */
export const DEFAULT_PRIORITY = 5;

export const createJob = async ({
  env,
  userId,
  input,
}: {
  env: Env;
  userId: string;
  input: { type: unknown; config: unknown };
}) => {
  const checked = validateJobConfig(input.type, input.config);
  if (!checked.valid) throw new ValidationFailed(checked.errors);
  const db = getDb(env.DB);
  const refs = fileReferences(checked.type, checked.config);
  const stored = await lookupStoredFiles(db, userId, refs);
  const errors = [
    ...missingFileErrors(refs, stored),
    ...refs
      .filter((r) => !isStoragePath(r.url))
      .map((r) => ({
        field: r.field,
        message: `Public URL inputs are not available yet; upload the file and reference its storageUrl instead: ${r.url}`,
        code: "URL_IMPORT_UNAVAILABLE",
      })),
  ];
  if (errors.length) throw new ValidationFailed(errors);
  const inputs = storedInputs(refs, stored);
  const at = Date.now();
  const job = {
    id: newId("job"),
    userId,
    type: checked.type === "image" ? ("IMAGE" as const) : ("VIDEO" as const),
    config: input.config,
    inputFileIds: inputs.map((i) => i.fileId),
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
