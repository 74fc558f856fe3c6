/**
 * The whole service under renderer faults, the end-to-end suite's (`npm start` with two renderers, RENDERERS=2, on
 * free ports and a throw-away state; ./service.ts): renderers killed mid-job, an ffmpeg SIGKILLed, a renderer
 * frozen past its lease, every renderer unreachable for a while. Every job must end COMPLETED (after a hand-over to
 * a live renderer) or FAILED with nothing charged and its reserve back, within a printed time bound; the API stays
 * up throughout and npm start brings dead renderers back. Short in `npm test`, longer in `npm run faults`.
 */
import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { FULL, SLOW_SHADER_VIDEO, figure, scaled } from "../../../renderer/test/faults/scale.ts";
import { until } from "../../poll.ts";
import { serviceUnderTest, type Job } from "./service.ts";

const svc = serviceUnderTest("faults");
const { api, job, finished, running, pids } = svc;

beforeAll(svc.start);

const balance = async () =>
  (await api<{ usage: { totalAvailable: number } }>("/api/v1/billing/usage")).body.data.usage.totalAvailable;

/**
 * A job that keeps ffmpeg busy for a second or two on this machine: a 640x360 gradient of 16 s, 4 s of 720p, under
 * the suite's parallel-rendering threshold (5 s of 720p), so one renderer renders it whole.
 */
const createJob = async () => {
  const config = {
    width: 640,
    height: 360,
    fps: 30,
    clips: [{ duration: 16, layers: [{ type: "linear-gradient", colors: ["#ff0000", "#0000ff"] }] }],
  };
  const res = await api<{ jobId: string }>("/api/v1/jobs", {
    method: "POST",
    body: JSON.stringify({ type: "video", config }),
  });
  expect(res.status).toBe(201);
  return res.body.data.jobId;
};

/** The index of the renderer currently rendering (capacity report of /health), once one is. */
const busyRenderer = () =>
  until(
    "a renderer to be rendering",
    async () => {
      const i = (await running()).findIndex((n) => n > 0);
      return i >= 0 ? i : undefined;
    },
    60_000,
  );

const ffmpegOf = (pid: number): number | undefined => {
  try {
    return Number(
      execFileSync("pgrep", ["-P", String(pid), "-x", "ffmpeg"], { encoding: "utf8" }).split("\n")[0],
    );
  } catch {
    return undefined;
  }
};

/** A finished job is either rendered and charged, or failed with nothing charged. */
const settled = (j: Job) => {
  expect(["COMPLETED", "FAILED"]).toContain(j.status);
  if (j.status === "FAILED") {
    expect(j.tokensUsed).toBe(0);
    expect(j.errorMessage).not.toMatch(/\/tmp|progress=|speed=|frame=/);
  }
};

describe("the service under renderer faults (npm start, RENDERERS=2)", () => {
  it("a renderer killed mid-job, again and again: every job completes on the other or fails free", async () => {
    const kills = scaled(2, 5);
    const before = await balance();
    let charged = 0;
    let longest = 0;
    const outcomes: string[] = [];
    for (let k = 0; k < kills; k++) {
      const id = await createJob();
      const i = await busyRenderer();
      const killedAt = Date.now();
      process.kill(-pids()[i]!, "SIGKILL"); // the renderer's whole process group: node, ffmpeg, Chromium
      const j = await finished(id);
      longest = Math.max(longest, Date.now() - killedAt);
      settled(j);
      outcomes.push(j.status);
      charged += j.tokensUsed;
    }
    expect(await balance()).toBe(before - charged);
    expect(outcomes.filter((s) => s === "COMPLETED").length).toBe(kills);
    // Lease (10 s) + watch interval (5 s) + a render elsewhere, never the 15-minute sweep. The render elsewhere is
    // the part a busy 2-core CI stretches (62 s seen under a load average of 18), so the bound sits between the two
    // mechanisms rather than at the idle figure: the sweep would take five times longer than it.
    expect(longest).toBeLessThan(180_000);
    figure("renderer killed mid-job: jobs", kills);
    figure("renderer killed mid-job: outcomes", outcomes.join(","));
    figure("renderer killed mid-job: longest kill -> final status (ms; bound 180000)", longest);
    // The API stayed up, and npm start brought both renderers back.
    expect((await fetch(`${svc.state.base}/health`)).status).toBe(200);
    await svc.renderersBack();
  }, 600_000);

  it("an ffmpeg SIGKILLed: the job is handed over again and completes", async () => {
    const before = await balance();
    const id = await createJob();
    const i = await busyRenderer();
    const ffmpeg = await until("ffmpeg to start", async () => ffmpegOf(pids()[i]!), 30_000);
    const killedAt = Date.now();
    process.kill(ffmpeg, "SIGKILL");
    const j = await finished(id);
    expect(j).toMatchObject({ status: "COMPLETED", errorMessage: null });
    expect(await balance()).toBe(before - j.tokensUsed);
    figure("ffmpeg SIGKILLed: kill -> COMPLETED (ms)", Date.now() - killedAt);
  }, 300_000);

  it("a renderer frozen past its lease: the job moves to the other renderer and completes", async () => {
    const id = await createJob();
    const i = await busyRenderer();
    const frozenAt = Date.now();
    process.kill(-pids()[i]!, "SIGSTOP");
    try {
      const j = await finished(id);
      expect(j.status).toBe("COMPLETED");
      figure("renderer frozen: freeze -> COMPLETED elsewhere (ms)", Date.now() - frozenAt);
    } finally {
      process.kill(-pids()[i]!, "SIGCONT");
    }
  }, 300_000);

  it("every renderer unreachable for a while: jobs wait on the queue and complete once they are back", async () => {
    const outageMs = scaled(15_000, 60_000);
    const jobs = scaled(2, 4);
    const before = await balance();
    for (const pid of pids()) process.kill(-pid, "SIGSTOP");
    const stoppedAt = Date.now();
    const ids: string[] = [];
    try {
      for (let n = 0; n < jobs; n++) ids.push(await createJob()); // the API answers while no renderer does
      await new Promise((r) => setTimeout(r, outageMs - (Date.now() - stoppedAt)));
      for (const id of ids) expect((await job(id)).status).not.toBe("FAILED");
    } finally {
      for (const pid of pids()) process.kill(-pid, "SIGCONT");
    }
    const backAt = Date.now();
    let charged = 0;
    for (const id of ids) {
      const j = await finished(id, 180_000);
      expect(j.status).toBe("COMPLETED");
      charged += j.tokensUsed;
    }
    expect(await balance()).toBe(before - charged);
    figure("renderers unreachable: outage (s)", outageMs / 1000);
    figure(`renderers unreachable: ${jobs} jobs completed after they came back (ms)`, Date.now() - backAt);
  }, 600_000);

  // Full scale only: the deadline the Worker sends this job is 67 s (packages/contract/src/deadline.ts); the renderer's
  // short form of the same case (render-limits.test.ts) gives it 4 s.
  it.runIf(FULL)(
    "a gl shader taking seconds a frame on a 64x64, 1 fps, 300 s video FAILS within two minutes, charged nothing",
    async () => {
      const config = SLOW_SHADER_VIDEO;
      const before = await balance();
      const created = await api<{ jobId: string; estimatedTokens: number }>("/api/v1/jobs", {
        method: "POST",
        body: JSON.stringify({ type: "video", config }),
      });
      expect(created.status).toBe(201);
      const createdAt = Date.now();
      const j = await finished(created.body.data.jobId, 180_000);
      const tookMs = Date.now() - createdAt;
      expect(j).toMatchObject({
        status: "FAILED",
        tokensUsed: 0,
        errorMessage:
          "Rendering took longer than its deadline of 67 s and was stopped; no tokens were charged",
      });
      expect(tookMs).toBeLessThan(120_000);
      expect(await balance()).toBe(before);
      figure("hostile gl shader (64x64, 1 fps, 300 s) through the API: created -> FAILED (ms)", tookMs);
      figure("hostile gl shader: tokens reserved, then charged", `${created.body.data.estimatedTokens}, 0`);
    },
    300_000,
  );
});
