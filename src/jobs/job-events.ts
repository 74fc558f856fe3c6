/**
 * GET /api/v1/jobs/{id}/events: a job's progress as Server-Sent Events, so a client need not poll. The stream
 * reads the job's row (the same data the renderer callback writes) and sends an event whenever it changes:
 *
 * - `progress`: `{ id, status, progress: { percent, stage } | null, metadata, updatedAt }`, first at once, then on
 *   change;
 * - `done`: the whole job (as GET /api/v1/jobs/{id}) once it is COMPLETED, FAILED or CANCELLED; then it closes.
 *
 * The row is read every FAST_POLL_MS for the stream's first FAST_FOR_MS, then at intervals growing by half up to
 * POLL_MS: image jobs finish well within the first second, and a client should see that within tens of
 * milliseconds, not at the next whole second (~20 more D1 reads per stream in its first second; one a second after).
 *
 * A stream lasts at most STREAM_MS; a client's EventSource then reconnects (`retry` is sent) and gets the current
 * state first, so nothing is missed. A comment line every HEARTBEAT_MS keeps proxies from closing an idle stream.
 * Every CREDENTIAL_RECHECK_MS the stream asks whether its credential still stands (auth/credential-stands.ts) and
 * ends when it does not: a deleted or expired key, a signed-out session, an account that is gone (the reconnect
 * then gets 401). That costs one indexed read per interval on top of the job's.
 */
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { AppEnv } from "../app-env.ts";
import { callerCtx } from "../auth/api-key.ts";
import { credentialStands } from "../auth/credential-stands.ts";
import { NotFound } from "../lib/errors.ts";
import { jobWithCaptions } from "./get-job.ts";
import { getOwnedJob } from "./lookup.ts";
import type { JobProgressEvent } from "./schemas.ts";
import { toJob } from "./serialize.ts";

export const STREAM_MS = 5 * 60_000;
/** How often a stream checks that its credential still stands: a revoked one is served at most this long. */
export const CREDENTIAL_RECHECK_MS = 2_000;
const FAST_POLL_MS = 50;
const FAST_FOR_MS = 1_000;
const POLL_MS = 1_000;
const HEARTBEAT_MS = 15_000;
const RECONNECT_MS = 2_000;
const FINAL = new Set(["COMPLETED", "FAILED", "CANCELLED"]);

export const jobEvents = async (c: Context<AppEnv>) => {
  const ctx = callerCtx(c);
  const id = c.req.param("jobId")!;
  // Ownership first: another account's job (or none) is a plain 404, not an empty stream.
  let row = await getOwnedJob(ctx, id);
  return streamSSE(c, async (stream) => {
    let aborted = false;
    stream.onAbort(() => {
      aborted = true;
    });
    const started = Date.now();
    let checked = started;
    let sent = "";
    let lastWrite = Date.now();
    let eventId = 0;
    let wait = FAST_POLL_MS;
    while (!aborted) {
      const job = toJob(row);
      const progress: JobProgressEvent = {
        id: job.id,
        status: job.status,
        progress: job.progress,
        metadata: job.metadata,
        updatedAt: job.updatedAt,
      };
      const text = JSON.stringify(progress);
      if (text !== sent) {
        await stream.writeSSE({ event: "progress", data: text, id: String(eventId++), retry: RECONNECT_MS });
        sent = text;
        lastWrite = Date.now();
      }
      if (FINAL.has(job.status)) {
        // The whole job as GET /api/v1/jobs/{id} answers it (with its caption files, when it asked for them).
        const final = await jobWithCaptions(ctx, row);
        await stream.writeSSE({ event: "done", data: JSON.stringify(final), id: String(eventId++) });
        return;
      }
      if (Date.now() - started >= STREAM_MS) return;
      if (Date.now() - lastWrite >= HEARTBEAT_MS) {
        await stream.write(": keep-alive\n\n");
        lastWrite = Date.now();
      }
      await stream.sleep(wait);
      if (Date.now() - started >= FAST_FOR_MS) wait = Math.min(POLL_MS, wait * 1.5);
      if (aborted) return;
      if (Date.now() - checked >= CREDENTIAL_RECHECK_MS) {
        if (!(await credentialStands(ctx))) return;
        checked = Date.now();
      }
      const next = await getOwnedJob(ctx, id).catch((e: unknown) => {
        if (e instanceof NotFound) return null; // the job went with its account
        throw e;
      });
      if (!next) return;
      row = next;
    }
  });
};
