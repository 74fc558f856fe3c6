/**
 * Frame-addressable rendering (issue 41): `npm run bench windows` (`node bench/windows.ts` on Node 24).
 *
 * An edit like a user's, BENCH_MINUTES long (default 2; the issue also asks for 10): Ken Burns photos with titles,
 * cuts of the HEVC fixture, titles on colour, 0.5 s fades, between two identical bookend clips (so that the same part
 * at the start and at the end draws the same content), at 25 fps, at each size of BENCH_SIZES (default
 * "1280x720,1920x1080"). Each render is measured by the CPU of this process's whole tree (Node, its ffmpeg runs and
 * the Chromium that draws text), read from /proc before and after, on a warm renderer (two unmeasured stills first):
 *
 * 1. a still (PNG) at 2 % of the timeline and at 95 %: the CPU ratio (goal <= 1.3x);
 * 2. a 5 s `preview` at the start and at the end (goal <= 1.3x);
 * 3. the single render, then the same timeline as N = 2, 4 and 8 chunks (BENCH_CHUNKS), each chunk rendered alone
 *    one after another, and their join: chunks + join over the single render (goal <= 1.08x) and the costliest chunk
 *    over its fair share, single / N (goal <= 1.2x);
 * 4. what the capacity model needs: each chunk's CPU and wall, the join's CPU and wall, the segments' bytes.
 *
 * BENCH_ROUNDS (default 1) repeats 1-3; stills and previews take BENCH_PART_ROUNDS (default 3) each round,
 * interleaved. CPU ratios are what to read on a loaded machine: wall times there say how busy it was. Prints a JSON
 * line per size at the end (docs/capacity.md's model reads them).
 */
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { VideoConfigSchema, type VideoConfig } from "@media-render/contract/config/video";
import { buildTimeline } from "@media-render/contract/timeline";
import { closeBrowser } from "../renderer/src/video/raster/browser.ts";
import { renderVideo, type RenderVideoOptions } from "../renderer/src/video/render.ts";
import { editConfig } from "./_edit.ts";
import { conditions, loadNow, median, spread, treeCpu } from "./_lib.ts";

/** CPU seconds this process's tree (Node, ffmpeg, Chromium) has used so far. */
const treeCpuSeconds = () => Object.values(treeCpu([process.pid])).reduce((a, b) => a + b, 0) / 1000;

const FIX = process.env.FIXTURES_DIR ?? join(import.meta.dirname, "..", "..", "shared", "fixtures");
const MINUTES = Number(process.env.BENCH_MINUTES ?? 2);
const SIZES = (process.env.BENCH_SIZES ?? "1280x720,1920x1080")
  .split(",")
  .map((s) => s.split("x").map(Number));
const CHUNKS = (process.env.BENCH_CHUNKS ?? "2,4,8").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const PART_ROUNDS = Number(process.env.BENCH_PART_ROUNDS ?? 3);
const FPS = 25;

/** The edit (bench/_edit.ts) at `width` x `height`, with the fixtures' files and font, parsed as the renderer gets it. */
const edit = (width: number, height: number, extra: Partial<VideoConfig> = {}): VideoConfig =>
  v.parse(VideoConfigSchema, {
    ...editConfig({
      seconds: MINUTES * 60,
      width,
      height,
      fps: FPS,
      photo: `${FIX}/img2.jpg`,
      video: `${FIX}/kohlipe3.mp4`,
      font: `${FIX}/PatuaOne-Regular.ttf`,
    }),
    ...extra,
  });

let dir = "";
let n = 0;
/** Renders once; its tree's CPU seconds, wall seconds and output bytes. */
const measure = async (o: Omit<RenderVideoOptions, "jobId" | "workDir" | "outPath">, ext = "mp4") => {
  n++;
  const workDir = await mkdtemp(join(dir, "job-"));
  const outPath = join(dir, `out-${n}.${ext}`);
  const cpu0 = treeCpuSeconds();
  const t0 = performance.now();
  await renderVideo({ ...o, jobId: `bench_windows_${n}`, workDir, outPath, allowLocalFiles: true });
  const wall = (performance.now() - t0) / 1000;
  const cpu = treeCpuSeconds() - cpu0;
  return { cpu, wall, bytes: (await stat(outPath)).size, outPath };
};

const f2 = (x: number) => x.toFixed(2);

const main = async () => {
  console.log(conditions("windows"));
  console.log(
    `${MINUTES} min edits at ${SIZES.map((s) => s.join("x")).join(", ")}, ${FPS} fps; chunks ${CHUNKS.join(", ")}; ${ROUNDS} round(s), ${PART_ROUNDS} per part`,
  );
  dir = await mkdtemp(join(tmpdir(), "bench-windows-"));
  const summary: Record<string, unknown>[] = [];
  try {
    for (const [width, height] of SIZES) {
      const size = `${width}x${height}`;
      const config = edit(width!, height!);
      const duration = Math.round(buildTimeline(config, { videoLength: () => null }).duration * 100) / 100;
      const early = Math.round(duration * 0.02 * 100) / 100;
      const late = Math.round(duration * 0.95 * 100) / 100;
      // Warm: modules, Chromium's text page, the page cache of the inputs.
      for (const time of [early, late])
        await measure({ config: edit(width!, height!, { still: { time } }) }, "png");
      const parts: Record<string, number[]> = {};
      const partOf = async (name: string, extra: Partial<VideoConfig>, ext = "mp4") =>
        (parts[name] ??= []).push((await measure({ config: edit(width!, height!, extra) }, ext)).cpu);
      const ratios: Record<string, number[]> = { still: [], preview: [], chunks: [], costliest: [] };
      const rows: Record<string, unknown>[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < PART_ROUNDS; i++) {
          await partOf(`still at ${early} s`, { still: { time: early } }, "png");
          await partOf(`still at ${late} s`, { still: { time: late } }, "png");
          await partOf("preview 0-5 s", { preview: { from: 0, to: 5 } });
          await partOf(`preview ${duration - 5}-${duration} s`, {
            preview: { from: duration - 5, to: duration },
          });
        }
        const [stillEarly, stillLate, previewStart, previewEnd] = Object.values(parts).map((xs) =>
          median(xs.slice(-PART_ROUNDS)),
        );
        ratios.still!.push(stillLate! / stillEarly!);
        ratios.preview!.push(previewEnd! / previewStart!);
        const single = await measure({ config });
        console.log(
          `${size} single: CPU ${f2(single.cpu)} s, wall ${f2(single.wall)} s, ${single.bytes} bytes`,
        );
        for (const count of CHUNKS) {
          const chunks = [];
          for (let index = 0; index < count; index++)
            chunks.push(await measure({ config, chunk: { index, count } }));
          const joined = await measure({ config, joinSegments: chunks.map((c) => c.outPath) });
          const total = chunks.reduce((s, c) => s + c.cpu, 0) + joined.cpu;
          const costliest = Math.max(...chunks.map((c) => c.cpu));
          ratios.chunks!.push(total / single.cpu);
          ratios.costliest!.push(costliest / (single.cpu / count));
          const row = {
            size,
            minutes: MINUTES,
            chunks: count,
            singleCpu: single.cpu,
            singleWall: single.wall,
            chunkCpu: chunks.map((c) => c.cpu),
            chunkWall: chunks.map((c) => c.wall),
            segmentBytes: chunks.map((c) => c.bytes),
            joinCpu: joined.cpu,
            joinWall: joined.wall,
            outputBytes: joined.bytes,
          };
          rows.push(row);
          console.log(
            `${size} N=${count}: chunks + join / single CPU ${f2(total / single.cpu)}x; costliest chunk / fair share ${f2(costliest / (single.cpu / count))}x; chunk CPU ${chunks.map((c) => f2(c.cpu)).join(" ")} s; join CPU ${f2(joined.cpu)} s, wall ${f2(joined.wall)} s`,
          );
          for (const c of chunks) await rm(c.outPath, { force: true });
          await rm(joined.outPath, { force: true });
        }
        await rm(single.outPath, { force: true });
      }
      for (const [name, xs] of Object.entries(parts)) console.log(`${size} ${name}: CPU ${spread(xs, " s")}`);
      console.log(`${size} still at 95 % / at 2 %: ${spread(ratios.still!)} (goal <= 1.3x)`);
      // A chunk's fixed cost is about a still's (inputs probed, graph compiled, processes started, one frame); its
      // work grows with its seconds at the single render's CPU per second.
      const fixed = median(Object.values(parts)[0]!);
      const perSecond = (rows[0]?.singleCpu as number) / duration;
      console.log(
        `${size} fixed cost ~${f2(fixed)} s CPU a render, ${f2(perSecond)} s CPU per second of video: a chunk of at least ${f2((20 * fixed) / perSecond)} s keeps it under 5 %`,
      );
      console.log(`${size} 5 s preview at the end / at the start: ${spread(ratios.preview!)} (goal <= 1.3x)`);
      for (const count of CHUNKS) {
        const at = rows.filter((r) => r.chunks === count);
        const total = at
          .map((r) => (r.chunkCpu as number[]).reduce((s, c) => s + c, 0) + (r.joinCpu as number))
          .map((t, i) => t / (at[i]!.singleCpu as number));
        const worst = at.map(
          (r) => Math.max(...(r.chunkCpu as number[])) / ((r.singleCpu as number) / count),
        );
        console.log(
          `${size} N=${count}: chunks + join / single ${spread(total)} (goal <= 1.08x); costliest / fair share ${spread(worst)} (goal <= 1.2x)`,
        );
      }
      summary.push(...rows);
    }
    console.log(`load average after: ${loadNow()}`);
    for (const row of summary) console.log(`windows-row ${JSON.stringify(row)}`);
  } finally {
    await closeBrowser();
    await rm(dir, { recursive: true, force: true });
  }
};

await main();
