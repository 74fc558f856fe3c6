/**
 * Hands a video job to the renderer: every file reference (storage path, or public URL imported at creation)
 * becomes a short-lived signed GET URL, the output a signed PUT URL at the job's output path. The renderer
 * then reports through the signed runner callback.
 */
import { inArray } from "drizzle-orm";
import { getDb } from "../db/client";
import { mediaFiles } from "../db/schema";
import type { Env } from "../env";
import { referenceTargets, rewriteReferences } from "../jobs/input-map";
import { getJobById } from "../jobs/internal";
import { markProcessing } from "../jobs/lifecycle";
import { outputStorageUrl } from "../jobs/output";
import { rendererFor } from "../runner/renderer-client";
import { CALLBACK_PATH } from "../runner/routes";
import { keyOf } from "../storage/paths";
import { signedStorageUrl } from "../storage/signed-url";

/** Signed input/output URLs outlive the longest render (300 s of 4K video) with margin. */
const URL_TTL_SECONDS = 3 * 3600;

export const dispatchVideoJob = async (env: Env, jobId: string): Promise<"done" | "skipped"> => {
  const db = getDb(env.DB);
  const job = await getJobById(db, jobId);
  // Only a PENDING job is handed over: PROCESSING means a renderer already accepted it (a redelivered message
  // must not start a second render); a renderer that then dies is caught by the stuck-job sweep.
  if (job.status !== "PENDING") return "skipped";
  const inputs = job.inputFileIds.length
    ? await db.query.mediaFiles.findMany({ where: inArray(mediaFiles.id, job.inputFileIds) })
    : [];
  const sign = { secret: env.STORAGE_SIGNING_SECRET, baseUrl: env.PUBLIC_URL };
  const signed = new Map<string, string>();
  for (const [reference, f] of referenceTargets(inputs))
    signed.set(reference, await signedStorageUrl({ ...sign, method: "GET" }, f.storageKey, URL_TTL_SECONDS));
  await rendererFor(env).renderVideo({
    jobId: job.id,
    config: rewriteReferences(job.type, job.config, (ref) => signed.get(ref)),
    output: {
      uploadUrl: await signedStorageUrl(
        { ...sign, method: "PUT" },
        keyOf(outputStorageUrl(job)),
        URL_TTL_SECONDS,
      ),
      format: job.outputFormat,
    },
    callbackUrl: `${env.PUBLIC_URL.replace(/\/+$/, "")}${CALLBACK_PATH}`,
  });
  await markProcessing(env.DB, job.id, { stage: "queued", percent: 0, countAttempt: true });
  return "done";
};
