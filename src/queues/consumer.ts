/**
 * Queue consumers, routed by queue name. Messages are validated, work is idempotent (terminal jobs are
 * skipped), failures retry with capped backoff, and a job whose last delivery fails is failed through the
 * lifecycle (reserve released) with the last error. The dead-letter queues are the backstop for deliveries
 * that never reach our catch (a consumer killed mid-render): they fail the job the same way.
 */
import * as v from "valibot";
import { defectMessage, isProgrammingError, newFaultReference } from "@media-render/contract/faults";
import { createContext, type Ctx } from "../context.ts";
import type { Env } from "../env.ts";
import { getJobById } from "../jobs/lookup.ts";
import { finishJob } from "../jobs/lifecycle.ts";
import {
  DomainError,
  InvalidState,
  NotFound,
  RendererBusy,
  RendererRefused,
  RendererUnreachable,
  UnprocessableMedia,
  ValidationFailed,
} from "../lib/errors.ts";
import { renderImageJob } from "../image-renderer/render-image-job.ts";
import { handleDeliveries } from "../destinations/deliver.ts";
import { dispatchJoin, offerChunk, watchChunk } from "./dispatch-chunks.ts";
import { dispatchVideoJob, videoRequest } from "./dispatch-video.ts";
import { RenderMessage } from "./messages.ts";
import { watchLease } from "./watch-lease.ts";

/** `max_retries` of the render queues in wrangler.toml: a message is delivered at most this + 1 times. */
export const MAX_RETRIES = 3;

/** Backoff for retried deliveries: 2, 4, 8 ... seconds, capped at one minute. */
export const retryDelaySeconds = (attempts: number) => Math.min(60, 2 ** Math.max(1, attempts));

/**
 * How long a job may wait for a renderer with room that answers (busy or unreachable ones): such waits are
 * back-pressure, not failures, so they do not use up the message's retries.
 */
export const RENDERER_WAIT_MS = 15 * 60_000;

/** Delay before offering a job again: the renderer's Retry-After, else 2 s growing with the wait, at most 15 s. */
export const offerAgainSeconds = (e: RendererBusy | RendererUnreachable, waitedMs: number) =>
  e instanceof RendererBusy ? e.retryAfterSeconds : Math.min(15, Math.max(2, Math.ceil(waitedMs / 2000)));

/** Errors no retry can fix: the job fails on the first delivery. */
const isPermanent = (e: unknown) =>
  e instanceof ValidationFailed || e instanceof UnprocessableMedia || e instanceof InvalidState;

/**
 * A defect of ours (src/lib/errors.ts RendererRefused, or JavaScript's own TypeError...: faults.ts): every delivery
 * would fail the same way, so the job fails on the first, logged with its stack under the reference its owner reads.
 */
const isDefect = (e: unknown) => e instanceof RendererRefused || isProgrammingError(e);

/** What the job's errorMessage says: domain errors are written for users; anything else stays internal. */
const describe = (e: unknown) => (e instanceof DomainError ? e.message : "internal error");

const failJob = async (ctx: Ctx, jobId: string, error: string) => {
  const job = await getJobById(ctx, jobId).catch((e) => (e instanceof NotFound ? null : Promise.reject(e)));
  if (job) await finishJob(ctx, job, { status: "FAILED", error });
};

const render = (ctx: Ctx, queue: string, jobId: string) => {
  if (queue.startsWith("render-image")) return renderImageJob(ctx, jobId);
  if (queue.startsWith("render-video")) return dispatchVideoJob(ctx, jobId);
  return Promise.resolve("skipped" as const);
};

type Body = Exclude<v.InferOutput<typeof RenderMessage>, { kind: "ping" }>;

/** One message by its kind: a lease watch, a chunk or a join, or a whole render (a dead-letter queue fails its job). */
const handleMessage = async (ctx: Ctx, queue: string, body: Body, message: Message<unknown>) => {
  const { jobId } = body;
  if (body.kind === "watch") {
    if (!queue.endsWith("-dlq")) await watchLease(ctx, body);
    message.ack();
    return;
  }
  if (body.kind === "watch-chunk") {
    if (!queue.endsWith("-dlq")) await watchChunk(ctx, body);
    message.ack();
    return;
  }
  if (body.kind === "chunk" || body.kind === "join") {
    if (queue.endsWith("-dlq"))
      await failJob(ctx, jobId, `Rendering failed after repeated attempts (${queue})`);
    else if (body.kind === "chunk") await offerChunk(ctx, body, videoRequest);
    else await dispatchJoin(ctx, jobId, videoRequest);
    message.ack();
    return;
  }
  if (queue.endsWith("-dlq"))
    await failJob(ctx, jobId, `Rendering failed after repeated attempts (${queue})`);
  else await render(ctx, queue, jobId);
  message.ack();
};

/**
 * A message whose handling threw: a missing job is dropped; a lease check is tried again; a busy or unreachable
 * renderer puts the job back (or fails it past RENDERER_WAIT_MS); a defect fails the job with a reference; another
 * failure is retried until MAX_RETRIES, or fails the job at once when it is permanent.
 */
const onFailure = async (
  ctx: Ctx,
  env: Env,
  queue: string,
  body: Body,
  message: Message<unknown>,
  e: unknown,
) => {
  const { jobId } = body;
  if (e instanceof NotFound) {
    message.ack();
    return;
  }
  if (body.kind === "watch" || body.kind === "watch-chunk") {
    // A lease check that could not run (D1 down) is tried again; it never fails the job itself.
    message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    return;
  }
  if (e instanceof RendererBusy || e instanceof RendererUnreachable) {
    // Back-pressure: a fresh message after the delay (this one's retries are for failures). Past the wait
    // limit, the job fails, its reserve released.
    const since = body.waitingSince ?? ctx.now();
    if (ctx.now() - since < RENDERER_WAIT_MS) {
      try {
        const delaySeconds = offerAgainSeconds(e, ctx.now() - since);
        await env.VIDEO_QUEUE.send({ ...body, waitingSince: since }, { delaySeconds });
        message.ack();
        return;
      } catch (inner) {
        console.error(
          JSON.stringify({ level: "error", msg: "could not requeue", jobId, error: String(inner) }),
        );
      }
    } else {
      await failJob(
        ctx,
        jobId,
        `No renderer was free and reachable for ${RENDERER_WAIT_MS / 60_000} minutes; no tokens were charged`,
      ).then(
        () => message.ack(),
        () => message.retry({ delaySeconds: retryDelaySeconds(message.attempts) }),
      );
      return;
    }
  }
  if (isDefect(e) && !queue.endsWith("-dlq")) {
    const reference = newFaultReference();
    console.error(
      JSON.stringify({
        level: "error",
        msg: "render defect",
        queue: queue,
        jobId,
        reference,
        error: String(e),
        stack: e instanceof Error ? e.stack : undefined,
      }),
    );
    try {
      await failJob(ctx, jobId, defectMessage(reference));
      message.ack();
      return;
    } catch (inner) {
      console.error(
        JSON.stringify({ level: "error", msg: "could not fail job", jobId, error: String(inner) }),
      );
    }
  }
  console.error(
    JSON.stringify({
      level: "error",
      msg: "render attempt failed",
      queue: queue,
      jobId,
      attempt: message.attempts,
      error: String(e),
    }),
  );
  const last = message.attempts > MAX_RETRIES;
  if (!queue.endsWith("-dlq") && (last || isPermanent(e))) {
    const error = last ? `Rendering failed after ${message.attempts} attempts: ${describe(e)}` : describe(e);
    // If even this write fails, the retry (or the dead-letter queue) gets another chance.
    try {
      await failJob(ctx, jobId, error);
      message.ack();
      return;
    } catch (inner) {
      console.error(
        JSON.stringify({ level: "error", msg: "could not fail job", jobId, error: String(inner) }),
      );
    }
  }
  message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
};

export const handleQueue = async (
  batch: MessageBatch<unknown>,
  env: Env,
  execution?: ExecutionContext,
): Promise<void> => {
  const ctx = createContext(env, { defer: execution && ((work) => execution.waitUntil(work)) });
  if (batch.queue.startsWith("deliver-outputs")) return handleDeliveries(ctx, batch.messages);
  for (const message of batch.messages) {
    const parsed = v.safeParse(RenderMessage, message.body);
    if (!parsed.success || parsed.output.kind === "ping") {
      message.ack(); // malformed messages can never succeed; pings only prove delivery
      continue;
    }
    try {
      await handleMessage(ctx, batch.queue, parsed.output, message);
    } catch (e) {
      await onFailure(ctx, env, batch.queue, parsed.output, message, e);
    }
  }
};
