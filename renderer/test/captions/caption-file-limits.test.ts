/**
 * A captions file is held to its limits before it is parsed, and parsed off the renderer's main thread (issue 42,
 * finding B: 1,000,000 cues, 40 MB, blocked the event loop ~5 s with ~570 MB RSS, so heartbeats stopped and every job
 * of the renderer was handed over). The event loop is watched with a 10 ms timer throughout: its longest gap must
 * stay far below what a parse on it took.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPTIONS_FILE_MAX_BYTES, CAPTIONS_FILE_MAX_CUES } from "@media-render/contract/config/limits";
import { runWorkerTask } from "../../src/lib/worker-task.ts";
import { captionsFromFile, readCaptionsFile } from "../../src/video/captions/caption-file.ts";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { startTestServer, type TestServer } from "../helpers/start-test-server.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { startWorkerStandIn, type WorkerStandIn } from "../helpers/worker-stand-in.ts";
import { videoSpec } from "../../src/video/spec.ts";

/** A SubRip text of `n` one-word cues (~36 bytes each). */
const srt = (n: number) => {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = String(i % 60).padStart(2, "0");
    parts.push(`${i + 1}\n00:00:${s},000 --> 00:00:${s},500\nx\n`);
  }
  return parts.join("\n");
};

/** Watches the event loop with a 10 ms timer; `stop` answers its longest gap (ms). */
const watchLoop = () => {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 10);
  return () => {
    clearInterval(timer);
    return Math.max(worst, performance.now() - last);
  };
};

let dir: string;
let server: TestServer;
let worker: WorkerStandIn;
const spec = videoSpec(
  videoConfig({ width: 320, height: 180, fps: 10, clips: [{ duration: 4, layers: [{ type: "pause" }] }] }),
);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "captions-limits-"));
  server = await startTestServer({}, { tools: { ffmpeg: "5.1", ffprobe: "5.1", chromium: null } });
  worker = await startWorkerStandIn();
});
afterAll(async () => {
  await server.close();
  await worker.close();
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

describe("a captions file's limits", () => {
  it("a job whose captions file is 1,000,000 cues (36 MB) fails saying so, and the renderer's event loop runs on", async () => {
    const huge = srt(1_000_000);
    expect(huge.length).toBeGreaterThan(30 * CAPTIONS_FILE_MAX_BYTES);
    worker.serve("huge.srt", new TextEncoder().encode(huge));
    const ref = "/captions/2026-01-15/u1/huge.srt";
    const stop = watchLoop();
    const res = await server.signedFetch("/render/video", {
      method: "POST",
      body: JSON.stringify({
        jobId: "job_huge_captions",
        config: {
          width: 160,
          height: 90,
          fps: 10,
          clips: [{ duration: 2, layers: [{ type: "fill-color", color: "#000000" }] }],
          captionsFile: ref,
        },
        inputs: { [ref]: `${worker.base}/files/huge.srt?sig=1` },
        output: { uploadUrl: `${worker.base}/out/huge.mp4`, format: "mp4" },
        callbackUrl: `${worker.base}/callback`,
      }),
    });
    expect(res.status).toBe(202);
    const final = await worker.final("job_huge_captions");
    const gap = stop();
    console.log(`[captions] 1,000,000 cues refused; the event loop's longest gap: ${Math.round(gap)} ms`);
    expect(final).toMatchObject({
      status: "failed",
      retryable: false,
      error: `captionsFile: the file is ${huge.length} bytes; a captions file may be at most ${CAPTIONS_FILE_MAX_BYTES} bytes (1 MiB)`,
    });
    // Parsing it on the main thread held the loop ~5 s; refusing it by its size takes next to nothing.
    expect(gap).toBeLessThan(1000);
  }, 120_000);

  it("refuses a file of more cues than drawn before parsing it, quickly and without holding the event loop", async () => {
    const path = join(dir, "many.srt");
    const many = srt(20_000);
    expect(many.length).toBeLessThan(CAPTIONS_FILE_MAX_BYTES);
    await writeFile(path, many);
    const stop = watchLoop();
    await expect(captionsFromFile(path, spec, 3600)).rejects.toThrow(
      `captionsFile: the file has 20000 cues; a captions file may have at most ${CAPTIONS_FILE_MAX_CUES}`,
    );
    expect(stop()).toBeLessThan(500);
  });

  it("parses a file at the limits on a worker thread: every cue, the event loop free meanwhile", async () => {
    const path = join(dir, "full.srt");
    await writeFile(path, srt(CAPTIONS_FILE_MAX_CUES));
    const stop = watchLoop();
    const cues = await readCaptionsFile(path);
    expect(stop()).toBeLessThan(500);
    expect(cues).toHaveLength(CAPTIONS_FILE_MAX_CUES);
    expect(cues[1]).toEqual({ start: 1, end: 1.5, lines: ["x"] });
  });
});

describe("a worker thread's task", () => {
  const BUSY = new URL("../helpers/busy-worker.ts", import.meta.url);

  it("is stopped at its time limit, and the event loop runs while it spins", async () => {
    const stop = watchLoop();
    const started = performance.now();
    await expect(runWorkerTask(BUSY, "spin", { what: "spinning", timeMs: 1000, heapMb: 32 })).rejects.toThrow(
      "spinning took longer than 1 s",
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
    expect(stop()).toBeLessThan(500);
  });

  it("is stopped at its heap ceiling, and when its signal aborts", async () => {
    await expect(runWorkerTask(BUSY, "hog", { what: "hogging", timeMs: 60_000, heapMb: 16 })).rejects.toThrow(
      "hogging needed more than 16 MB of memory",
    );
    const control = new AbortController();
    const spinning = runWorkerTask(BUSY, "spin", {
      what: "spinning",
      timeMs: 60_000,
      heapMb: 32,
      signal: control.signal,
    });
    control.abort(new Error("cancelled"));
    await expect(spinning).rejects.toThrow("cancelled");
  });
});
