/**
 * GET /api/v1/jobs/{id}/events: Server-Sent Events fed by the same row the renderer callback writes. A real
 * signed renderer report moves the job; the stream shows each change, then `done` with the job, then closes.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createSession } from "../../src/auth/sessions.ts";
import { CREDENTIAL_RECHECK_MS } from "../../src/jobs/job-events.ts";
import { bearer } from "./accounts/sign-up.ts";
import { body, call, newAccount, testCtx, updateKey } from "./helpers.ts";
import { jobOutputUrl, openPending, postStatusReport, statusReport } from "./jobs-seed.ts";

interface Sse {
  event: string;
  data: Record<string, unknown>;
}

/** Reads `res`'s event stream, one event at a time. */
const events = (res: Response) => {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    async next(timeoutMs = 8000): Promise<Sse | null> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(":")) continue; // a keep-alive comment
          const field = (name: string) =>
            block
              .split("\n")
              .filter((l) => l.startsWith(`${name}:`))
              .map((l) => l.slice(name.length + 1).trimStart())
              .join("\n");
          return { event: field("event"), data: JSON.parse(field("data")) };
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error("no event in time");
        const chunk = await Promise.race([
          reader.read(),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no event in time")), left)),
        ]);
        if (chunk.done) return null;
        buffer += chunk.value;
      }
    },
    cancel: () => reader.cancel(),
  };
};

const open = (jobId: string, key: string) =>
  call(`/api/v1/jobs/${jobId}/events`, { headers: { "x-api-key": key } });

describe("GET /api/v1/jobs/{id}/events", () => {
  it("streams progress as the renderer reports it, then the finished job, then closes", async () => {
    const { key, userId } = await newAccount();
    const jobId = await openPending(userId, 20, "VIDEO");
    const res = await open(jobId, key);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const stream = events(res);
    expect(await stream.next()).toEqual({
      event: "progress",
      data: expect.objectContaining({ id: jobId, status: "PENDING", progress: null }),
    });

    await postStatusReport(
      statusReport(jobId, "processing", { metadata: { progress: 40, stage: "encoding" } }),
    );
    expect(await stream.next()).toMatchObject({
      event: "progress",
      data: { status: "PROCESSING", progress: { percent: 40, stage: "encoding" } },
    });

    const resultUrl = await jobOutputUrl(jobId, 64);
    await postStatusReport(
      statusReport(jobId, "completed", {
        resultUrl,
        metadata: { videoDuration: 1, outputWidth: 32, outputHeight: 32 },
      }),
    );
    const last = await stream.next();
    expect(last).toMatchObject({
      event: "progress",
      data: { status: "COMPLETED", progress: { percent: 100, stage: "completed" } },
    });
    const done = await stream.next();
    expect(done?.event).toBe("done");
    expect(done?.data).toMatchObject({ id: jobId, status: "COMPLETED", tokensUsed: 12 });
    expect(typeof done?.data.outputFileId).toBe("string");
    expect(await stream.next()).toBeNull(); // closed
  });

  it("shows a change within a fraction of a second early on (image jobs finish in well under a second)", async () => {
    const { key, userId } = await newAccount();
    const jobId = await openPending(userId, 20, "VIDEO");
    const stream = events(await open(jobId, key));
    expect((await stream.next())?.data.status).toBe("PENDING");
    const posted = Date.now();
    await postStatusReport(statusReport(jobId, "processing", { metadata: { progress: 10, stage: "x" } }));
    const t = Date.now();
    // A request through the Worker that writes the row, timed on this machine under its load now.
    const requestMs = t - posted;
    expect(await stream.next()).toMatchObject({ event: "progress", data: { status: "PROCESSING" } });
    // A 50 ms poll, a read of the row and an event written: well under 250 ms and a few such requests (~30 ms each
    // here idle). Reading the row once a second would take 0.5-1 s.
    expect(Date.now() - t).toBeLessThan(250 + 4 * requestMs);
    await stream.cancel();
  });

  it("ends at once with done for a job that has already finished", async () => {
    const { key, userId } = await newAccount();
    const jobId = await openPending(userId, 5);
    expect(
      (await call(`/api/v1/jobs/${jobId}`, { method: "DELETE", headers: { "x-api-key": key } })).status,
    ).toBe(200);
    const stream = events(await open(jobId, key));
    expect((await stream.next())?.data.status).toBe("CANCELLED");
    expect(await stream.next()).toMatchObject({ event: "done", data: { status: "CANCELLED" } });
    expect(await stream.next()).toBeNull();
  });

  it("answers 404 in the envelope for another account's job or none, and 401/403 without the right key", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const jobId = await openPending(owner.userId, 5);
    const foreign = await open(jobId, other.key);
    expect(foreign.status).toBe(404);
    expect(await body(foreign)).toMatchObject({ success: false, error: "Job not found" });
    expect((await open("job_nope", owner.key)).status).toBe(404);
    expect((await call(`/api/v1/jobs/${jobId}/events`)).status).toBe(401);
    const media = await newAccount({ permissions: [{ resource: "media", action: "full" }] });
    expect((await open(jobId, media.key)).status).toBe(403);
  });
});

describe("GET /api/v1/jobs/{id}/events: a stream ends with its credential", () => {
  /** Within the re-check interval plus the time a loaded machine needs to notice. */
  const ENDS_WITHIN_MS = CREDENTIAL_RECHECK_MS + 3000;

  /** Opens a stream on a pending job and reads its first event; `credential` picks key or session. */
  const openLive = async (credential: "key" | "session") => {
    const account = await newAccount();
    const session = (await createSession(testCtx(), account.userId)).token;
    const jobId = await openPending(account.userId, 20, "VIDEO");
    const res = await call(
      `/api/v1/jobs/${jobId}/events`,
      credential === "key" ? { headers: { "x-api-key": account.key } } : bearer(session),
    );
    expect(res.status).toBe(200);
    const stream = events(res);
    expect((await stream.next())?.data.status).toBe("PENDING");
    return { ...account, session, jobId, stream };
  };

  it("ends within seconds when its API key is deleted (the reconnect then gets 401)", async () => {
    const { key, keyId, session, jobId, stream } = await openLive("key");
    const deleted = await call(`/api/v1/api-keys/${keyId}`, bearer(session, { method: "DELETE" }));
    expect(deleted.status).toBe(200);
    expect(await stream.next(ENDS_WITHIN_MS)).toBeNull();
    expect((await open(jobId, key)).status).toBe(401);
  });

  it("ends within seconds when its API key expires", async () => {
    const { keyId, stream } = await openLive("key");
    await updateKey(keyId, "expires_at", Date.now() + 200);
    expect(await stream.next(ENDS_WITHIN_MS)).toBeNull();
  });

  it("ends within seconds when its session is signed out", async () => {
    const { session, stream } = await openLive("session");
    expect((await call("/api/v1/auth/logout", bearer(session, { method: "POST" }))).status).toBe(200);
    expect(await stream.next(ENDS_WITHIN_MS)).toBeNull();
  });

  it("ends within seconds when its account is gone", async () => {
    const { userId, stream } = await openLive("key");
    await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(userId).run();
    expect(await stream.next(ENDS_WITHIN_MS)).toBeNull();
  });

  it("keeps streaming while the credential lives (a re-check is not an end)", async () => {
    const { jobId, stream } = await openLive("key");
    await new Promise((r) => setTimeout(r, CREDENTIAL_RECHECK_MS * 2));
    await postStatusReport(statusReport(jobId, "processing", { metadata: { progress: 30, stage: "x" } }));
    expect(await stream.next()).toMatchObject({ event: "progress", data: { status: "PROCESSING" } });
    await stream.cancel();
  });
});
