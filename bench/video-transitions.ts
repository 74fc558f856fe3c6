/**
 * What a transition adds to a render: `node bench/video-transitions.ts` (Node 24) or `npm run bench video`.
 * The same 1280x720 @ 30 fps two-clip render (a video clip, then a photo; 2 s each) with a hard cut and
 * with a 0.5 s transition of each name, interleaved round by round (bench/_lib.ts). Each figure is the
 * round's render minus the same round's hard-cut render: the wall time the transition costs, whatever
 * it is spent on (the page, the frame exchange, a second ffmpeg pass). Budget: at most 0.5 s. Beside it, the CPU
 * the transition adds (this process and its ended children: the ffmpeg runs and the native helper; not Chromium),
 * which says why: on two cores already busy encoding, added wall time is mostly added CPU.
 * `BENCH_TRANSITIONS=cube,wipeLeft` picks the names. Each name drawn by its GLSL also runs as `name@page`:
 * drawn on the WebGL page instead of the native helper (GL_TRANSITIONS=page), in the same rounds.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { VideoConfigSchema } from "@media-render/contract/config/video";
import { DEFAULT_RENDER_TOOLS } from "../renderer/src/settings.ts";
import { drawnByGl, resolveTransition } from "../renderer/src/video/transitions.ts";
import { closeBrowser } from "../renderer/src/video/raster/browser.ts";
import { renderVideo } from "../renderer/src/video/render.ts";
import { conditions, interleave, loadNow, measured, median, spread, withCpu } from "./_lib.ts";

const FIX = process.env.FIXTURES_DIR ?? join(import.meta.dirname, "..", "..", "shared", "fixtures");
const NAMES = (process.env.BENCH_TRANSITIONS ?? "fade,wipeLeft,cube,CrossZoom").split(",");

const config = (transition: string | null) => {
  return v.parse(VideoConfigSchema, {
    width: 1280,
    height: 720,
    fps: 30,
    clips: [
      {
        duration: 2,
        transition: transition === null ? null : { name: transition, duration: 0.5 },
        layers: [{ type: "video", path: `${FIX}/kohlipe3.mp4`, cutFrom: 5 }],
      },
      { duration: 2, layers: [{ type: "image", path: `${FIX}/img2.jpg` }] },
    ],
  });
};

const main = async () => {
  console.log(conditions("video-transitions"));
  const dir = await mkdtemp(join(tmpdir(), "bench-transitions-"));
  let round = 0;
  /** CPU ms of each variant's renders (this process and its children: ffmpeg runs, the GL helper). */
  const cpu: Record<string, number[]> = {};
  const render =
    (label: string, transition: string | null, page = false) =>
    async () => {
      const work = await mkdtemp(join(dir, "w-"));
      try {
        await withCpu((cpu[label] ??= []), () =>
          renderVideo({
            tools: {
              ...DEFAULT_RENDER_TOOLS,
              glTransitionPath: page ? null : DEFAULT_RENDER_TOOLS.glTransitionPath,
            },
            jobId: `bench_tr_${round++}`,
            workDir: work,
            outPath: join(work, "out.mp4"),
            allowLocalFiles: true,
            config: config(transition),
          }),
        );
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    };
  try {
    const variants: Record<string, () => Promise<void>> = { cut: render("cut", null) };
    if (DEFAULT_RENDER_TOOLS.glTransitionPath === null)
      console.log("  (the native helper is not built: every drawn name runs on the page)");
    const labels: string[] = [];
    for (const n of NAMES) {
      labels.push(n);
      variants[n] = render(n, n);
      if (!drawnByGl(resolveTransition(n, "bench").name)) continue;
      labels.push(`${n}@page`);
      variants[`${n}@page`] = render(`${n}@page`, n, true);
    }
    const r = await interleave<string>("cut", variants, {
      warmup: 1,
      minRounds: 5,
      maxRounds: 9,
      targetIqr: 0.05,
    });
    console.log(
      `\n0.5 s transition vs hard cut, 1280x720 @ 30 fps, video 2 s + photo 2 s, ${r.rounds} interleaved rounds`,
    );
    console.log(
      `  hard cut render: ${spread(
        r.times.cut!.map((t) => t / 1000),
        " s",
      )}`,
    );
    // CPU says why: on two cores already busy encoding, what a transition adds to the wall is mostly the CPU it
    // adds (a second ffmpeg run for its frame pairs, the drawing), not waiting.
    const cutCpu = measured(cpu.cut!, r.rounds);
    for (const n of labels) {
      const added = r.times[n]!.map((t, i) => (t - r.times.cut![i]!) / 1000);
      const addedCpu = measured(cpu[n]!, r.rounds).map((c, i) => (c - cutCpu[i]!) / 1000);
      // The page's drawing runs in Chromium, a process that outlives the render: its CPU is not counted.
      const c = median(addedCpu);
      const cpuNote = n.endsWith("@page") ? "" : `; CPU ${c < 0 ? "" : "+"}${c.toFixed(2)} s`;
      console.log(`  ${n.padEnd(14)} adds ${spread(added, " s")}   budget <= 0.50 s${cpuNote}`);
    }
    console.log(`  load average after: ${loadNow()}`);
  } finally {
    await closeBrowser();
    await rm(dir, { recursive: true, force: true });
  }
};

await main();
