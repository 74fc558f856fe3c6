/**
 * Queue consumers, routed by queue name. Messages are validated, work is idempotent (terminal jobs are
 * skipped), failures retry with capped backoff, and a job whose last delivery fails is failed through the
 * lifecycle (reserve released) with the last error. The dead-letter queues are the backstop for deliveries
 * that never reach our catch (a consumer killed mid-render): they fail the job the same way.
 */
import * as v from "valibot";
import { getDb } from "../db/client";
import type { Env } from "../env";
import { getJobById } from "../jobs/internal";
import { finishJob } from "../jobs/lifecycle";
import { DomainError, NotFound, UnprocessableMedia, ValidationFailed } from "../lib/errors";
import { renderImageJob } from "../render/image/render-image-job";
import { dispatchVideoJob } from "./dispatch-video";
import { RenderMessage } from "./messages";

/** `max_retries` of the render queues in wrangler.toml: a message is delivered at most this + 1 times. */
export const MAX_RETRIES = 3;

/** Backoff for retried deliveries: 2, 4, 8 ... seconds, capped at one minute. */
export const retryDelaySeconds = (attempts: number) => Math.min(60, 2 ** Math.max(1, attempts));

/** Errors no retry can fix: the job fails on the first delivery. */
const isPermanent = (e: unknown) => e instanceof ValidationFailed || e instanceof UnprocessableMedia;

/** What the job's errorMessage says: domain errors are written for users; anything else stays internal. */
const describe = (e: unknown) => (e instanceof DomainError ? e.message : "internal error");

const failJob = async (env: Env, jobId: string, error: string) => {
  const job = await getJobById(getDb(env.DB), jobId).catch((e) =>
    e instanceof NotFound ? null : Promise.reject(e),
  );
  if (job) await finishJob(env.DB, job, { status: "FAILED", error });
};

const render = (env: Env, queue: string, jobId: string) => {
  if (queue.startsWith("render-image")) return renderImageJob(env, jobId);
  if (queue.startsWith("render-video")) return dispatchVideoJob(env, jobId);
  return Promise.resolve("skipped" as const);
};

export const handleQueue = async (batch: MessageBatch<unknown>, env: Env): Promise<void> => {
  for (const message of batch.messages) {
    const parsed = v.safeParse(RenderMessage, message.body);
    if (!parsed.success || parsed.output.kind === "ping") {
      message.ack(); // malformed messages can never succeed; pings only prove delivery
      continue;
    }
    const { jobId } = parsed.output;
    try {
      if (batch.queue.endsWith("-dlq"))
        await failJob(env, jobId, `Rendering failed after repeated attempts (${batch.queue})`);
      else await render(env, batch.queue, jobId);
      message.ack();
    } catch (e) {
      if (e instanceof NotFound) {
        message.ack();
        continue;
      }
      console.error(
        JSON.stringify({
          level: "error",
          msg: "render attempt failed",
          queue: batch.queue,
          jobId,
          attempt: message.attempts,
          error: String(e),
        }),
      );
      const last = message.attempts > MAX_RETRIES;
      if (!batch.queue.endsWith("-dlq") && (last || isPermanent(e))) {
        const error = last
          ? `Rendering failed after ${message.attempts} attempts: ${describe(e)}`
          : describe(e);
        // If even this write fails, the retry (or the dead-letter queue) gets another chance.
        try {
          await failJob(env, jobId, error);
          message.ack();
          continue;
        } catch (inner) {
          console.error(
            JSON.stringify({ level: "error", msg: "could not fail job", jobId, error: String(inner) }),
          );
        }
      }
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    }
  }
};
