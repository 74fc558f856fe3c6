/**
 * The html parts of bench/video.ts, 1280x720 at 30 fps, 150 frames of a busy animation (CSS keyframes, a
 * requestAnimationFrame counter and a GSAP timeline):
 * - `html`: frames per second of the virtual-clock capture alone (beginFrame), and of a whole render of a 5 s
 *   animated html clip (capture + encode) by the job's own clock (RenderTimings.totalMs, what a job reports) and by
 *   the wall around it; then where the whole render's CPU goes, a frame: ffmpeg, the renderer's Node, and each
 *   kind of Chromium process of the capture browsers (read from /proc).
 * - `isolation`: what the isolation (launch-chromium.ts: the unprivileged user, Chromium's sandbox, no GL, DevTools
 *   over a pipe) costs the capture: the same pages and frames in the renderer's capture browsers and in browsers
 *   started as before it (021ad14): as this process's user, without the sandbox, with Chromium's GL fallback,
 *   DevTools over a websocket. Both load only this bench's own page.
 * Every figure is a spread over interleaved rounds; CPU figures hold up under load better than frame rates do.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";
import * as v from "valibot";
import { VideoConfigSchema, type VideoConfig } from "@media-render/contract/config/video";
import { DEFAULT_RENDER_TOOLS } from "../renderer/src/settings.ts";
import { videoSpec } from "../renderer/src/video/spec.ts";
import { openCapturePageIn } from "../renderer/src/video/html/capture-page.ts";
import { htmlLayerDocument } from "../renderer/src/video/html/page.ts";
import { rasterizeHtmlLayer } from "../renderer/src/video/html/rasterize-html.ts";
import { BEGIN_FRAME_FLAGS, BROWSER_FLAGS, getCaptureBrowser } from "../renderer/src/video/raster/browser.ts";
import { OFFLINE_CHROMIUM_FLAGS } from "../renderer/src/video/raster/launch-chromium.ts";
import { renderVideo } from "../renderer/src/video/render.ts";
import { interleave, measured, median, spread, treeCpu } from "./_lib.ts";

const [W, H, FPS, FRAMES] = [1280, 720, 30, 150];
const TOOLS = DEFAULT_RENDER_TOOLS;
const WORKERS = TOOLS.htmlCaptureWorkers;

/** A busy html animation: CSS keyframes, a requestAnimationFrame counter and a GSAP timeline. */
const HTML_LAYER = {
  type: "html" as const,
  animated: true,
  duration: 5,
  enableLibraries: true,
  html: `<style>body{margin:0;font:700 48px sans-serif;color:#fff}
.dot{position:absolute;width:80px;height:80px;border-radius:50%;background:linear-gradient(#f0a,#0af);animation:spin 2s linear infinite}
@keyframes spin{from{transform:rotate(0) translateX(200px)}to{transform:rotate(360deg) translateX(200px)}}</style>
<div class="dot" style="left:600px;top:320px"></div><div class="dot" style="left:600px;top:320px;animation-delay:-1s"></div>
<div id="n" style="position:absolute;left:40px;top:40px"></div><div id="bar" style="position:absolute;left:40px;top:620px;height:40px;width:10px;background:#fc0"></div>
<script>const n=document.getElementById("n");(function f(t){n.textContent="t = "+(t/1000).toFixed(2)+" s";requestAnimationFrame(f)})(0);
gsap.timeline({repeat:-1,yoyo:true}).to("#bar",{width:1200,duration:2.5,ease:"power2.inOut"})</script>`,
};

const parse = (raw: unknown): VideoConfig => v.parse(VideoConfigSchema, raw);
const LAYER_SPEC = videoSpec(parse({ width: W, height: H, fps: FPS, clips: [{ layers: [HTML_LAYER] }] }));
const CLIP = parse({
  width: W,
  height: H,
  fps: FPS,
  clips: [{ duration: FRAMES / FPS, layers: [{ type: "fill-color", color: "#203040" }, HTML_LAYER] }],
});

type Rounds = { warmup: number; minRounds: number; maxRounds: number };

/** The process ids of the renderer's capture browsers (launched now if they are not running). */
const captureBrowserPids = async (): Promise<number[]> =>
  Promise.all(
    Array.from(
      { length: WORKERS },
      async (_, slot) => (await getCaptureBrowser(TOOLS, slot)).process()!.pid!,
    ),
  );

/** `after - before` of treeCpu readings, per frame. */
const perFrame = (before: Record<string, number>, after: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(after).map(([k, ms]) => [k, (ms - (before[k] ?? 0)) / FRAMES]));

/** "browser 4.4, gpu-process 7.3, ...": the median ms a frame of each process kind over the rounds. */
const cpuLine = (rounds: Record<string, number>[]): string => {
  const kinds = [...new Set(rounds.flatMap((r) => Object.keys(r)))];
  const med = (k: string) => median(rounds.map((r) => r[k] ?? 0));
  return kinds
    .filter((k) => med(k) >= 0.05)
    .sort((a, b) => med(b) - med(a))
    .map((k) => `${k} ${med(k).toFixed(1)}`)
    .join(", ");
};

const sum = (r: Record<string, number>): number => Object.values(r).reduce((a, b) => a + b, 0);

export const benchHtml = async (dir: string, rounds: Rounds): Promise<string[]> => {
  const captureFps: number[] = [];
  const jobFps: number[] = [];
  const cpu: { ffmpeg: number; node: number; chromium: Record<string, number> }[] = [];
  const captureOnly = async () => {
    const work = await mkdtemp(join(dir, "h-"));
    await rasterizeHtmlLayer(
      LAYER_SPEC,
      { key: "g0", path: "globalLayers[0]", clip: -1, layer: HTML_LAYER, window: 5 },
      work,
      TOOLS,
      {
        stats: (s) => captureFps.push((s.frames / s.captureMs) * 1000),
      },
    );
    await rm(work, { recursive: true, force: true });
  };
  const whole = async () => {
    const work = await mkdtemp(join(dir, "hr-"));
    const pids = await captureBrowserPids();
    const c0 = treeCpu(pids);
    const t = (
      await renderVideo({ jobId: "bench-html", workDir: work, outPath: join(work, "html.mp4"), config: CLIP })
    ).timings;
    cpu.push({
      ffmpeg: (t.ffmpegCpuMs ?? NaN) / FRAMES,
      node: (t.nodeCpuMs ?? NaN) / FRAMES,
      chromium: perFrame(c0, treeCpu(pids)),
    });
    jobFps.push((FRAMES / t.totalMs) * 1000);
    await rm(work, { recursive: true, force: true });
  };
  const r = await interleave<"capture" | "whole">(
    "capture",
    { capture: captureOnly, whole },
    { ...rounds, targetIqr: 1 },
  );
  const n = r.rounds;
  const wallFps = r.times.whole.map((ms) => (FRAMES / ms) * 1000);
  const c = measured(cpu, n);
  const chromium = c.map((x) => x.chromium);
  return [
    `Html animation @${W}x${H}, ${FPS} fps virtual clock, ${FRAMES} frames, ${WORKERS} capture workers, ${n} rounds`,
    `  capture alone (beginFrame)              ${spread(measured(captureFps, n), " fps", 1)}   target >= 60`,
    `  whole 5 s html clip, the job's clock    ${spread(measured(jobFps, n), " fps", 1)}   target >= 50 (idle)`,
    `  whole 5 s html clip, wall around it     ${spread(wallFps, " fps", 1)}`,
    `  CPU a frame of the whole clip (median ms): ffmpeg ${median(c.map((x) => x.ffmpeg)).toFixed(1)}, Node ${median(c.map((x) => x.node)).toFixed(1)}, Chromium ${median(chromium.map(sum)).toFixed(1)} (${cpuLine(chromium)})`,
  ];
};

/**
 * Capture browsers as the renderer launched them before the isolation (021ad14^): this process's user, no
 * sandbox, Chromium's GL fallback left in (no --disable-3d-apis, --disable-software-rasterizer), DevTools over a
 * websocket. For this comparison only: the pages are this bench's own.
 */
const launchBare = (): Promise<Browser> =>
  puppeteer.launch({
    executablePath: TOOLS.chromiumPath,
    headless: "shell",
    args: ["--no-sandbox", ...OFFLINE_CHROMIUM_FLAGS, ...BROWSER_FLAGS, ...BEGIN_FRAME_FLAGS],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });

/** Captures the clip's frames in `browsers` as rasterizeHtmlLayer does: frame n by worker n mod workers. */
const captureIn = async (browsers: readonly Browser[], doc: string): Promise<number> => {
  const pages = await Promise.all(browsers.map((b) => openCapturePageIn(b, doc, W, H)));
  try {
    await Promise.all(pages.map((p) => p.page.evaluate(() => document.fonts.ready.then(() => undefined))));
    const t0 = performance.now();
    await Promise.all(
      pages.map(async (p, worker) => {
        let steps: number[] = [];
        for (let n = 0; n < FRAMES; n++) {
          steps.push((n * 1000) / FPS);
          if (n % pages.length !== worker) continue;
          await p.advance(steps);
          steps = [];
          await p.frame();
        }
      }),
    );
    return performance.now() - t0;
  } finally {
    await Promise.all(pages.map((p) => p.close()));
  }
};

export const benchIsolation = async (rounds: Rounds): Promise<string[]> => {
  const doc = htmlLayerDocument(LAYER_SPEC.clips[0]!.layers[0] as never, Date.UTC(2025, 0, 1));
  const isolated = await Promise.all(
    Array.from({ length: WORKERS }, (_, slot) => getCaptureBrowser(TOOLS, slot)),
  );
  const bare = await Promise.all(Array.from({ length: WORKERS }, () => launchBare()));
  try {
    const cpu: Record<"isolated" | "bare", Record<string, number>[]> = { isolated: [], bare: [] };
    const node: Record<"isolated" | "bare", number[]> = { isolated: [], bare: [] };
    const run = (name: "isolated" | "bare", browsers: Browser[]) => async () => {
      const pids = browsers.map((b) => b.process()!.pid!);
      const [c0, n0] = [treeCpu(pids), process.cpuUsage()];
      const ms = await captureIn(browsers, doc);
      const n1 = process.cpuUsage(n0);
      cpu[name].push(perFrame(c0, treeCpu(pids)));
      node[name].push((n1.user + n1.system) / 1000 / FRAMES);
      return ms;
    };
    const r = await interleave<"bare" | "isolated">(
      "bare",
      { bare: run("bare", bare), isolated: run("isolated", isolated) },
      rounds,
    );
    const n = r.rounds;
    const line = (name: "isolated" | "bare") => {
      const c = measured(cpu[name], n);
      return `    Chromium ${median(c.map(sum)).toFixed(1)} ms CPU a frame (${cpuLine(c)}), Node ${median(measured(node[name], n)).toFixed(1)}`;
    };
    const fps = (name: "isolated" | "bare") =>
      spread(
        r.times[name].map((ms) => (FRAMES / ms) * 1000),
        " fps",
        1,
      );
    return [
      `Html capture in the isolated browsers (user ${TOOLS.chromiumUser} when root, sandbox ${TOOLS.chromiumSandbox}, no GL, pipe) vs as before the isolation, ${n} rounds, ${WORKERS} workers`,
      `  before the isolation  ${fps("bare")}`,
      line("bare"),
      `  isolated (the renderer's)  ${fps("isolated")}`,
      line("isolated"),
      `  isolated / before, capture time ${spread(r.ratios.isolated)}`,
    ];
  } finally {
    await Promise.all(bare.map((b) => b.close().catch(() => {})));
  }
};
