/**
 * One render of bench/chunks.ts in a process of its own, so that `taskset` can hold it to one core and its CPU is
 * its own: `node bench/_chunk-process.ts '<json>'` with { config, outPath, workDir, chunk?, joinSegments? }.
 * A one-second render of the config's first clip warms the process first (modules, JIT, browsers), as a running
 * renderer is; then prints, as its last line, { wallMs, cpuMs, processCpuMs }: the render's wall time, its CPU
 * (this process and its ffmpeg runs, as bench/video.ts counts it: Chromium's share of the text sheet is not in
 * it), and the whole process's CPU once its browsers closed (start-up, warm-up and Chromium included).
 * Not a bench itself (scripts/bench.mjs skips files starting with "_").
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { cpuTimes } from "../renderer/src/lib/cpu-time.ts";
import { closeBrowser } from "../renderer/src/video/raster/browser.ts";
import { renderVideo, type RenderVideoOptions } from "../renderer/src/video/render.ts";

const args = JSON.parse(process.argv[2]!) as Pick<
  RenderVideoOptions,
  "config" | "outPath" | "workDir" | "chunk" | "joinSegments"
>;
const base = { jobId: "job_bench_chunks", allowLocalFiles: true };
const warm = join(args.workDir, "warm");
await mkdir(warm);
await renderVideo({
  ...base,
  config: { ...args.config, clips: [{ ...args.config.clips[0]!, duration: 1 }] },
  workDir: warm,
  outPath: join(warm, "warm.mp4"),
});
const total = (c: NonNullable<ReturnType<typeof cpuTimes>>) => c.selfMs + c.childrenMs;
const c0 = cpuTimes()!;
const t0 = performance.now();
await renderVideo({ ...args, ...base });
const wallMs = Math.round(performance.now() - t0);
const cpuMs = total(cpuTimes()!) - total(c0);
await closeBrowser();
console.log(JSON.stringify({ wallMs, cpuMs, processCpuMs: total(cpuTimes()!) }));
process.exit(0);
