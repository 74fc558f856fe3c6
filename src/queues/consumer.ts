/**
 * Queue consumers, routed by queue name. Messages are validated, work is idempotent (terminal jobs are
 * skipped), failures retry with capped backoff, and the dead-letter queues fail the job and release its tokens.
 */
import * as v from "valibot";
import { getDb } from "../db/client";
import type { Env } from "../env";
import { getJobById } from "../jobs/internal";
import { finishJob } from "../jobs/lifecycle";
import { NotFound } from "../lib/errors";
import { renderImageJob } from "../render/image/render-image-job";
import { dispatchVideoJob } from "./dispatch-video";
import { RenderMessage } from "./messages";

/** Backoff for retried deliveries: 2, 4, 8 ... seconds, capped at one minute. */
export const retryDelaySeconds = (attempts: number) => Math.min(60, 2 ** Math.max(1, attempts));

const failFromDeadLetter = async (env: Env, jobId: string, queue: string) => {
  const job = await getJobById(getDb(env.DB), jobId).catch((e) =>
    e instanceof NotFound ? null : Promise.reject(e),
  );
  if (!job) return;
  await finishJob(env.DB, job, {
    status: "FAILED",
    error: `Rendering failed after repeated attempts (${queue})`,
  });
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
      if (batch.queue.endsWith("-dlq")) await failFromDeadLetter(env, jobId, batch.queue);
      else if (batch.queue.startsWith("render-image")) await renderImageJob(env, jobId);
      else if (batch.queue.startsWith("render-video")) await dispatchVideoJob(env, jobId);
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
          error: String(e),
        }),
      );
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    }
  }
};
