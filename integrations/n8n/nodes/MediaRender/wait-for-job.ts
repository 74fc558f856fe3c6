/**
 * Waits for a job to end: follows its event stream (GET /api/v1/jobs/{id}/events: `progress` events, then `done`
 * with the whole job), reconnecting when a stream reaches its 5-minute cap, and falls back to polling
 * GET /api/v1/jobs/{id} when the stream cannot be read (a proxy that buffers it, say). Bounded by the node's timeout
 * and by the execution's cancel signal: a timeout is an error that names the job, which goes on rendering.
 */
import type { IExecuteFunctions, JsonObject } from "n8n-workflow";
import { NodeApiError, NodeOperationError, sleep } from "n8n-workflow";
import { apiError, call, send } from "./api.ts";
import { eventStreamReader } from "./event-stream.ts";

/** A job as GET /api/v1/jobs/{id} answers it (the fields the node reads; the rest is passed on as it came). */
export interface Job {
  id: string;
  type: "IMAGE" | "VIDEO";
  status: "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED" | "CANCELLED";
  outputFormat: string;
  outputFileId: string | null;
  errorMessage: string | null;
  progress: { percent: number; stage: string | null } | null;
  [key: string]: unknown;
}

const FINAL = new Set(["COMPLETED", "FAILED", "CANCELLED"]);
/** Answers to the stream that polling would get as well. */
const REFUSALS = new Set(["401", "403", "404"]);
/** Between two reads of the job when polling. */
const POLL_MS = 1000;

/** What a stream body is for the node's purposes (Node's Readable, without importing node:stream). */
type ByteStream = AsyncIterable<Uint8Array | string> & { destroy(): void };

type Seen = Pick<Job, "status" | "progress">;

/**
 * Reads one event stream; answers the final job, or undefined when the stream ended before `done`. `signal` ends it
 * early: n8n gives the request its own signal (the execution's cancel), so ours destroys the stream itself, and the
 * request's `timeout` bounds the wait for the answer's headers.
 */
const followStream = async (
  ctx: IExecuteFunctions,
  itemIndex: number,
  jobId: string,
  signal: AbortSignal,
  timeoutMs: number,
  seen: (state: Seen) => void,
): Promise<{ job?: Job; retryMs?: number }> => {
  const answer = await send(ctx, {
    method: "GET",
    path: `/api/v1/jobs/${encodeURIComponent(jobId)}/events`,
    headers: { accept: "text/event-stream" },
    encoding: "stream",
    timeout: timeoutMs,
  });
  const stream = answer.body as ByteStream;
  const stop = () => stream.destroy();
  if (signal.aborted) stop();
  else signal.addEventListener("abort", stop, { once: true });
  const reader = eventStreamReader();
  try {
    if (answer.status !== 200) {
      let text = "";
      for await (const chunk of stream)
        text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString();
      throw apiError(ctx, { ...answer, body: text }, itemIndex);
    }
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
      for (const event of reader.push(text)) {
        if (event.event === "progress") seen(JSON.parse(event.data) as Seen);
        if (event.event === "done") return { job: JSON.parse(event.data) as Job };
      }
    }
  } finally {
    signal.removeEventListener("abort", stop);
    stream.destroy();
  }
  return { retryMs: reader.retry };
};

/** The job once it has ended (COMPLETED, FAILED or CANCELLED), or an error after `timeoutSeconds`. */
export const waitForJob = async (
  ctx: IExecuteFunctions,
  itemIndex: number,
  jobId: string,
  timeoutSeconds: number,
): Promise<Job> => {
  const deadline = Date.now() + timeoutSeconds * 1000;
  const cancelled = ctx.getExecutionCancelSignal();
  let last: Seen | undefined;
  let useStream = true;
  while (Date.now() < deadline) {
    if (cancelled?.aborted) break;
    if (useStream) {
      const remaining = Math.max(1, deadline - Date.now());
      const timeout = AbortSignal.timeout(remaining);
      const signal = cancelled ? AbortSignal.any([timeout, cancelled]) : timeout;
      try {
        const outcome = await followStream(
          ctx,
          itemIndex,
          jobId,
          signal,
          remaining,
          (state) => (last = state),
        );
        if (outcome.job) return outcome.job;
        // The stream reached its cap before the job ended: reconnect after the interval it asked for.
        await sleep(Math.min(outcome.retryMs ?? 2000, Math.max(0, deadline - Date.now())));
        continue;
      } catch (error) {
        if (signal.aborted) break;
        // The service refused the job itself (gone, another account's, the key revoked): polling would be refused
        // too. Anything else (a stream limit's 429, a proxy that breaks streams, a reset) falls back to polling.
        if (error instanceof NodeApiError && REFUSALS.has(error.httpCode ?? ""))
          throw new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
        useStream = false;
      }
    }
    const job = await call<Job>(ctx, itemIndex, "GET", `/api/v1/jobs/${encodeURIComponent(jobId)}`);
    if (FINAL.has(job.status)) return job;
    last = job;
    await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
  }
  if (!cancelled?.aborted) {
    // One last look: the job may have ended just as time ran out, and the error should say where it is.
    const job = await call<Job>(ctx, itemIndex, "GET", `/api/v1/jobs/${encodeURIComponent(jobId)}`);
    if (FINAL.has(job.status)) return job;
    last = job;
  }
  const state = last
    ? `${last.status}${last.progress ? `, ${Math.round(last.progress.percent)} %` : ""}`
    : "not yet seen";
  throw new NodeOperationError(
    ctx.getNode(),
    cancelled?.aborted
      ? `Stopped waiting for job ${jobId}: the execution was cancelled`
      : `Job ${jobId} did not end within ${timeoutSeconds} s (${state})`,
    {
      itemIndex,
      description:
        "The job goes on rendering: read it later with Job > Get or Job > Download Output, or raise the Timeout option.",
    },
  );
};
