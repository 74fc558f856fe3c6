/**
 * One render of bench/chunks.ts in a process of its own, so that `taskset` can hold it to one core and its CPU
 * (this process, its ffmpeg runs, its Chromium) is its own: `node bench/_chunk-process.ts '<json>'` with
 * { config, outPath, workDir, chunk?, joinSegments? }; prints { wallMs, cpuMs } as its last line.
 * Not a bench itself (scripts/bench.mjs skips files starting with "_").
 */
import { cpuTimes } from "../renderer/src/lib/cpu-time.ts";
import { closeBrowser } from "../renderer/src/video/raster/browser.ts";
import { renderVideo, type RenderVideoOptions } from "../renderer/src/video/render.ts";

const args = JSON.parse(process.argv[2]!) as Pick<
  RenderVideoOptions,
  "config" | "outPath" | "workDir" | "chunk" | "joinSegments"
>;
const t0 = performance.now();
await renderVideo({ ...args, jobId: "job_bench_chunks", allowLocalFiles: true });
await closeBrowser();
const wallMs = Math.round(performance.now() - t0);
const cpu = cpuTimes()!;
console.log(JSON.stringify({ wallMs, cpuMs: cpu.selfMs + cpu.childrenMs }));
process.exit(0);
