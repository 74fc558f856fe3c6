/**
 * Helpers of the destination tests: the loopback S3-protocol server (test/s3-server.ts, started by the global setup)
 * read back with signed requests of its own, storage connections made through the API, and a video job completed as
 * its renderer would complete it (its output, poster, thumbnails and caption files stored, then the signed report).
 */
import { AwsClient } from "aws4fetch";
import { env } from "cloudflare:workers";
import { expect, inject } from "vitest";
import { captionStorageUrl } from "../../../src/jobs/output.ts";
import { frameStorageUrl } from "../../../src/jobs/frame-outputs.ts";
import { until } from "../../poll.ts";
import type { SeenRequest } from "../../s3-server.ts";
import { body, call, json } from "../helpers.ts";
import { get, jobOutputUrl, jobRow, postStatusReport, statusReport } from "../jobs-seed.ts";

export const s3 = () => inject("s3");

/** The server's address as a connection names it. */
export const s3Endpoint = () => `http://127.0.0.1:${s3().port}`;

/** How the requests to `path` reached the test server (method, Content-Length, Transfer-Encoding). */
export const requestsTo = async (path: string) =>
  ((await (await fetch(`${s3Endpoint()}/__requests`)).json()) as SeenRequest[]).filter(
    (r) => r.path === path,
  );

/** A connection body for the test server; `overrides` change any field. */
export const connectionBody = (overrides: Record<string, unknown> = {}) => ({
  name: "test bucket",
  endpoint: s3Endpoint(),
  region: "us-east-1",
  bucket: s3().bucket,
  accessKeyId: s3().accessKeyId,
  secretAccessKey: s3().secretAccessKey,
  ...overrides,
});

export interface Connection {
  id: string;
  name: string;
  endpoint: string;
  bucket: string;
  keyTemplate: string;
}

/** Creates a storage connection through the API (201 expected). */
export const createConnection = async (key: string, overrides: Record<string, unknown> = {}) => {
  const res = await call("/api/v2/storage-connections", json("POST", connectionBody(overrides), key));
  const b = await body<Connection>(res);
  expect(res.status, JSON.stringify(b)).toBe(201);
  return b.data!;
};

/** An object of the test server, read with a signed GET of our own (not the Worker's code). */
export const s3Object = async (key: string) => {
  const client = new AwsClient({
    accessKeyId: s3().accessKeyId,
    secretAccessKey: s3().secretAccessKey,
    service: "s3",
    region: "us-east-1",
    retries: 0,
  });
  const path = key.split("/").map(encodeURIComponent).join("/");
  const res = await client.fetch(`${s3Endpoint()}/${s3().bucket}/${path}`);
  if (res.status === 404) {
    await res.body?.cancel();
    return null;
  }
  expect(res.status, `GET ${key}`).toBe(200);
  return { contentType: res.headers.get("content-type"), bytes: new Uint8Array(await res.arrayBuffer()) };
};

export interface DeliveryView {
  connectionId: string | null;
  bucket: string;
  key: string;
  status: string;
  attempts: number;
  error: string | null;
  files: { name: string; key: string; contentType: string; size: number; etag: string }[];
  nextAttemptAt: string | null;
  deliveredAt: string | null;
}

/** The job's `destinations` as GET /api/v1/jobs/{id} shows them. */
export const deliveriesOf = async (apiKey: string, jobId: string) => {
  const res = await get(`/api/v1/jobs/${jobId}`, apiKey);
  expect(res.status).toBe(200);
  return (await body<{ destinations?: DeliveryView[] }>(res)).data!.destinations;
};

/** Waits until every destination of the job is past `waiting`, `pending` and `delivering`. */
export const settledDeliveries = (apiKey: string, jobId: string, timeoutMs = 15_000) =>
  until(
    `the deliveries of ${jobId} to settle`,
    async () => {
      const list = await deliveriesOf(apiKey, jobId);
      return list?.every((d) => d.status === "delivered" || d.status === "failed") ? list : undefined;
    },
    timeoutMs,
    100,
  );

/** Waits until the job's first attempt of every destination has been made. */
export const firstAttempts = (apiKey: string, jobId: string) =>
  until(
    `the first attempts of ${jobId}`,
    async () => {
      const list = await deliveriesOf(apiKey, jobId);
      return list?.every((d) => d.attempts >= 1 && d.status !== "delivering") ? list : undefined;
    },
    15_000,
    100,
  );

/** The SHA-256 of `bytes` in hex: large files compare by it (a failed toEqual of megabytes would print them all). */
export const digest = async (bytes: Uint8Array | string) =>
  [
    ...new Uint8Array(
      await crypto.subtle.digest(
        "SHA-256",
        typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes,
      ),
    ),
  ]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");

/** Random bytes of `size` (the output's content, told apart from any other file's). */
export const randomBytes = (size: number) => {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i += 65536) crypto.getRandomValues(out.subarray(i, Math.min(size, i + 65536)));
  return out;
};

/** The suffixes a job with `poster` and `thumbnails: { count: 2 }` stores beside its output. */
export const FRAME_SUFFIXES = [".poster.png", ".thumb-001.jpg", ".thumb-002.jpg"];

/**
 * Stores the job's output (`bytes`), its frames and, with `captions`, its caption files as the renderer would, then
 * posts the renderer's signed completion report.
 */
export const completeVideo = async (
  jobId: string,
  bytes: Uint8Array,
  opts: { frames?: boolean; captions?: boolean } = {},
) => {
  const row = (await jobRow(jobId))!;
  const job = { id: jobId, userId: String(row.user_id), createdAt: Number(row.created_at) };
  const resultUrl = await jobOutputUrl(jobId);
  await env.FILES.put(new URL(resultUrl).pathname.replace(/^\/storage\//, ""), bytes);
  const stored: Record<string, Uint8Array | string> = {};
  if (opts.frames)
    for (const suffix of FRAME_SUFFIXES) {
      stored[suffix] = randomBytes(100 + suffix.length);
      await env.FILES.put(frameStorageUrl(job, suffix).slice(1), stored[suffix]!);
    }
  if (opts.captions) {
    stored[".captions.vtt"] = "WEBVTT\n\n00:00.000 --> 00:01.000\nhello\n";
    await env.FILES.put(captionStorageUrl(job, "vtt").slice(1), stored[".captions.vtt"]!);
  }
  const res = await postStatusReport(
    statusReport(jobId, "completed", {
      resultUrl,
      metadata: {
        videoDuration: 2,
        ...(opts.captions && {
          captions: { backend: "pocketsphinx", language: "en", words: 1, cues: 1, note: null },
        }),
      },
    }),
  );
  expect(res.status).toBe(200);
  expect((await jobRow(jobId))!.status).toBe("COMPLETED");
  return stored;
};
