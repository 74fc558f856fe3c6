/**
 * The renderer under faults, through its real HTTP routes: a render past its deadline is killed (ffmpeg gone, not
 * just abandoned) and fails for good, stopping its own browser and no other job's; an ffmpeg killed from outside is
 * reported as the infrastructure's fault (retryable, in plain words); a full queue answers busy with Retry-After and
 * one account cannot fill it; a cancel stops the render and frees its slot; a waiting job's lease is renewed by
 * heartbeats.
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEARTBEAT_INTERVAL_MS } from "@media-render/contract/wire";
import { startTestServer, type TestServer } from "../helpers/start-test-server.ts";
import { startWorkerStandIn, type WorkerStandIn } from "../helpers/worker-stand-in.ts";
import { colorAt, near, probeOut } from "../video/media-helpers.ts";
import { figure } from "./scale.ts";

let server: TestServer;
let worker: WorkerStandIn;

beforeAll(async () => {
  // One slot, one waiting place, one job per account: the smallest renderer, so every limit is reachable.
  server = await startTestServer({}, { tools: { ffmpeg: "5.1", ffprobe: "5.1", chromium: null } });
  worker = await startWorkerStandIn();
});

afterAll(async () => {
  await server.close();
  await worker.close();
});

/** The ffmpeg processes this test process started (the renderer runs in-process). */
const ffmpegs = (): number[] => {
  try {
    return execFileSync("pgrep", ["-P", String(process.pid), "-x", "ffmpeg"], { encoding: "utf8" })
      .trim()
      .split("\n")
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
};

/**
 * What a render stopped at its deadline may take beyond it: the kill, the failure's report and the test's own
 * polling, with room for a machine twice as slow and busy (idle: a few hundred ms). Not stopped, these jobs would
 * render for minutes (five minutes of 1080p) or for ever (a page that never yields).
 */
const PAST_DEADLINE_MS = 10_000;

const waitFor = async (check: () => boolean, timeoutMs = 10_000) => {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** A render that keeps ffmpeg busy for a long while: five minutes of 1080p. */
const longJob = (jobId: string, extra: Record<string, unknown> = {}) => ({
  jobId,
  config: {
    width: 1920,
    height: 1080,
    fps: 30,
    clips: [{ duration: 300, layers: [{ type: "linear-gradient", colors: ["#ff0000", "#0000ff"] }] }],
  },
  inputs: {},
  output: { uploadUrl: `${worker.base}/upload/${jobId}.mp4`, format: "mp4" },
  callbackUrl: `${worker.base}/callback`,
  attempt: 1,
  accountId: `acct-${jobId}`,
  ...extra,
});

/** A 320x180 job of `clips` (small, so html layers capture fast), with the Worker's `limits` if given. */
const smallJob = (jobId: string, clips: unknown[], limits?: Record<string, number>) => ({
  ...longJob(jobId, limits ? { limits } : {}),
  config: { width: 320, height: 180, fps: 30, clips },
});

/** A 2 s job whose html layer's script never yields: it runs until its deadline. */
const loopingHtmlJob = (jobId: string, deadlineSeconds: number) =>
  smallJob(
    jobId,
    [
      {
        duration: 2,
        layers: [{ type: "html", enableLibraries: true, html: "<script>for (;;) {}</script><p>never</p>" }],
      },
    ],
    { maxDurationSeconds: 2, deadlineSeconds },
  );

const offer = (body: unknown, to: TestServer = server) =>
  to.signedFetch("/render/video", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const cancel = (jobId: string, attempt?: number) =>
  server.signedFetch("/render/cancel", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jobId, attempt }),
  });

describe("renderer faults", () => {
  it("kills a render at its deadline (no ffmpeg left) and fails it for good, saying so", async () => {
    const started = Date.now();
    expect(
      (await offer(longJob("deadline", { limits: { maxDurationSeconds: 300, deadlineSeconds: 2 } }))).status,
    ).toBe(202);
    const final = await worker.final("deadline");
    const tookMs = Date.now() - started;
    expect(final).toMatchObject({
      status: "failed",
      retryable: false,
      attempt: 1,
      error: "Rendering took longer than its deadline of 2 s and was stopped; no tokens were charged",
    });
    expect(ffmpegs()).toEqual([]);
    expect(tookMs).toBeLessThan(2000 + PAST_DEADLINE_MS);
    figure("video render past a 2 s deadline: failed and killed after (ms)", tookMs);
  });

  it("kills the browser of an html layer that never yields at the deadline, and the next job renders", async () => {
    const started = Date.now();
    expect((await offer(loopingHtmlJob("html-loop", 4))).status).toBe(202);
    const final = await worker.final("html-loop");
    const tookMs = Date.now() - started;
    expect(final).toMatchObject({
      status: "failed",
      retryable: false,
      error: "Rendering took longer than its deadline of 4 s and was stopped; no tokens were charged",
    });
    expect(tookMs).toBeLessThan(4000 + PAST_DEADLINE_MS);
    // Chromium was killed, not left spinning: the next job's html layer renders in a fresh browser.
    const next = smallJob("html-next", [
      { duration: 1, layers: [{ type: "html", html: "<body style='background:#0f0'></body>" }] },
    ]);
    expect((await offer(next)).status).toBe(202);
    const after = await worker.final("html-next");
    expect(after, JSON.stringify(after)).toMatchObject({ status: "completed" });
    figure("video html layer looping forever: failed at its 4 s deadline after (ms)", tookMs);
  });

  it("a job stopped at its deadline kills only its own html browser: another account's capture runs on", async () => {
    // Two slots, so both jobs render at once in this process (the renderer's browsers are per process).
    const wide = await startTestServer(
      { renderSlots: 2, renderQueueMax: 2, renderQueuePerAccount: 1 },
      { tools: { ffmpeg: "5.1", ffprobe: "5.1", chromium: null } },
    );
    try {
      // 900 frames of a moving html layer under a title: its capture (begin-frame browsers of its own slots) is
      // still running when the other job's deadline passes; its title was drawn in the shared text browser.
      const busy = smallJob(
        "capture-beside",
        [
          {
            duration: 30,
            layers: [
              { type: "fill-color", color: "#203040" },
              {
                type: "html",
                animated: true,
                duration: 30,
                html: "<div style='width:40px;height:40px;background:#0f0;animation:m 2s linear infinite'></div><style>@keyframes m{to{transform:translateX(280px)}}</style>",
              },
              { type: "title", text: "beside" },
            ],
          },
        ],
        { maxDurationSeconds: 30, deadlineSeconds: 120 },
      );
      const started = Date.now();
      expect((await offer(loopingHtmlJob("loop-beside", 3), wide)).status).toBe(202);
      expect((await offer(busy, wide)).status).toBe(202);
      const finished = (jobId: string) => worker.final(jobId).then((r) => ({ r, at: Date.now() - started }));
      const [stopped, rendered] = await Promise.all([finished("loop-beside"), finished("capture-beside")]);
      expect(stopped.r).toMatchObject({
        status: "failed",
        error: "Rendering took longer than its deadline of 3 s and was stopped; no tokens were charged",
      });
      expect(rendered.r, JSON.stringify(rendered.r)).toMatchObject({ status: "completed" });
      expect(rendered.at, "the other job was still rendering when the deadline struck").toBeGreaterThan(
        stopped.at,
      );
      // Its frames kept coming after the deadline: 30 s of video, and at 29 s the square is where its clock puts it,
      // on the fill (virtual time 29; it moves 280 px every 2 s, so it stands near x = 140, give or take 5 px a frame).
      const out = join(wide.config.tmpDir, "capture-beside.mp4");
      await writeFile(out, worker.puts.get("/upload/capture-beside.mp4")!.bytes);
      expect((await probeOut(out)).duration).toBeCloseTo(30, 1);
      const square = await colorAt(out, 29, { x: 152 / 320, y: 10 / 180, w: 16 / 320, h: 20 / 180 });
      expect(near(square, [0, 255, 0]), `square at 29 s: ${square.join(",")}`).toBe(true);
      const fill = await colorAt(out, 29, { x: 10 / 320, y: 5 / 180, w: 30 / 320, h: 30 / 180 });
      expect(near(fill, [0x20, 0x30, 0x40]), `left of it: ${fill.join(",")}`).toBe(true);
      figure("html job stopped at a 3 s deadline beside another job: failed after (ms)", stopped.at);
      figure("the job beside it, still rendering then, completed after (ms)", rendered.at);
    } finally {
      await wide.close();
    }
    // 30 s of html capture: 30 s on one core of a loaded 2-core machine.
  }, 120_000);

  it("reports an ffmpeg killed from outside as a retryable fault in plain words", async () => {
    expect((await offer(longJob("sigkill"))).status).toBe(202);
    await worker.stage("sigkill", "encoding");
    await waitFor(() => ffmpegs().length === 1);
    const killedAt = Date.now();
    process.kill(ffmpegs()[0]!, "SIGKILL");
    const final = await worker.final("sigkill");
    expect(final).toMatchObject({
      status: "failed",
      retryable: true,
      error: "The renderer's encoder was interrupted (SIGKILL)",
    });
    figure("ffmpeg SIGKILLed: reported as retryable after (ms)", Date.now() - killedAt);
  });

  it("answers busy with Retry-After when full, holds one job per account, and a cancel frees the slot", async () => {
    expect((await offer(longJob("run-a", { accountId: "greedy" }))).status).toBe(202);
    // The same account again: refused although the waiting place is free.
    const own = await offer(longJob("run-a2", { accountId: "greedy" }));
    expect(own.status).toBe(503);
    expect(Number(own.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await own.json()).toMatchObject({ busy: true, error: expect.stringMatching(/account/) });
    // Another account takes the waiting place; a third finds the queue full.
    expect((await offer(longJob("wait-b", { accountId: "other" }))).status).toBe(202);
    const full = await offer(longJob("third-c", { accountId: "third" }));
    expect(full.status).toBe(503);
    expect(await full.json()).toMatchObject({ busy: true, error: "The renderer's queue is full" });
    const health = (await (await fetch(`${server.url}/health`)).json()) as { capacity: unknown };
    expect(health.capacity).toMatchObject({ slots: 1, running: 1, waiting: 1, maxWaiting: 1 });

    // The waiting job's lease is renewed while it waits: two heartbeats come (due in two intervals; polled for, with
    // room for a loaded machine).
    const before = worker.reports.filter((r) => r.jobId === "wait-b").length;
    const heartbeats = () => worker.reports.filter((r) => r.jobId === "wait-b").slice(before);
    await waitFor(() => heartbeats().length >= 2, HEARTBEAT_INTERVAL_MS * 5);
    const beats = heartbeats();
    expect(beats[0]).toMatchObject({ status: "processing", metadata: { stage: "queued" } });

    // Cancelling the running render kills its ffmpeg and starts the waiting job; the cancelled one reports nothing.
    await waitFor(() => ffmpegs().length === 1, 30_000);
    const first = ffmpegs()[0];
    const cancelledAt = Date.now();
    expect(await (await cancel("run-a")).json()).toEqual({ cancelled: true });
    await waitFor(() => !ffmpegs().includes(first!), 5000);
    figure("cancel: render's ffmpeg gone after (ms)", Date.now() - cancelledAt);
    await waitFor(() => ffmpegs().length === 1, 30_000);
    expect(await (await cancel("wait-b", 9)).json()).toEqual({ cancelled: false }); // another attempt
    expect(await (await cancel("wait-b")).json()).toEqual({ cancelled: true });
    await waitFor(() => ffmpegs().length === 0, 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(worker.reports.filter((r) => r.jobId === "run-a" && r.status !== "processing")).toEqual([]);
  });
});
