/**
 * One render of bench/chunks.ts (and bench/caption-chunks.ts) in a process of its own, so that `taskset` can hold it
 * to one core and its CPU is its own: `node bench/_chunk-process.ts '<json>'` with { config, outPath, workDir,
 * chunk?, joinSegments?, joinWords? }. A one-second render of the config's first clip warms the process first
 * (modules, JIT, browsers), as a running renderer is; then prints, as its last line, { wallMs, cpuMs, processCpuMs,
 * transcription, captions, words }: the render's wall time, its CPU (this process and its ffmpeg runs, as
 * bench/video.ts counts it: Chromium's share of the text sheet is not in it), the whole process's CPU once its
 * browsers closed (start-up, warm-up and Chromium included); with autoSubtitles, the recogniser's CPU and the seconds
 * of audio it heard, the captions' counts, and a chunk's words file (for the join).
 * Not a bench itself (scripts/bench.mjs skips files starting with "_").
 */
import { mkdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { cpuTimes } from "../renderer/src/lib/cpu-time.ts";
import { pocketsphinxTranscriber } from "../renderer/src/transcribe/pocketsphinx.ts";
import type { Transcriber } from "../renderer/src/transcribe/types.ts";
import { closeBrowser } from "../renderer/src/video/raster/browser.ts";
import { renderVideo, type RenderVideoOptions } from "../renderer/src/video/render.ts";

const args = JSON.parse(process.argv[2]!) as Pick<
  RenderVideoOptions,
  "config" | "outPath" | "workDir" | "chunk" | "joinSegments" | "joinWords"
>;

/**
 * The offline recogniser, counted: the CPU of its runs (children reaped while any part is being recognised: nothing
 * else of the render ends then) and the seconds of audio it heard.
 */
const heard = { cpuMs: 0, seconds: 0, parts: 0 };
const counted = (inner: Transcriber): Transcriber => {
  let running = 0;
  let since = 0;
  return {
    ...inner,
    async transcribe(wav, options) {
      if (running++ === 0) since = cpuTimes()!.childrenMs;
      heard.seconds += ((await stat(wav)).size - 44) / 32_000;
      heard.parts++;
      try {
        return await inner.transcribe(wav, options);
      } finally {
        if (--running === 0) heard.cpuMs += cpuTimes()!.childrenMs - since;
      }
    },
  };
};

const base = { jobId: "job_bench_chunks", allowLocalFiles: true };
const warm = join(args.workDir, "warm");
await mkdir(warm);
await renderVideo({
  ...base,
  config: { ...args.config, autoSubtitles: false, clips: [{ ...args.config.clips[0]!, duration: 1 }] },
  workDir: warm,
  outPath: join(warm, "warm.mp4"),
});
const total = (c: NonNullable<ReturnType<typeof cpuTimes>>) => c.selfMs + c.childrenMs;
const c0 = cpuTimes()!;
const t0 = performance.now();
const r = await renderVideo({ ...args, ...base, transcriber: counted(pocketsphinxTranscriber()) });
const wallMs = Math.round(performance.now() - t0);
const cpuMs = total(cpuTimes()!) - total(c0);
await closeBrowser();
console.log(
  JSON.stringify({
    wallMs,
    cpuMs,
    processCpuMs: total(cpuTimes()!),
    transcription: heard,
    captions: r.captions && { words: r.captions.words.length, cues: r.captions.cues.length },
    words: r.words,
  }),
);
process.exit(0);
