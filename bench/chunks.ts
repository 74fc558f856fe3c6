/**
 * Parallel rendering benchmark (docs/parallel-rendering.md): `node bench/chunks.ts` or `npm run bench chunks`.
 * A minute of 1280x720 @ 30 fps (the editly-style clips of bench/video.ts repeated: title on a colour, Ken Burns
 * photo with a title, a cut of the HEVC fixture, 0.5 s fades), rendered whole by one renderer, and as CHUNKS chunks
 * rendered at once by CHUNKS renderers and joined. Each render is its own process held to one core with
 * `taskset -c <core>` (a renderer limited to one core); its CPU is that process's and its children's (ffmpeg,
 * Chromium), from /proc. Reported per round: the chunks' and the join's CPU over the single render's (target
 * <= 1.10x; warm renderers, as bench/_chunk-process.ts counts), and the wall time (slowest chunk + join) over the single render's. Rounds interleave the two.
 * BENCH_SECONDS (default 60) sets the length, CHUNKS (default: the cores, at most 4) the split, BENCH_MAX_ROUNDS
 * (default 3) the rounds.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import * as v from "valibot";
import { VideoConfigSchema } from "@media-render/contract/config/video";
import { conditions, loadNow, median, spread } from "./_lib.ts";

const FIX = process.env.FIXTURES_DIR ?? join(import.meta.dirname, "..", "..", "shared", "fixtures");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CORES = cpus().length;
const CHUNKS = Number(process.env.CHUNKS ?? Math.min(4, CORES));
const ROUNDS = Number(process.env.BENCH_MAX_ROUNDS ?? 3);
const FONT = `${FIX}/PatuaOne-Regular.ttf`;

const clips = [
  {
    duration: 3,
    layers: [
      { type: "fill-color", color: "#1d3557" },
      { type: "title", text: "Benchmark title" },
    ],
  },
  {
    duration: 3,
    layers: [
      { type: "image", path: `${FIX}/img2.jpg`, zoomDirection: "in" },
      { type: "title", text: "Photo with Ken Burns", position: "bottom" },
    ],
  },
  { duration: 3, layers: [{ type: "video", path: `${FIX}/kohlipe3.mp4`, cutFrom: 5, cutTo: 8 }] },
];
// n clips of 3 s with 0.5 s fades last 2.5 n + 0.5 s.
const count = Math.ceil((SECONDS - 0.5) / 2.5);
const config = v.parse(VideoConfigSchema, {
  width: 1280,
  height: 720,
  fps: 30,
  defaults: { transition: { name: "fade", duration: 0.5 }, layer: { fontPath: FONT } },
  clips: Array.from({ length: count }, (_, i) => clips[i % clips.length]),
});

const run = promisify(execFile);
const node = process.execPath;
const worker = join(import.meta.dirname, "_chunk-process.ts");

/** One render in its own process on `core`: its wall and CPU ms. */
const renderOn = async (core: number, args: Record<string, unknown>) => {
  const { stdout } = await run(
    "taskset",
    ["-c", String(core), node, worker, JSON.stringify({ config, ...args })],
    {
      maxBuffer: 64 * 2 ** 20,
    },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as {
    wallMs: number;
    cpuMs: number;
    processCpuMs: number;
  };
};

console.log(conditions("chunks"));
console.log(
  `${SECONDS} s of 1280x720 @ 30 fps (${count} clips), ${CHUNKS} chunks on cores 0..${CHUNKS - 1} (taskset, one core each) against one render on core 0, ${ROUNDS} rounds`,
);
const cpuRatio: number[] = [];
const processRatio: number[] = [];
const wallRatio: number[] = [];
const rows: string[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const dir = await mkdtemp(join(tmpdir(), "bench-chunks-"));
  try {
    const single = await renderOn(0, {
      outPath: join(dir, "single.mp4"),
      workDir: await mkdtemp(join(dir, "w")),
    });
    const chunks = await Promise.all(
      Array.from({ length: CHUNKS }, async (_, index) =>
        renderOn(index % CORES, {
          outPath: join(dir, `seg${index}.mp4`),
          workDir: await mkdtemp(join(dir, "w")),
          chunk: { index, count: CHUNKS },
        }),
      ),
    );
    const joined = await renderOn(0, {
      outPath: join(dir, "joined.mp4"),
      workDir: await mkdtemp(join(dir, "w")),
      joinSegments: chunks.map((_, i) => join(dir, `seg${i}.mp4`)),
    });
    const cpu = chunks.reduce((s, c) => s + c.cpuMs, 0) + joined.cpuMs;
    const wall = Math.max(...chunks.map((c) => c.wallMs)) + joined.wallMs;
    cpuRatio.push(cpu / single.cpuMs);
    const processCpu = chunks.reduce((s, c) => s + c.processCpuMs, 0) + joined.processCpuMs;
    processRatio.push(processCpu / single.processCpuMs);
    wallRatio.push(wall / single.wallMs);
    rows.push(
      `round ${round + 1} (wall/CPU/process CPU ms): single ${single.wallMs}/${single.cpuMs}/${single.processCpuMs}; chunks ${chunks.map((c) => `${c.wallMs}/${c.cpuMs}/${c.processCpuMs}`).join(", ")}; join ${joined.wallMs}/${joined.cpuMs}/${joined.processCpuMs}`,
    );
    console.log(rows.at(-1));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
console.log(`chunks' CPU / single render's CPU, warm renderers: ${spread(cpuRatio)} (target <= 1.10x)`);
console.log(`the same with each process's start-up, warm-up and Chromium: ${spread(processRatio)}`);
console.log(
  `wall with ${CHUNKS} renderers / wall with 1: ${spread(wallRatio)} (median ${median(wallRatio).toFixed(2)})`,
);
console.log(`load after: ${loadNow()}`);
