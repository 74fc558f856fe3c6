/** Test helpers for the jobs API: rows written straight into D1 (no queue), balance audits, a create call. */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { JobStatus, JobType } from "../../src/db/schema.ts";
import { openJob } from "../../src/jobs/lifecycle.ts";
import { outputStorageUrl } from "../../src/jobs/output.ts";
import { newId } from "../../src/lib/ids.ts";
import type { VideoConfig } from "@media-render/contract/config";
import { signCallback } from "@media-render/contract/signing";
import { buildTimeline } from "@media-render/contract/timeline";
import { call, json, testCtx } from "./helpers.ts";

export interface SeedJob {
  type?: JobType;
  status?: JobStatus;
  createdAt?: number;
  updatedAt?: number;
  startedAt?: number | null;
  completedAt?: number | null;
  tokensUsed?: number;
  tokensReserved?: number;
}

/**
 * Inserts a job row as it would look in `status` (no tokens move: for listing and statistics only).
 * Use `openPending` when the ledger matters.
 */
export const seedJob = async (userId: string, s: SeedJob = {}): Promise<string> => {
  const id = newId("job");
  const created = s.createdAt ?? Date.now();
  await env.DB.prepare(
    `INSERT INTO jobs (id, user_id, type, status, config, input_file_ids, output_format, tokens_reserved, tokens_used,
       started_at, completed_at, created_at, updated_at) VALUES (?, ?, ?, ?, '{"width":10}', '[]', ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      id,
      userId,
      s.type ?? "IMAGE",
      s.status ?? "COMPLETED",
      (s.type ?? "IMAGE") === "IMAGE" ? "png" : "mp4",
      s.tokensReserved ?? 0,
      s.tokensUsed ?? 0,
      s.startedAt ?? null,
      s.completedAt ?? null,
      created,
      s.updatedAt ?? created,
    )
    .run();
  return id;
};

/** A PENDING job opened through the lifecycle (reserve taken, ledger row written) but never queued. */
export const openPending = async (userId: string, reserve = 5, type: JobType = "IMAGE", at = Date.now()) => {
  const id = newId("job");
  // Already in the grammar's normal form: stored as submitted and as parsed alike.
  const config =
    type === "IMAGE"
      ? { width: 10, height: 10, layers: [{ type: "text", text: "x" }] }
      : { width: 32, height: 32, clips: [{ duration: 1, layers: [{ type: "fill-color", color: "#fff" }] }] };
  await openJob(testCtx(), {
    id,
    userId,
    type,
    config,
    normalizedConfig: config,
    plan: null,
    inputFileIds: [],
    outputFormat: type === "IMAGE" ? "png" : "mp4",
    reserve,
    priority: 5,
    createdAt: at,
  });
  return id;
};

/** The account's balance, asserting it equals the sum of its ledger. */
export const auditedBalance = async (userId: string): Promise<number> => {
  const u = await env.DB.prepare("SELECT token_balance AS b FROM users WHERE id = ?")
    .bind(userId)
    .first<{ b: number }>();
  const l = await env.DB.prepare("SELECT coalesce(sum(amount), 0) AS s FROM token_ledger WHERE user_id = ?")
    .bind(userId)
    .first<{ s: number }>();
  expect(u!.b).toBe(l!.s);
  return u!.b;
};

export const jobRow = (id: string) =>
  env.DB.prepare("SELECT * FROM jobs WHERE id = ?").bind(id).first<Record<string, unknown>>();

export const textImage = (layers = 1) => ({
  width: 64,
  height: 32,
  backgroundColor: "#336699",
  layers: Array.from({ length: layers }, (_, i) => ({ type: "text", text: `L${i}`, x: 1, y: 1 })),
});

export const createJobCall = (key: string, payload: unknown) =>
  call("/api/v1/jobs", json("POST", payload, key));

export const get = (path: string, key?: string, headers: Record<string, string> = {}) =>
  call(path, { headers: { ...(key ? { "x-api-key": key } : {}), ...headers } });

/** A media file row of `userId` (as an upload would leave it), without touching R2 or the upload route. */
export const seedMediaFile = async (
  userId: string,
  opts: {
    category?: "image" | "video" | "audio" | "font" | "shader" | "captions";
    ext?: string;
    size?: number;
  } = {},
) => {
  const id = newId();
  const category = opts.category ?? "image";
  const ext = opts.ext ?? "png";
  const storageUrl = `/${category}/2026-01-01/${userId}/${id}.${ext}`;
  const at = Date.now();
  await env.DB.prepare(
    `INSERT INTO media_files (id, user_id, filename, original_name, mime_type, size, storage_key, storage_url, category,
       metadata, source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '{}', 'upload', ?, ?)`,
  )
    .bind(
      id,
      userId,
      `${id}.${ext}`,
      `original.${ext}`,
      "application/octet-stream",
      opts.size ?? 1234,
      storageUrl.slice(1),
      storageUrl,
      category,
      at,
      at,
    )
    .run();
  return { id, storageUrl, size: opts.size ?? 1234 };
};

/** A renderer status report for `jobId` (video unless `extra` says otherwise). */
export const statusReport = (jobId: string, status: string, extra: Record<string, unknown> = {}) => ({
  jobId,
  status,
  type: "video",
  timestamp: new Date().toISOString(),
  ...extra,
});

/**
 * POSTs `payload` to the renderer callback as the renderer does: raw JSON body, timestamp header and
 * HMAC signature (another `secret`, an old `ts`, or `sign: false` to test the refusals).
 */
export const postStatusReport = async (
  payload: unknown,
  opts: { secret?: string; ts?: number; sign?: boolean } = {},
) => {
  const raw = JSON.stringify(payload);
  const ts = opts.ts ?? Math.floor(Date.now() / 1000);
  const headers = await signCallback(opts.secret ?? env.RENDERER_SECRET, raw, ts);
  if (opts.sign === false) delete headers["x-renderer-signature"];
  return call("/api/v1/webhooks/runner/job-status", { method: "POST", headers, body: raw });
};

/** The signed storage URL at which `jobId` must report its output (the object is written only if `bytes`). */
export const jobOutputUrl = async (jobId: string, bytes?: number) => {
  const row = (await jobRow(jobId))!;
  const url = outputStorageUrl({
    id: jobId,
    userId: String(row.user_id),
    createdAt: Number(row.created_at),
    outputFormat: String(row.output_format),
  });
  if (bytes !== undefined) await env.FILES.put(url.slice(1), new Uint8Array(bytes));
  return `${env.PUBLIC_URL}/storage${url}`;
};

/** A video of one clip of `seconds` at `width` x `height` (25 fps) and its planned timeline, as the chunk tests plan. */
export const plannedClip = (
  seconds: number,
  width = 1280,
  height = 720,
  extra: Partial<VideoConfig> = {},
) => {
  const config = {
    width,
    height,
    fps: 25,
    clips: [{ duration: seconds, layers: [] }],
    ...extra,
  } as VideoConfig;
  return { config, timeline: buildTimeline(config, { videoLength: () => null }) };
};
