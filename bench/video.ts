/**
 * Video benchmark: `node bench/video.ts` (Node 24) or `npm run bench video`. Prints its conditions first
 * (bench/_lib.ts), the load average after, and every ratio as a spread over interleaved rounds (each round runs
 * the baseline and the variant back to back, so both see the same machine), never a best run.
 * (What a transition drawn by its GLSL adds to a render is bench/video-transitions.ts, also run by `npm run bench video`.)
 * 1. The editly-style config (title on a colour, photo with title + Ken Burns, video clip; 3 s each, 0.5 s
 *    fades) at 1280x720 and 1920x1080 @ 30 fps against a bare ffmpeg encode of the SAME frames (decoded to raw
 *    beforehand) with the SAME encoder arguments: wall ratio and CPU ratio (user+sys of this process and its
 *    ended children: ffmpeg, ffprobe; Chromium's share of the text sheet is not in it). Then where the time
 *    goes: the render's own stage timings (RenderTimings) and ffmpeg's CPU split into decode (the inputs
 *    decoded alone), encode (the bare encode) and filters (the rest of the render's ffmpeg CPU).
 * 2. The independent check of issue 15: a 3-clip 1280x720 config (title on a colour, Ken Burns photo with a
 *    subtitle, a cut of the HEVC fixture, 0.5 s fades), the render's own clock (RenderTimings.totalMs) against
 *    a bare `libx264 -preset veryfast -crf 20` encode of its decoded output (x264's defaults otherwise).
 * 3. Html animation capture at 1280x720 (bench/_html-capture.ts): frames per second of the virtual-clock
 *    capture alone (beginFrame), and of a whole render of a 5 s animated html clip (capture + encode) by the job's
 *    clock, with where its CPU goes a frame; 4. what the browsers' isolation costs that capture.
 * BENCH_ONLY=video|check|html|isolation runs one part; BENCH_MAX_ROUNDS caps the interleaved rounds.
 * Reference (design/platform-notes.md): editly 0.14 takes ~6x the bare encode on config 1.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { VideoConfigSchema, type VideoConfig } from "@media-render/contract/config/video";
import { run } from "../renderer/src/lib/process.ts";
import { encoderArgs } from "../renderer/src/video/args.ts";
import { jpegLowres, OVERSAMPLE } from "../renderer/src/video/layers/image.ts";
import { toMediaInfo } from "../renderer/src/probe/media-facts.ts";
import { probeMedia } from "../renderer/src/probe/probe-media.ts";
import { closeBrowser, sparePageReady } from "../renderer/src/video/raster/browser.ts";
import { renderVideo, type RenderTimings } from "../renderer/src/video/render.ts";
import { benchHtml, benchIsolation } from "./_html-capture.ts";
import { conditions, cpuNow, interleave, loadNow, measured, median, spread, withCpu } from "./_lib.ts";

const FIX = process.env.FIXTURES_DIR ?? join(import.meta.dirname, "..", "..", "shared", "fixtures");
const ONLY = process.env.BENCH_ONLY;
const MAX_ROUNDS = Number(process.env.BENCH_MAX_ROUNDS ?? 12);
const ROUNDS = { warmup: 1, minRounds: 5, maxRounds: MAX_ROUNDS, targetIqr: 0.05 };
const FONT = `${FIX}/PatuaOne-Regular.ttf`;
const VIDEO = `${FIX}/kohlipe3.mp4`;

/** A config as the route hands it to the renderer: parsed by the contract's grammar. */
const parse = (raw: unknown): VideoConfig => v.parse(VideoConfigSchema, raw);

const config = (width: number, height: number): VideoConfig => {
  return parse({
    width,
    height,
    fps: 30,
    defaults: { transition: { name: "fade", duration: 0.5 }, layer: { fontPath: FONT } },
    clips: [
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
      { duration: 3, layers: [{ type: "video", path: VIDEO, cutFrom: 5 }] },
    ],
  });
};

/** Issue 15's independent check: title on colour, Ken Burns photo with subtitle, a cut of the HEVC fixture. */
const CHECK = parse({
  width: 1280,
  height: 720,
  fps: 30,
  defaults: { transition: { name: "fade", duration: 0.5 }, layer: { fontPath: FONT } },
  clips: [
    {
      duration: 3,
      layers: [
        { type: "fill-color", color: "#264653" },
        { type: "title", text: "Independent check" },
      ],
    },
    {
      duration: 3,
      layers: [
        { type: "image", path: `${FIX}/img2.jpg`, zoomDirection: "in" },
        { type: "subtitle", text: "A Ken Burns photo with a subtitle" },
      ],
    },
    { layers: [{ type: "video", path: VIDEO, cutFrom: 2, cutTo: 5 }] },
  ],
});

/** Renders `cfg` in a fresh work dir; the next job's text page (opened when a render ends) is kept off the clock. */
const render = async (dir: string, cfg: VideoConfig, outPath: string): Promise<RenderTimings> => {
  const work = await mkdtemp(join(dir, "w-"));
  try {
    const r = await renderVideo({
      jobId: "bench",
      config: cfg,
      workDir: work,
      outPath,
      allowLocalFiles: true,
    });
    return r.timings;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
};

/** Decodes `out` to raw yuv420p at `raw`; returns its duration in seconds. */
const decodeToRaw = async (out: string, raw: string): Promise<number> => {
  await run("ffmpeg", ["-v", "error", "-y", "-i", out, "-f", "rawvideo", "-pix_fmt", "yuv420p", raw]);
  const { stdout } = await run("ffprobe", [
    ...["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", out],
  ]);
  return Number(stdout.toString().trim());
};

const rawInput = (raw: string, width: number, height: number) => [
  ...["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", `${width}x${height}`],
  ...["-r", "30", "-i", raw],
];

const ms = (xs: number[]) => `${median(xs).toFixed(0)} ms`;
/** Median of CPU / wall over rounds, as a percentage (200% = two cores busy throughout). */
const busy = (cpu: number[], wall: number[]) =>
  `${(100 * median(cpu.map((c, i) => c / wall[i]!))).toFixed(0)}%`;

const benchSize = async (width: number, height: number, dir: string): Promise<string[]> => {
  const out = join(dir, `out-${width}.mp4`);
  const cfg = config(width, height);
  await render(dir, cfg, out); // warm-up: browser launch, page cache
  await sparePageReady();
  const raw = join(dir, `raw-${width}.yuv`);
  const duration = await decodeToRaw(out, raw);
  const cpu = { bare: [] as number[], render: [] as number[] };
  const stages: RenderTimings[] = [];
  const r = await interleave<"bare" | "render">(
    "bare",
    {
      bare: () =>
        withCpu(cpu.bare, () =>
          run("ffmpeg", [
            ...rawInput(raw, width, height),
            ...["-f", "lavfi", "-i", "anullsrc=r=48000:cl=stereo", "-map", "0:v", "-map", "1:a"],
            ...encoderArgs("mp4", false),
            ...["-t", String(duration), join(dir, "baseline.mp4")],
          ]),
        ).then(() => undefined),
      render: async () => {
        const c0 = cpuNow();
        const t0 = performance.now();
        stages.push(await render(dir, cfg, out));
        const wall = performance.now() - t0;
        cpu.render.push(cpuNow() - c0);
        await sparePageReady(); // the next job's text page: neither clock's
        return wall;
      },
    },
    ROUNDS,
  );
  // Decode alone: the render's inputs with its seeks and the photo's -lowres, no filters, no encoder.
  const photo = toMediaInfo(await probeMedia(`${FIX}/img2.jpg`, { ffprobePath: "ffprobe" }));
  const lowres = jpegLowres(photo, width * OVERSAMPLE, height * OVERSAMPLE);
  const decodeCpu: number[] = [];
  for (let i = 0; i < 3; i++)
    await withCpu(decodeCpu, () =>
      run("ffmpeg", [
        ...["-v", "error", ...lowres, "-i", `${FIX}/img2.jpg`, "-ss", "5", "-t", "3.033", "-i", VIDEO],
        ...["-map", "0:v", "-f", "null", "-", "-map", "1:v", "-f", "null", "-"],
      ]),
    );
  await rm(raw, { force: true });
  const n = r.rounds;
  const bareCpu = measured(cpu.bare, n);
  const renderCpu = measured(cpu.render, n);
  const st = measured(stages, n);
  const pick = (k: keyof RenderTimings) => st.map((s) => Number(s[k] ?? NaN)).filter((x) => !Number.isNaN(x));
  const ffCpu = median(pick("ffmpegCpuMs"));
  const dec = median(decodeCpu);
  const enc = median(bareCpu);
  return [
    `${width}x${height}, ${duration.toFixed(2)} s of video, ${n} interleaved rounds`,
    `  render vs bare encode, wall ${spread(r.ratios.render)}   target <= 1.15x`,
    `  render vs bare encode, CPU  ${spread(renderCpu.map((c, i) => c / bareCpu[i]!))}`,
    `  wall: render ${ms(r.times.render)}, bare ${ms(r.times.bare)}; CPU: render ${ms(renderCpu)}, bare ${ms(bareCpu)}`,
    `  cores busy (CPU / wall, ${cpus().length} cores): render ${busy(renderCpu, r.times.render)}, bare ${busy(bareCpu, r.times.bare)} (the wall ratio is the CPU ratio times bare's / render's)`,
    `  render stages (median): before ffmpeg ${ms(pick("startMs"))} (probe ${ms(pick("probeMs"))}, rasterise ${ms(pick("rasterizeMs"))}, text sheet ready ${ms(pick("sheetMs"))}, graph ${ms(pick("graphMs"))}), ffmpeg ${ms(pick("ffmpegMs"))} wall / ${ffCpu.toFixed(0)} ms CPU`,
    `  ffmpeg CPU split: decode ${dec.toFixed(0)} ms, filters ${(ffCpu - dec - enc).toFixed(0)} ms, encode ${enc.toFixed(0)} ms (decode: inputs alone; encode: the bare encode; filters: the rest)`,
  ];
};

const benchCheck = async (dir: string): Promise<string[]> => {
  const out = join(dir, "check.mp4");
  await render(dir, CHECK, out);
  await sparePageReady();
  const raw = join(dir, "check.yuv");
  await decodeToRaw(out, raw);
  const r = await interleave<"bare" | "job">(
    "bare",
    {
      bare: async () => {
        await run("ffmpeg", [
          ...rawInput(raw, 1280, 720),
          ...["-c:v", "libx264", "-preset", "veryfast", "-crf", "20", join(dir, "check-bare.mp4")],
        ]);
      },
      // The job's own clock: renderVideo's totalMs.
      job: async () => {
        const t = await render(dir, CHECK, out);
        await sparePageReady();
        return t.totalMs;
      },
    },
    ROUNDS,
  );
  await rm(raw, { force: true });
  return [
    `Independent 3-clip check @1280x720 (title on colour, Ken Burns photo + subtitle, HEVC cut, 0.5 s fades), ${r.rounds} rounds`,
    `  job clock vs bare x264 veryfast/crf 20 of its output ${spread(r.ratios.job)}   target <= 1.15x`,
    `  job ${ms(r.times.job)}, bare ${ms(r.times.bare)}`,
  ];
};

const main = async () => {
  console.log(conditions("video"));
  const dir = await mkdtemp(join(tmpdir(), "bench-video-"));
  const part = (name: string) => !ONLY || ONLY === name;
  try {
    const print = (lines: string[]) => console.log(`\n${lines.join("\n")}`);
    if (part("video")) {
      console.log(
        `\nVideo render vs bare encode (libx264 ${encoderArgs("mp4", false).slice(3, 6).join(" ")})`,
      );
      print(await benchSize(1280, 720, dir));
      print(await benchSize(1920, 1080, dir));
    }
    if (part("check")) print(await benchCheck(dir));
    if (part("html")) print(await benchHtml(dir, ROUNDS));
    if (part("isolation")) print(await benchIsolation(ROUNDS));
    console.log(`\nload average after: ${loadNow()}`);
  } finally {
    await closeBrowser();
    await rm(dir, { recursive: true, force: true });
  }
};

await main();
