/**
 * Hands a video job to the renderer: every file reference becomes a short-lived signed GET URL, the output
 * a signed PUT URL at the job's output path. The renderer then reports through the signed runner callback.
 */
import { inArray } from "drizzle-orm";
import { getDb } from "../db/client";
import { mediaFiles } from "../db/schema";
import type { Env } from "../env";
import { getJobById } from "../jobs/internal";
import { markProcessing } from "../jobs/lifecycle";
import { outputStorageUrl } from "../jobs/output";
import { rendererFor } from "../runner/renderer-client";
import { CALLBACK_PATH } from "../runner/routes";
import { keyOf } from "../storage/paths";
import { signedStorageUrl } from "../storage/signed-url";

/** Signed input/output URLs outlive the longest render (300 s of 4K video) with margin. */
const URL_TTL_SECONDS = 3 * 3600;

/** Replaces every string equal to a key of `map` anywhere in `value`. */
const rewrite = (value: unknown, map: Map<string, string>): unknown => {
  if (typeof value === "string") return map.get(value) ?? value;
  if (Array.isArray(value)) return value.map((x) => rewrite(x, map));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, rewrite(x, map)]));
  return value;
};

export const dispatchVideoJob = async (env: Env, jobId: string): Promise<"done" | "skipped"> => {
  const db = getDb(env.DB);
  const job = await getJobById(db, jobId);
  if (job.status !== "PENDING" && job.status !== "PROCESSING") return "skipped";
  const inputs = job.inputFileIds.length
    ? await db.query.mediaFiles.findMany({ where: inArray(mediaFiles.id, job.inputFileIds) })
    : [];
  const sign = { secret: env.STORAGE_SIGNING_SECRET, baseUrl: env.PUBLIC_URL };
  const urls = new Map<string, string>();
  for (const f of inputs)
    urls.set(f.storageUrl, await signedStorageUrl({ ...sign, method: "GET" }, f.storageKey, URL_TTL_SECONDS));
  await rendererFor(env).renderVideo({
    jobId: job.id,
    config: rewrite(job.config, urls),
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
