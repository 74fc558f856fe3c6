/**
 * Parallel rendering through the whole service (docs/parallel-rendering.md), the end-to-end suite's (`npm start`
 * with two renderers, RENDERERS=2, and a threshold low enough that a 10 s 720p job splits in two; ./service.ts): both renderers render
 * a chunk at once, the join stores one video of every frame, charged as one render; a renderer killed while it
 * holds a chunk it has not finished loses only that chunk, which is handed over alone (rendered again: the renderers'
 * count of finished renders shows it), and the job completes.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { estimateVideoTokens } from "@media-render/contract/config/estimate";
import { figure } from "../../../renderer/test/faults/scale.ts";
import { until } from "../../poll.ts";
import { serviceUnderTest, type Job } from "./service.ts";

// The suite's service splits from 5 s of 720p (PARALLEL_RENDER_MIN_WORK, global-setup.ts): the 10 s job below
// splits into two chunks.
const svc = serviceUnderTest("chunks");
const { api, running, capacities, pids } = svc;

beforeAll(svc.start);

/** Polls the job to its end (a split job may take its chunks' hand-overs), noting every progress percent seen. */
const finished = (id: string, percents: number[] = []) => svc.finished(id, 240_000, percents);

const SECONDS = 10;
const FPS = 30;

const createJob = async () => {
  const config = {
    width: 1280,
    height: 720,
    fps: FPS,
    clips: [
      {
        duration: SECONDS / 2,
        transition: { name: "fade", duration: 1 },
        layers: [{ type: "linear-gradient", colors: ["#ff0000", "#0000ff"] }],
      },
      { duration: SECONDS / 2 + 1, layers: [{ type: "linear-gradient", colors: ["#00ff00", "#ffffff"] }] },
    ],
  };
  const res = await api<{ jobId: string }>("/api/v1/jobs", {
    method: "POST",
    body: JSON.stringify({ type: "video", config }),
  });
  expect(res.status).toBe(201);
  return res.body.data.jobId;
};

/** Frames of the job's stored output, decoded and counted by ffprobe. */
const framesOf = async (j: Job): Promise<number> => {
  const res = await fetch(`${svc.state.base}/api/v1/files/${j.outputFileId}/download`, {
    headers: { "x-api-key": svc.state.key },
  });
  expect(res.status).toBe(200);
  const file = join(svc.state.stateDir, `${j.outputFileId}.mp4`);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  const out = execFileSync(
    "ffprobe",
    [
      "-v",
      "error",
      "-count_frames",
      "-select_streams",
      "v",
      "-show_entries",
      "stream=nb_read_frames",
      "-of",
      "csv=p=0",
      file,
    ],
    { encoding: "utf8" },
  );
  return Number(out.trim());
};

describe("parallel rendering (npm start, RENDERERS=2)", () => {
  it("renders a long job as chunks on both renderers at once, joined into every frame, charged as one render", async () => {
    const id = await createJob();
    const started = Date.now();
    // Both renderers render at the same time: a chunk each.
    await until(
      "both renderers to render a chunk",
      async () => ((await running()).every((n) => n > 0) ? true : undefined),
      60_000,
    );
    const percents: number[] = [];
    const j = await finished(id, percents);
    expect(j).toMatchObject({ status: "COMPLETED", errorMessage: null });
    expect(j.tokensUsed).toBe(estimateVideoTokens(SECONDS, false));
    expect(await framesOf(j)).toBe(SECONDS * FPS);
    // Progress is the whole job's: it never goes back.
    for (let i = 1; i < percents.length; i++) expect(percents[i]).toBeGreaterThanOrEqual(percents[i - 1]!);
    figure("chunked job (2 chunks): created -> COMPLETED (ms)", Date.now() - started);
  }, 300_000);

  it("a renderer killed while it holds one chunk: that chunk alone is handed over and the job completes", async () => {
    const id = await createJob();
    await until(
      "both renderers to render a chunk",
      async () => ((await running()).every((n) => n > 0) ? true : undefined),
      60_000,
    );
    // The kill lands mid-chunk: renderer 0 holds a chunk it has not finished, and the job is short of its join.
    const before = await capacities();
    const killedAt = Date.now();
    process.kill(-pids()[0]!, "SIGKILL"); // the renderer's whole process group: node, ffmpeg, Chromium
    expect(before[0]!.running).toBeGreaterThan(0);
    expect((await svc.job(id)).progress?.percent ?? 0).toBeLessThan(90);
    const j = await finished(id);
    expect(j).toMatchObject({ status: "COMPLETED", errorMessage: null });
    // And its chunk was handed over: three renders finished since the kill (the other chunk, the lost chunk rendered
    // again, the join), where a chunk that had finished before the kill would leave two. Renderer 0 counts from its
    // restart.
    // (A renderer counts a render once its final report is sent: the count may trail the job's completion.)
    await svc.renderersBack();
    const since = async () => {
      const after = await capacities();
      return after[0]!.finished + after[1]!.finished - before[1]!.finished;
    };
    await until(
      "three renders finished since the kill",
      async () => ((await since()) >= 3 ? true : undefined),
      30_000,
    );
    expect(await since()).toBe(3);
    expect(j.tokensUsed).toBe(estimateVideoTokens(SECONDS, false));
    expect(await framesOf(j)).toBe(SECONDS * FPS);
    figure("renderer holding a chunk killed: kill -> COMPLETED (ms)", Date.now() - killedAt);
    await svc.renderersBack();
  }, 300_000);
});
