/**
 * Outputs delivered to the user's storage: a job created with `destinations` uploads its output, posters,
 * thumbnails and captions to a real S3-protocol server (test/s3-server.ts, which checks SigV4 signatures) once it
 * completes, through the deliver-outputs queue; the results are on the job and in its webhook events. Failures: a
 * wrong secret, an endpoint that drops every connection, an endpoint the SSRF guard refuses at use, a connection
 * deleted meanwhile; retries end in a recorded failure.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createContext } from "../../../src/context.ts";
import { attemptDelivery, handOverDueDeliveries } from "../../../src/destinations/deliver.ts";
import { getJobById } from "../../../src/jobs/lookup.ts";
import { finishJob } from "../../../src/jobs/lifecycle.ts";
import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS } from "../../../src/destinations/limits.ts";
import { uploadFile } from "../../../src/destinations/s3.ts";
import worker from "../../../src/index.ts";
import { until } from "../../poll.ts";
import { body, newAccount, testCtx } from "../helpers.ts";
import { createJobCall, jobRow } from "../jobs-seed.ts";
import { createEndpoint, newBox, receivedAtLeast, verify } from "../webhooks/support.ts";
import {
  completeVideo,
  createConnection,
  deliveriesOf,
  digest,
  FRAME_SUFFIXES,
  firstAttempts,
  randomBytes,
  requestsTo,
  s3,
  s3Endpoint,
  s3Object,
  settledDeliveries,
} from "./support.ts";

const video = (extra: Record<string, unknown> = {}) => ({
  width: 64,
  height: 36,
  clips: [{ duration: 2, layers: [{ type: "fill-color", color: "#000000" }] }],
  ...extra,
});

/** Creates a video job with `destinations` through the API (201 expected). */
const createWithDestinations = async (
  key: string,
  destinations: unknown,
  config: Record<string, unknown> = video(),
) => {
  const res = await createJobCall(key, { type: "video", config, destinations });
  const b = await body<{ jobId: string }>(res);
  expect(res.status, JSON.stringify(b)).toBe(201);
  return b.data!.jobId;
};

/** The delivery rows of a job, in order. */
const rowsOf = async (jobId: string) =>
  (
    await env.DB.prepare("SELECT * FROM job_deliveries WHERE job_id = ? ORDER BY position").bind(jobId).all<{
      id: string;
      status: string;
      attempts: number;
      error: string | null;
      next_attempt_at: number;
      updated_at: number;
    }>()
  ).results;

/** Runs the attempts a delivery has left, as the queue would after each delay (without waiting for it). */
const exhaust = async (deliveryId: string) => {
  for (let i = 0; i < MAX_ATTEMPTS; i++) {
    // Due again (the queue's delay elapsed): the attempt takes a `pending` delivery whatever its next_attempt_at.
    const result = await attemptDelivery(testCtx(), deliveryId);
    if (result.outcome !== "retry") return result;
  }
  throw new Error("the delivery never settled");
};

const today = () => new Date().toISOString().slice(0, 10);

describe("a job with S3 destinations", () => {
  it("lands its output, poster and thumbnails in the bucket with the right keys, types and bytes", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 500 });
    const box = newBox();
    const endpoint = await createEndpoint(key, box.url, ["render.delivered", "render.delivery_failed"]);
    const templated = await createConnection(key, { keyTemplate: "renders/{date}/{type}/{jobId}.{ext}" });
    const plain = await createConnection(key);
    const jobId = await createWithDestinations(
      key,
      [{ connectionId: templated.id }, { connectionId: plain.id, key: "custom/{jobId}-final.{ext}" }],
      video({ poster: { time: 0.5 }, thumbnails: { count: 2 } }),
    );
    expect((await deliveriesOf(key, jobId))!.map((d) => [d.status, d.key])).toEqual([
      ["waiting", `renders/${today()}/video/${jobId}.mp4`],
      ["waiting", `custom/${jobId}-final.mp4`],
    ]);
    const output = randomBytes(300_000);
    const frames = await completeVideo(jobId, output, { frames: true });

    const settled = await settledDeliveries(key, jobId);
    expect(settled.map((d) => [d.status, d.attempts, d.error])).toEqual([
      ["delivered", 1, null],
      ["delivered", 1, null],
    ]);
    const first = settled[0]!;
    const base = `renders/${today()}/video/${jobId}`;
    expect(first.files.map((f) => [f.name, f.key, f.contentType, f.size])).toEqual([
      ["output", `${base}.mp4`, "video/mp4", output.byteLength],
      [".poster.png", `${base}.poster.png`, "image/png", frames[".poster.png"]!.length],
      [".thumb-001.jpg", `${base}.thumb-001.jpg`, "image/jpeg", frames[".thumb-001.jpg"]!.length],
      [".thumb-002.jpg", `${base}.thumb-002.jpg`, "image/jpeg", frames[".thumb-002.jpg"]!.length],
    ]);
    const landed = await s3Object(`${base}.mp4`);
    expect(landed!.contentType).toBe("video/mp4");
    expect(await digest(landed!.bytes)).toBe(await digest(output));
    for (const suffix of FRAME_SUFFIXES) {
      const file = await s3Object(`${base}${suffix}`);
      expect(file!.contentType, suffix).toBe(suffix.endsWith(".png") ? "image/png" : "image/jpeg");
      expect(await digest(file!.bytes), suffix).toBe(await digest(frames[suffix]!));
    }
    expect(await digest((await s3Object(`custom/${jobId}-final.mp4`))!.bytes)).toBe(await digest(output));
    // Streamed from R2 with its length: one PUT with a Content-Length, never chunked (S3 refuses that).
    const puts = (await requestsTo(`/${s3().bucket}/custom/${jobId}-final.mp4`)).filter(
      (r) => r.method === "PUT",
    );
    expect(puts).toEqual([
      {
        method: "PUT",
        path: `/${s3().bucket}/custom/${jobId}-final.mp4`,
        contentLength: "300000",
        transferEncoding: null,
      },
    ]);
    const poster = (await s3Object(`custom/${jobId}-final.poster.png`))!.bytes;
    expect(await digest(poster)).toBe(await digest(frames[".poster.png"]!));

    // One render.delivered event for the job, listing both destinations' results, signed like every event.
    const [event] = await receivedAtLeast(box.box, 1);
    const verified = verify(endpoint.secret, event!);
    expect(verified.type).toBe("render.delivered");
    const data = verified.data as { jobId: string; destinations: { status: string; key: string }[] };
    expect(data.jobId).toBe(jobId);
    expect(data.destinations.map((d) => [d.status, d.key])).toEqual([
      ["delivered", `${base}.mp4`],
      ["delivered", `custom/${jobId}-final.mp4`],
    ]);
    const events = await env.DB.prepare(
      "SELECT type FROM webhook_events WHERE job_id = ? AND type LIKE '%deliver%'",
    )
      .bind(jobId)
      .all<{ type: string }>();
    expect(events.results.map((e) => e.type)).toEqual(["render.delivered"]);
  });

  it("tells the job's own webhookUrl how its delivery went, with its metadata, and keys objects by the metadata", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 500 });
    const box = newBox();
    const connection = await createConnection(key, { keyTemplate: "orders/{metadata.orderId}.{ext}" });
    const res = await createJobCall(key, {
      type: "video",
      config: video(),
      destinations: [{ connectionId: connection.id }],
      webhookUrl: box.url,
      metadata: { orderId: "A-77" },
    });
    const created = await body<{ jobId: string }>(res);
    expect(res.status, JSON.stringify(created)).toBe(201);
    const jobId = created.data!.jobId;
    const output = randomBytes(2000);
    await completeVideo(jobId, output);
    expect((await settledDeliveries(key, jobId)).map((d) => [d.status, d.key])).toEqual([
      ["delivered", "orders/A-77.mp4"],
    ]);
    expect(await digest((await s3Object("orders/A-77.mp4"))!.bytes)).toBe(await digest(output));
    // No endpoint is registered: the job's URL alone hears of it, render events and the delivery alike.
    const events = await receivedAtLeast(box.box, 2);
    const delivered = events
      .map((e) => JSON.parse(e.body) as { type: string; data: Record<string, unknown> })
      .find((e) => e.type === "render.delivered");
    expect(delivered?.data).toMatchObject({
      jobId,
      metadata: { orderId: "A-77" },
      destinations: [{ status: "delivered", key: "orders/A-77.mp4" }],
    });
  });

  it("delivers the caption files beside the output, with their text type", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 500 });
    const connection = await createConnection(key, { keyTemplate: "{jobId}" });
    const jobId = await createWithDestinations(
      key,
      [{ connectionId: connection.id }],
      video({ autoSubtitles: true }),
    );
    const output = randomBytes(5000);
    const stored = await completeVideo(jobId, output, { captions: true });
    const [delivery] = await settledDeliveries(key, jobId);
    // A key without the output's extension keeps it whole; the caption file takes its suffix after it.
    expect(delivery!.files.map((f) => [f.name, f.key, f.contentType])).toEqual([
      ["output", jobId, "video/mp4"],
      [".captions.vtt", `${jobId}.captions.vtt`, "text/vtt"],
    ]);
    const vtt = await s3Object(`${jobId}.captions.vtt`);
    expect(vtt!.contentType).toBe("text/vtt");
    expect(new TextDecoder().decode(vtt!.bytes)).toBe(stored[".captions.vtt"]);
  });

  it("uploads a file over the threshold in parts streamed from R2, whole and in order", async () => {
    const size = 11 * 1024 * 1024 + 123;
    const bytes = randomBytes(size);
    const r2Key = `test/multipart-${crypto.randomUUID()}.bin`;
    await env.FILES.put(r2Key, bytes);
    const key = `multipart/${crypto.randomUUID()}.mp4`;
    const bucket = {
      origin: new URL(s3Endpoint()),
      bucketInPath: s3().bucket,
      region: "us-east-1",
      accessKeyId: s3().accessKeyId,
      secretAccessKey: s3().secretAccessKey,
    };
    const partBytes = 5 * 1024 * 1024;
    const result = await uploadFile(
      env.FILES,
      bucket,
      { r2Key, key, contentType: "video/mp4" },
      { threshold: partBytes, partBytes },
    );
    expect(result.size).toBe(size);
    const landed = await s3Object(key);
    expect(landed!.contentType).toBe("video/mp4");
    expect(landed!.bytes.byteLength).toBe(size);
    expect(await digest(landed!.bytes)).toBe(await digest(bytes));
    // Three parts, each streamed from a ranged R2 read with its own Content-Length; then the completion.
    const requests = await requestsTo(`/${s3().bucket}/${key}`);
    expect(
      requests.filter((r) => r.method === "PUT").map((r) => [r.contentLength, r.transferEncoding]),
    ).toEqual([
      [String(partBytes), null],
      [String(partBytes), null],
      [String(size - 2 * partBytes), null],
    ]);
    expect(requests.map((r) => r.method)).toEqual(["POST", "PUT", "PUT", "PUT", "POST", "GET"]);
  });

  it("answers no destinations for a job created without them", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 500 });
    const res = await createJobCall(key, { type: "video", config: video() });
    const jobId = (await body<{ jobId: string }>(res)).data!.jobId;
    expect(await deliveriesOf(key, jobId)).toBeUndefined();
    expect(await rowsOf(jobId)).toEqual([]);
  });
});

describe("failed deliveries", () => {
  it("records a wrong secret's SignatureDoesNotMatch, retries, then fails and raises render.delivery_failed", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 500 });
    const box = newBox();
    await createEndpoint(key, box.url, ["render.delivered", "render.delivery_failed"]);
    const wrong = await createConnection(key, { secretAccessKey: "not-the-secret" });
    const jobId = await createWithDestinations(key, [{ connectionId: wrong.id, key: "wrong/{jobId}.{ext}" }]);
    await completeVideo(jobId, randomBytes(1000));

    const [first] = await firstAttempts(key, jobId);
    expect(first!.status).toBe("pending");
    expect(first!.attempts).toBe(1);
    expect(first!.error).toMatch(
      /^PUT wrong\/job_\w+\.mp4: 403 SignatureDoesNotMatch: The request signature/,
    );
    expect(first!.nextAttemptAt).not.toBeNull();
    expect(first!.files).toEqual([]);

    const [row] = await rowsOf(jobId);
    expect(await exhaust(row!.id)).toEqual({ outcome: "failed" });
    const [failed] = (await deliveriesOf(key, jobId))!;
    expect(failed!.status).toBe("failed");
    expect(failed!.attempts).toBe(MAX_ATTEMPTS);
    expect(failed!.error).toContain("403 SignatureDoesNotMatch");
    expect(await s3Object(`wrong/${jobId}.mp4`)).toBeNull();
    const [event] = await receivedAtLeast(box.box, 1);
    const sent = JSON.parse(event!.body) as { type: string; data: { destinations: { status: string }[] } };
    expect(sent.type).toBe("render.delivery_failed");
    expect(sent.data.destinations.map((d) => d.status)).toEqual(["failed"]);
    // The job itself stays completed: a delivery never changes it.
    expect((await jobRow(jobId))!.status).toBe("COMPLETED");
  });

  it("records an endpoint that drops every connection as unreachable, and fails after the last retry", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 500 });
    const dead = await createConnection(key, { endpoint: `http://127.0.0.1:${s3().deadPort}` });
    const jobId = await createWithDestinations(key, [{ connectionId: dead.id }]);
    await completeVideo(jobId, randomBytes(1000));
    const [first] = await firstAttempts(key, jobId);
    expect(first!.status).toBe("pending");
    expect(first!.error).toMatch(/could not reach the endpoint/);
    const [row] = await rowsOf(jobId);
    expect(await exhaust(row!.id)).toEqual({ outcome: "failed" });
    const [failed] = (await deliveriesOf(key, jobId))!;
    expect([failed!.status, failed!.attempts]).toEqual(["failed", MAX_ATTEMPTS]);
    expect(failed!.error).toMatch(/^PUT job_\w+\.mp4: could not reach the endpoint/);
  });

  it("refuses at use an endpoint the guard refuses, without a retry or a request", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 500 });
    const connection = await createConnection(key);
    const jobId = await createWithDestinations(key, [{ connectionId: connection.id }]);
    // The name now stands for a private address (as a DNS change would make it): stored as it was allowed.
    await env.DB.prepare("UPDATE storage_connections SET endpoint = 'http://10.0.0.7:9000' WHERE id = ?")
      .bind(connection.id)
      .run();
    await completeVideo(jobId, randomBytes(1000));
    const [delivery] = await settledDeliveries(key, jobId);
    expect([delivery!.status, delivery!.attempts]).toEqual(["failed", 1]);
    expect(delivery!.error).toMatch(/^the endpoint is not allowed: /);
  });

  it("refuses loopback at use outside development (https only, the SSRF guard)", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 500 });
    const connection = await createConnection(key);
    const jobId = await createWithDestinations(key, [{ connectionId: connection.id }]);
    const [row] = await rowsOf(jobId);
    // Made due without its completion's message (the job is never completed here).
    await env.DB.prepare("UPDATE job_deliveries SET status = 'pending' WHERE id = ?").bind(row!.id).run();
    const production = createContext({ ...env, ENVIRONMENT: "production" });
    expect(await attemptDelivery(production, row!.id)).toEqual({ outcome: "failed" });
    const [after] = await rowsOf(jobId);
    expect(after!.error).toBe("the endpoint is not allowed: the URL must use https");
  });

  it("fails a delivery whose connection was deleted meanwhile, saying so", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 500 });
    const connection = await createConnection(key);
    const jobId = await createWithDestinations(key, [{ connectionId: connection.id }]);
    await env.DB.prepare("DELETE FROM storage_connections WHERE id = ?").bind(connection.id).run();
    await completeVideo(jobId, randomBytes(1000));
    const [delivery] = await settledDeliveries(key, jobId);
    expect([delivery!.status, delivery!.connectionId, delivery!.error]).toEqual([
      "failed",
      null,
      "the storage connection was deleted",
    ]);
  });

  it("skips the deliveries of a job that ends without an output", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 500 });
    const connection = await createConnection(key);
    const jobId = await createWithDestinations(key, [{ connectionId: connection.id }]);
    const job = await getJobById(testCtx(), jobId);
    expect(await finishJob(testCtx(), job, { status: "FAILED", error: "a render that failed" })).toBe(true);
    expect((await deliveriesOf(key, jobId))!.map((d) => d.status)).toEqual(["skipped"]);
    // The cron writes it down (and never sends it).
    await handOverDueDeliveries(testCtx());
    expect((await rowsOf(jobId)).map((r) => r.status)).toEqual(["skipped"]);
  });
});

describe("the deliver-outputs queue", () => {
  const deliver = async (body: unknown, attempts = 1) => {
    const batch = createMessageBatch("deliver-outputs", [
      { id: "d-1", timestamp: new Date(), attempts, body },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    return getQueueResult(batch, ctx);
  };

  it("retries a failed attempt after the delivery's next delay and acknowledges a settled one", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 500 });
    const wrong = await createConnection(key, { secretAccessKey: "wrong" });
    const jobId = await createWithDestinations(key, [{ connectionId: wrong.id }]);
    await completeVideo(jobId, randomBytes(1000));
    // The completion's own message made the first attempt (and its retry waits RETRY_DELAYS_SECONDS[0]).
    await firstAttempts(key, jobId);
    const [row] = await rowsOf(jobId);
    // Each later attempt's message is retried, due after the next delay of the schedule (the test tool records
    // the retry, not its delay: the delivery's next_attempt_at is the same number).
    const delay = async () => {
      const r = (await rowsOf(jobId))[0]!;
      return (r.next_attempt_at - r.updated_at) / 1000;
    };
    const second = await deliver({ kind: "deliver", deliveryId: row!.id }, 2);
    expect([second.retryMessages, second.explicitAcks]).toEqual([[{ msgId: "d-1" }], []]);
    expect(await delay()).toBe(RETRY_DELAYS_SECONDS[1]);
    const third = await deliver({ kind: "deliver", deliveryId: row!.id }, 3);
    expect(third.retryMessages).toEqual([{ msgId: "d-1" }]);
    expect(await delay()).toBe(RETRY_DELAYS_SECONDS[2]);
    expect((await rowsOf(jobId))[0]!.attempts).toBe(3);
    // A message for a delivery nobody waits for (settled, unknown) or a malformed one is acknowledged.
    expect((await deliver({ kind: "deliver", deliveryId: "dlv_unknown" })).explicitAcks).toEqual(["d-1"]);
    expect((await deliver({ kind: "nonsense" })).explicitAcks).toEqual(["d-1"]);
  });

  it("runs one attempt when the same delivery's message arrives twice at once (a replay races the original)", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 500 });
    const connection = await createConnection(key);
    const jobId = await createWithDestinations(key, [{ connectionId: connection.id }]);
    await completeVideo(jobId, randomBytes(4096));
    await settledDeliveries(key, jobId);
    const [row] = await rowsOf(jobId);
    await env.DB.prepare("UPDATE job_deliveries SET status = 'pending', files = '[]' WHERE id = ?")
      .bind(row!.id)
      .run();
    const outcomes = await Promise.all([
      attemptDelivery(testCtx(), row!.id),
      attemptDelivery(testCtx(), row!.id),
    ]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(["delivered", "not-due"]);
    const [after] = await rowsOf(jobId);
    expect([after!.status, after!.attempts]).toEqual(["delivered", 2]);
    // A replay after it settled makes no attempt either.
    expect(await attemptDelivery(testCtx(), row!.id)).toEqual({ outcome: "not-due" });
  });

  it("hands the cron a delivery whose message was lost, and it lands", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 500 });
    const connection = await createConnection(key);
    const jobId = await createWithDestinations(key, [{ connectionId: connection.id }]);
    const output = randomBytes(2048);
    await completeVideo(jobId, output);
    await settledDeliveries(key, jobId);
    // As if its message had been lost: due for ten minutes, nothing sent.
    const [row] = await rowsOf(jobId);
    await env.DB.prepare(
      "UPDATE job_deliveries SET status = 'pending', files = '[]', next_attempt_at = ? WHERE id = ?",
    )
      .bind(Date.now() - 10 * 60_000, row!.id)
      .run();
    expect(await handOverDueDeliveries(testCtx())).toBeGreaterThanOrEqual(1);
    const [delivery] = await until(
      "the handed-over delivery",
      async () => {
        const list = await deliveriesOf(key, jobId);
        return list?.[0]?.status === "delivered" && list[0].attempts === 2 ? list : undefined;
      },
      15_000,
      100,
    );
    expect(delivery!.files.map((f) => f.name)).toEqual(["output"]);
  });
});
