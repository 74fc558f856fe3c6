/**
 * Deliveries of a completed job's files to its destinations, each attempt one message of the deliver-outputs queue.
 *
 * A delivery is `waiting` until its job completes; the completion makes it `pending` and sends its message
 * (`jobCompleted`, called by src/jobs/lifecycle.ts, never failing the completion). An attempt takes the delivery
 * with a guarded UPDATE (`pending`, or `delivering` whose lease lapsed), so a redelivered message never runs a second
 * attempt beside the first; it uploads the files not yet uploaded (the output, then its posters, thumbnails and
 * captions), and settles in one D1 batch guarded by its own attempt: `delivered`, `pending` again with the next
 * delay of RETRY_DELAYS_SECONDS, or `failed` after MAX_ATTEMPTS (or at once when no retry can help). The batch that
 * settles a job's last delivery raises its `render.delivered` or `render.delivery_failed` event. The cron hands
 * over what a lost message or a dead worker left behind (`handOverDueDeliveries`).
 */
import { and, eq, gt, lt } from "drizzle-orm";
import * as v from "valibot";
import type { Ctx } from "../context.ts";
import { jobDeliveries, jobs, mediaFiles, storageConnections, type DeliveredFile } from "../db/schema.ts";
import { handOver } from "../webhooks/announce.ts";
import { deliveriesOf, raiseDeliveryEvent } from "../webhooks/events.ts";
import { bucketOrigin, connectionSecret, endpointRefusal } from "./connections.ts";
import { siblingKey } from "./key-template.ts";
import { LEASE_MS, MAX_ATTEMPTS, RETRY_DELAYS_SECONDS } from "./limits.ts";
import { DeliveryMessage } from "./messages.ts";
import { UploadFailed, uploadFile, type Bucket } from "./s3.ts";

type DeliveryRow = typeof jobDeliveries.$inferSelect;

/** A due delivery without an attempt for this long lost its message (the cron sends another). */
const LOST_AFTER_MS = 5 * 60_000;

/** What an attempt came to: the queue message is acknowledged, or retried after `delaySeconds`. */
export type AttemptOutcome =
  | { outcome: "delivered" | "failed" | "not-due" }
  | { outcome: "retry"; delaySeconds: number };

const messageOf = (deliveryId: string): { body: DeliveryMessage } => ({
  body: { kind: "deliver", deliveryId },
});

const sendAll = async (ctx: Ctx, ids: string[]) => {
  // sendBatch takes at most 100 messages.
  for (let i = 0; i < ids.length; i += 100)
    await ctx.env.DELIVERY_QUEUE.sendBatch(ids.slice(i, i + 100).map(messageOf));
};

/**
 * The hook of a job's completion: its waiting deliveries become due and their messages are sent. Logs, never throws:
 * the job's completion stands whatever happens here, and the cron sends what this could not.
 */
export const jobCompleted = async (ctx: Ctx, jobId: string): Promise<void> => {
  try {
    const at = ctx.now();
    const { results } = await ctx.d1
      .prepare(
        `UPDATE job_deliveries SET status = 'pending', next_attempt_at = ?2, updated_at = ?2
         WHERE job_id = ?1 AND status = 'waiting' RETURNING id`,
      )
      .bind(jobId, at)
      .all<{ id: string }>();
    await sendAll(
      ctx,
      results.map((r) => r.id),
    );
  } catch (e) {
    console.error(
      JSON.stringify({ level: "error", msg: "delivery hand-over failed", jobId, error: String(e) }),
    );
  }
};

/** The files of `job` to deliver: its output, then the files stored beside it, each with its name and key. */
const filesOf = async (ctx: Ctx, delivery: DeliveryRow) => {
  const job = await ctx.db.query.jobs.findFirst({
    where: and(eq(jobs.id, delivery.jobId), eq(jobs.userId, delivery.userId)),
  });
  const output = job?.outputFileId
    ? await ctx.db.query.mediaFiles.findFirst({
        where: and(eq(mediaFiles.id, job.outputFileId), eq(mediaFiles.userId, delivery.userId)),
      })
    : undefined;
  if (!job || !output || (output.expiresAt !== null && output.expiresAt <= ctx.now()))
    throw new UploadFailed("the output is no longer stored", true);
  // Posters, thumbnails and captions are named `<jobId>.<suffix>` beside the output: a range over
  // media_files_storage_url_unique.
  const base = output.storageUrl.slice(0, output.storageUrl.length - job.outputFormat.length);
  const beside = await ctx.db.query.mediaFiles.findMany({
    where: and(
      gt(mediaFiles.storageUrl, base),
      lt(mediaFiles.storageUrl, `${base}\uffff`),
      eq(mediaFiles.userId, delivery.userId),
      eq(mediaFiles.jobId, job.id),
    ),
  });
  const others = beside
    .filter((f) => f.id !== output.id)
    .sort((a, b) => (a.storageUrl < b.storageUrl ? -1 : 1));
  return [output, ...others].map((file) => {
    const suffix = `.${file.storageUrl.slice(base.length)}`;
    return {
      name: file.id === output.id ? "output" : suffix,
      r2Key: file.storageKey,
      key: file.id === output.id ? delivery.key : siblingKey(delivery.key, job.outputFormat, suffix),
      contentType: file.mimeType,
    };
  });
};

/** The bucket of the delivery's connection, ready to sign with; permanent failures when there is none to use. */
const bucketOf = async (ctx: Ctx, delivery: DeliveryRow): Promise<Bucket> => {
  const connection = delivery.connectionId
    ? await ctx.db.query.storageConnections.findFirst({
        where: and(
          eq(storageConnections.id, delivery.connectionId),
          eq(storageConnections.userId, delivery.userId),
        ),
      })
    : undefined;
  if (!connection) throw new UploadFailed("the storage connection was deleted", true);
  const refusal = await endpointRefusal(ctx, connection);
  if (refusal) throw new UploadFailed(`the endpoint is not allowed: ${refusal}`, true);
  return {
    origin: bucketOrigin(connection),
    bucketInPath: connection.addressing === "path" ? connection.bucket : null,
    region: connection.region,
    accessKeyId: connection.accessKeyId,
    secretAccessKey: await connectionSecret(ctx, connection),
  };
};

/** Uploads what `delivery` has not yet; `done` grows with each file uploaded, even when a later one fails. */
const upload = async (ctx: Ctx, delivery: DeliveryRow, done: DeliveredFile[]) => {
  const bucket = await bucketOf(ctx, delivery);
  for (const file of await filesOf(ctx, delivery)) {
    if (done.some((d) => d.name === file.name && d.key === file.key)) continue;
    const { size, etag } = await uploadFile(ctx.env.FILES, bucket, file);
    done.push({ name: file.name, key: file.key, contentType: file.contentType, size, etag });
  }
};

/** One attempt at delivery `deliveryId`: takes it, uploads, settles (raising the job's event when it is the last). */
export const attemptDelivery = async (ctx: Ctx, deliveryId: string): Promise<AttemptOutcome> => {
  const at = ctx.now();
  const taken = await ctx.d1
    .prepare(
      `UPDATE job_deliveries SET status = 'delivering', attempts = attempts + 1, lease_until = ?2, updated_at = ?3
       WHERE id = ?1 AND (status = 'pending' OR (status = 'delivering' AND lease_until < ?3))
       RETURNING attempts`,
    )
    .bind(deliveryId, at + LEASE_MS, at)
    .first<{ attempts: number }>();
  if (!taken) return { outcome: "not-due" };
  // Read after taking it: the files an earlier attempt uploaded are in the row by now.
  const row = await ctx.db.query.jobDeliveries.findFirst({ where: eq(jobDeliveries.id, deliveryId) });
  if (!row || row.attempts !== taken.attempts) return { outcome: "not-due" };
  const done = [...row.files];
  let error: UploadFailed | null = null;
  try {
    await upload(ctx, row, done);
  } catch (e) {
    if (!(e instanceof UploadFailed)) throw e;
    error = e;
  }
  const settledAt = ctx.now();
  const last = error !== null && (error.permanent || row.attempts >= MAX_ATTEMPTS);
  const delaySeconds = RETRY_DELAYS_SECONDS[row.attempts - 1] ?? 0;
  const status = error === null ? "delivered" : last ? "failed" : "pending";
  // Guarded by this attempt: a settlement of an attempt another one took over from changes nothing.
  const statement = ctx.d1
    .prepare(
      `UPDATE job_deliveries SET status = ?3, error = ?4, next_attempt_at = ?5, delivered_at = ?6, files = ?7,
         lease_until = NULL, updated_at = ?8
       WHERE id = ?1 AND status = 'delivering' AND attempts = ?2`,
    )
    .bind(
      row.id,
      row.attempts,
      status,
      error?.message.slice(0, 2000) ?? null,
      status === "pending" ? settledAt + delaySeconds * 1000 : null,
      status === "delivered" ? settledAt : null,
      JSON.stringify(done),
      settledAt,
    );
  const results = await ctx.d1.batch([statement, ...raiseDeliveryEvent(ctx.d1, row.jobId, settledAt)]);
  await handOver(ctx, deliveriesOf(results));
  return status === "pending" ? { outcome: "retry", delaySeconds } : { outcome: status };
};

/** The deliver-outputs queue's consumer: one attempt per message, acknowledged or retried after its delay. */
export const handleDeliveries = async (ctx: Ctx, messages: readonly Message<unknown>[]): Promise<void> => {
  for (const message of messages) {
    const parsed = v.safeParse(DeliveryMessage, message.body);
    if (!parsed.success) {
      message.ack(); // a malformed message can never succeed
      continue;
    }
    try {
      const result = await attemptDelivery(ctx, parsed.output.deliveryId);
      if (result.outcome === "retry") message.retry({ delaySeconds: result.delaySeconds });
      else message.ack();
    } catch (e) {
      // D1 or R2 failed under us: the message comes back; a delivery left `delivering` is taken over once its
      // lease lapses (by this message, or the cron's).
      console.error(
        JSON.stringify({
          level: "error",
          msg: "delivery attempt failed",
          deliveryId: parsed.output.deliveryId,
          error: String(e),
        }),
      );
      message.retry({ delaySeconds: RETRY_DELAYS_SECONDS[0] });
    }
  }
};

/**
 * Cron: sends a message for every delivery whose own was lost: due for a while (`pending`), held by an attempt
 * whose lease lapsed, or still `waiting` on a job that completed (its completion's hook failed). A job that ended
 * without an output skips its waiting deliveries.
 */
export const handOverDueDeliveries = async (ctx: Ctx): Promise<number> => {
  const at = ctx.now();
  const grace = at - LOST_AFTER_MS;
  const [, due] = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `UPDATE job_deliveries SET status = 'skipped', updated_at = ?1
       WHERE status = 'waiting' AND job_id IN (SELECT id FROM jobs WHERE status IN ('FAILED', 'CANCELLED'))`,
      )
      .bind(at),
    ctx.d1
      .prepare(
        `UPDATE job_deliveries SET status = 'pending', next_attempt_at = ?1, updated_at = ?1
         WHERE id IN (
           SELECT id FROM job_deliveries WHERE status = 'pending' AND next_attempt_at < ?2
           UNION SELECT id FROM job_deliveries WHERE status = 'delivering' AND lease_until < ?1
           UNION SELECT d.id FROM job_deliveries d JOIN jobs j ON j.id = d.job_id
             WHERE d.status = 'waiting' AND j.status = 'COMPLETED' AND j.completed_at < ?2
           LIMIT 500)
         RETURNING id`,
      )
      .bind(at, grace),
  ]);
  const ids = ((due?.results ?? []) as { id: string }[]).map((r) => r.id);
  await sendAll(ctx, ids);
  return ids.length;
};
