/**
 * What one job may take from a renderer (issue 29), through the real HTTP routes: a job with many drawn
 * transitions holds at most two GL helpers at once and a bounded memory; a job whose processes pass its memory
 * share is stopped and fails for good (never handed to the next renderer); a `gl` shader that takes seconds a frame
 * on a long, tiny video ends at the deadline its planned length and size earn, within two minutes, not 17.
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VideoConfigSchema } from "@media-render/contract/config/video";
import { renderWork, videoDeadlineSeconds } from "@media-render/contract/deadline";
import { buildTimeline } from "@media-render/contract/timeline";
import { HELPERS_PER_JOB } from "../../src/video/gl/native-gl.ts";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { sampleTree } from "../helpers/process-tree.ts";
import { startTestServer, type TestServer } from "../helpers/start-test-server.ts";
import { startWorkerStandIn, type WorkerStandIn } from "../helpers/worker-stand-in.ts";
import { colorAt, near } from "../video/media-helpers.ts";
import { SLOW_SHADER_VIDEO, figure, scaled } from "./scale.ts";

let worker: WorkerStandIn;
const servers: TestServer[] = [];

beforeAll(async () => {
  worker = await startWorkerStandIn();
});

afterAll(async () => {
  for (const s of servers) await s.close();
  await worker.close();
  await closeBrowser();
});

const TOOLS = { tools: { ffmpeg: "5.1", ffprobe: "5.1", chromium: null } };
const server = async (overrides: Parameters<typeof startTestServer>[0] = {}) => {
  const s = await startTestServer(overrides, TOOLS);
  servers.push(s);
  return s;
};

/** The deadline the Worker sends for `config` (packages/contract/src/deadline.ts over its planned timeline). */
const deadlineOf = (config: unknown) => {
  const parsed = v.parse(VideoConfigSchema, config);
  return videoDeadlineSeconds(renderWork(parsed, buildTimeline(parsed)));
};

const offer = (to: TestServer, jobId: string, config: unknown, limits?: Record<string, number>) =>
  to.signedFetch("/render/video", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jobId,
      config,
      inputs: {},
      output: { uploadUrl: `${worker.base}/upload/${jobId}.mp4`, format: "mp4" },
      callbackUrl: `${worker.base}/callback`,
      attempt: 1,
      accountId: `acct-${jobId}`,
      ...(limits && { limits }),
    }),
  });

const ffmpegs = (): number[] => {
  try {
    return execFileSync("pgrep", ["-P", String(process.pid), "-x", "ffmpeg"], { encoding: "utf8" })
      .trim()
      .split("\n")
      .map(Number);
  } catch {
    return [];
  }
};

const MB = 2 ** 20;

describe("what one job may take from a renderer", () => {
  it("a job with many drawn transitions holds at most two helpers at once, and renders them all", async () => {
    const s = await server();
    // Full: the 99 transitions at 1280x720 (before: one helper each, all at once, ~3 GB); short: 12 at 320x180.
    const transitions = scaled(12, 99);
    const [width, height] = [scaled(320, 1280), scaled(180, 720)];
    const clips = Array.from({ length: transitions + 1 }, (_, i) => ({
      duration: 1,
      ...(i < transitions && { transition: { name: "cube", duration: 0.5 } }),
      layers: [{ type: "fill-color", color: i % 2 ? "#ff0000" : "#0000ff" }],
    }));
    const config = { width, height, fps: 25, clips };
    const sampling = sampleTree("gl-transition");
    const started = Date.now();
    expect((await offer(s, "many-cubes", config)).status).toBe(202);
    const final = await worker.final("many-cubes");
    const tookMs = Date.now() - started;
    const peak = sampling.stop();
    expect(final, JSON.stringify(final)).toMatchObject({ status: "completed" });
    expect(peak.count).toBeGreaterThan(0);
    expect(peak.count).toBeLessThanOrEqual(HELPERS_PER_JOB);
    // The job's processes: its ffmpeg runs and helpers (this file's renders use no browser).
    const own = (peak.byCommand.ffmpeg ?? 0) + (peak.byCommand["gl-transition"] ?? 0);
    expect(own).toBeLessThan(scaled(400, 1500) * MB);
    // The last cube, half way (clip j starts at frame 13 j; its cube half way at 13 j + 19): the next clip's face
    // turns in on the left.
    const out = join(s.config.tmpDir, "many-cubes.mp4");
    await writeFile(out, worker.puts.get("/upload/many-cubes.mp4")!.bytes);
    const j = transitions - 1;
    const next = (j + 1) % 2 ? [255, 0, 0] : [0, 0, 255];
    const left = await colorAt(out, (13 * j + 19) / 25 + 0.01, { x: 0.15, y: 0.3, w: 0.15, h: 0.3 });
    expect(near(left, next), `left of the last cube: ${left.join(",")}`).toBe(true);
    figure(
      `${transitions} cube transitions at ${width}x${height}: peak memory of the job's processes (MB)`,
      Math.round(own / MB),
    );
    figure(`${transitions} cube transitions at ${width}x${height}: most helpers at once`, peak.count);
    figure(`${transitions} cube transitions at ${width}x${height}: render time (ms)`, tookMs);
  }, 900_000);

  it("a job whose processes pass its memory share is stopped and fails for good, its ffmpeg gone", async () => {
    // A share smaller than a 1080p encode needs: the same job fits a renderer with the default share.
    const s = await server({ renderJobMemoryMb: 48 });
    const config = {
      width: 1920,
      height: 1080,
      fps: 30,
      clips: [{ duration: 60, layers: [{ type: "linear-gradient", colors: ["#ff0000", "#0000ff"] }] }],
    };
    const started = Date.now();
    expect((await offer(s, "memory-hog", config)).status).toBe(202);
    const final = await worker.final("memory-hog");
    const tookMs = Date.now() - started;
    expect(final).toMatchObject({
      status: "failed",
      retryable: false,
      error:
        "Rendering needed more than its 48 MB of memory and was stopped; no tokens were charged. Make the video smaller or use fewer clips and layers",
    });
    expect(ffmpegs()).toEqual([]);
    figure("job past a 48 MB memory share: failed for good after (ms)", tookMs);
  }, 120_000);

  it("a gl shader taking seconds a frame on a 64x64, 1 fps, 300 s video ends at its deadline, within two minutes", async () => {
    const s = await server();
    const config = SLOW_SHADER_VIDEO; // ~3 s a frame: 300 frames would hold the slot ~17 min
    // What the Worker sends for it: 67 s. The short form gives it 4 s (the same mechanism,
    // sooner: the slow shader spins the GPU process on both cores until the deadline).
    const earned = deadlineOf(config);
    expect(earned).toBe(67);
    const deadlineSeconds = scaled(4, earned);
    const started = Date.now();
    expect((await offer(s, "slow-shader", config, { maxDurationSeconds: 300, deadlineSeconds })).status).toBe(
      202,
    );
    const final = await worker.final("slow-shader");
    const slotMs = Date.now() - started;
    expect(final).toMatchObject({
      status: "failed",
      retryable: false,
      error: `Rendering took longer than its deadline of ${deadlineSeconds} s and was stopped; no tokens were charged`,
    });
    // The deadline, then the kill and the report: room for a machine twice as slow while the shader spins both cores
    // (idle: under a second past it). Not stopped, the job would hold the slot ~17 minutes.
    expect(slotMs).toBeLessThan(Math.min(120_000, deadlineSeconds * 1000 + 20_000));
    // The renderer reports the slot time; the Worker records it against the account's failed-render quota.
    expect(Number(final.metadata?.processingTime)).toBeGreaterThanOrEqual(deadlineSeconds * 1000);
    figure(`hostile gl shader (64x64, 1 fps, 300 s), deadline ${deadlineSeconds} s: slot held (ms)`, slotMs);
  }, 180_000);
});
