/**
 * Parallel rendering through the whole service (docs/parallel-rendering.md), started as `npm start` starts it with
 * two renderers (RENDERERS=2) and a threshold low enough that a 10 s 720p job splits in two: both renderers render
 * a chunk at once, the join stores one video of every frame, charged as one render; a renderer killed while it
 * holds a chunk loses only that chunk, which is handed over alone, and the job completes.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { estimateVideoTokens } from "@media-render/contract/config/estimate";
import { freePort, startProcess, stopProcess, waitForUrl } from "../../../scripts/lib/processes.mjs";
import { figure } from "./scale.ts";

const root = process.cwd();
const node = join(root, "node_modules", ".bin", "node");
let service: ChildProcess;
let base = "";
let key = "";
let stateDir = "";
let pidsFile = "";
let rendererPorts: number[] = [];

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), "mrs-chunks-"));
  pidsFile = join(stateDir, "renderers.json");
  const port = await freePort();
  let first = await freePort();
  while (first + 1 === port) first = await freePort();
  rendererPorts = [first, first + 1];
  const env = {
    PORT: String(port),
    RENDERER_PORT: String(first),
    RENDERERS: "2",
    STATE_DIR: stateDir,
    RENDERER_PIDS_FILE: pidsFile,
    // 5 s of 720p: the 10 s job below splits into two chunks.
    PARALLEL_RENDER_MIN_WORK: String(5 * 1280 * 720),
  };
  service = startProcess("service", node, [join(root, "scripts", "start.mjs")], {
    cwd: root,
    env,
    quiet: !process.env.FAULTS_VERBOSE,
  });
  base = `http://127.0.0.1:${port}`;
  await waitForUrl(`${base}/health`, 170_000, service);
  const out = execFileSync(
    node,
    [join(root, "scripts", "key.mjs"), "--email", "chunks@example.com", "--plan", "pro"],
    { cwd: root, env: { ...process.env, ...env }, encoding: "utf8" },
  );
  key = out.trim().split("\n").at(-1)!;
}, 200_000);

afterAll(async () => {
  await stopProcess(service, 10_000);
  rmSync(stateDir, { recursive: true, force: true });
});

const api = async <T = Record<string, unknown>>(path: string, init: RequestInit = {}) => {
  const res = await fetch(`${base}${path}`, {
    ...init,
    headers: { "x-api-key": key, "content-type": "application/json", ...init.headers },
  });
  return { status: res.status, body: (await res.json()) as { data: T } };
};

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

interface Job {
  status: string;
  tokensUsed: number;
  errorMessage: string | null;
  outputFileId: string | null;
  progress: { percent: number; stage: string | null } | null;
}

const job = async (id: string) => (await api<Job>(`/api/v1/jobs/${id}`)).body.data;

const until = async <T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

/** Polls the job to its end, noting every progress percent seen. */
const finished = async (id: string, percents: number[] = []) =>
  until(
    `job ${id} to finish`,
    async () => {
      const j = await job(id);
      if (j.progress) percents.push(j.progress.percent);
      return j.status === "COMPLETED" || j.status === "FAILED" ? j : undefined;
    },
    240_000,
  );

/** How many renders each renderer runs now (/health capacity). */
const running = async () =>
  Promise.all(
    rendererPorts.map(async (port) => {
      const h = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) })
        .then((r) => r.json() as Promise<{ capacity: { running: number } }>)
        .catch(() => null);
      return h?.capacity.running ?? 0;
    }),
  );

const pids = (): number[] =>
  (JSON.parse(readFileSync(pidsFile, "utf8")) as { pid: number }[]).map((r) => r.pid);

/** Frames of the job's stored output, decoded and counted by ffprobe. */
const framesOf = async (j: Job): Promise<number> => {
  const res = await fetch(`${base}/api/v1/files/${j.outputFileId}/download`, {
    headers: { "x-api-key": key },
  });
  expect(res.status).toBe(200);
  const file = join(stateDir, `${j.outputFileId}.mp4`);
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
    const killedAt = Date.now();
    process.kill(-pids()[0]!, "SIGKILL"); // the renderer's whole process group: node, ffmpeg, Chromium
    const j = await finished(id);
    expect(j).toMatchObject({ status: "COMPLETED", errorMessage: null });
    expect(j.tokensUsed).toBe(estimateVideoTokens(SECONDS, false));
    expect(await framesOf(j)).toBe(SECONDS * FPS);
    figure("renderer holding a chunk killed: kill -> COMPLETED (ms)", Date.now() - killedAt);
    for (const port of rendererPorts) await waitForUrl(`http://127.0.0.1:${port}/health`, 30_000);
  }, 300_000);
});
