/**
 * Keyframes benchmark (issue 45 §1): `node bench/keyframes.ts` (Node 24) or `npm run bench keyframes`.
 * What a keyframed layer costs next to the same layer at rest: a 640x360 @ 25 fps, 4 s video of a photo under an
 * image overlay (a third of the frame wide), rendered with the overlay static (the baseline), with constant
 * opacity/rotation/scale (the same filters, evaluated once), and keyframed in position, opacity, scale, rotation,
 * and all four at once (every easing along the way). Interleaved rounds in this process, so each ratio compares
 * renders under the same load; CPU is this process's and its ffmpeg's.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { VideoConfigSchema } from "@media-render/contract/config/video";
import { renderVideo } from "../renderer/src/video/render.ts";
import { conditions, interleave, loadNow, measured, spread, withCpu } from "./_lib.ts";

const FIX = process.env.FIXTURES_DIR ?? join(import.meta.dirname, "..", "..", "shared", "fixtures");

/** Frames of each render (4 s at 25 fps). */
const FRAMES = 100;

const curve = (from: number, to: number) => [
  { time: 0, value: from, easing: "ease-in-out" },
  { time: 1, value: to, easing: "cubic-bezier(0.2, 0.8, 0.4, 1.2)" },
  { time: 2.5, value: (from + to) / 2, easing: "step" },
  { time: 3, value: to },
];

const VARIANTS: Record<string, Record<string, unknown>> = {
  static: {},
  "constant opacity, rotation, scale": { opacity: 0.7, rotation: 15, scale: 1.2 },
  "keyframed position": { position: { x: curve(0.2, 0.8), y: curve(0.3, 0.6) } },
  "keyframed opacity": { opacity: curve(0, 1) },
  "keyframed scale": { scale: curve(0.5, 1.5) },
  "keyframed rotation": { rotation: curve(-30, 60) },
  "keyframed all four": {
    position: { x: curve(0.2, 0.8), y: curve(0.3, 0.6) },
    opacity: curve(0, 1),
    scale: curve(0.5, 1.5),
    rotation: curve(-30, 60),
  },
};

const config = (motion: Record<string, unknown>) =>
  v.parse(VideoConfigSchema, {
    width: 640,
    height: 360,
    fps: 25,
    clips: [
      {
        duration: 4,
        layers: [
          { type: "image", path: `${FIX}/img2.jpg`, zoomDirection: null },
          {
            type: "image-overlay",
            path: `${FIX}/emoji.png`,
            width: 0.33,
            position: { x: 0.5, y: 0.5 },
            ...motion,
          },
        ],
      },
    ],
  });

const main = async () => {
  console.log(conditions("keyframes"));
  const dir = await mkdtemp(join(tmpdir(), "bench-keyframes-"));
  let n = 0;
  const cpu: Record<string, number[]> = {};
  const render = (name: string) => async () => {
    n++;
    const workDir = await mkdtemp(join(dir, "job-"));
    await withCpu((cpu[name] ??= []), () =>
      renderVideo({
        jobId: `bench_keyframes_${n}`,
        config: config(VARIANTS[name]!),
        workDir,
        outPath: join(dir, `out-${n}.mp4`),
        allowLocalFiles: true,
      }),
    );
    await rm(workDir, { recursive: true, force: true });
  };
  try {
    const r = await interleave(
      "static",
      Object.fromEntries(Object.keys(VARIANTS).map((k) => [k, render(k)])),
      {
        warmup: 1,
        minRounds: 5,
        maxRounds: 9,
      },
    );
    const base = measured(cpu.static!, r.rounds);
    for (const name of Object.keys(VARIANTS)) {
      const used = measured(cpu[name]!, r.rounds);
      const wall = spread(
        r.times[name]!.map((t) => t / 1000),
        " s",
      );
      const own = spread(
        used.map((t) => t / 1000),
        " s",
      );
      const ratio = spread(used.map((c, i) => c / base[i]!));
      const perFrame = spread(
        used.map((c, i) => (c - base[i]!) / FRAMES),
        " ms",
      );
      console.log(
        `${name.padEnd(34)} wall ${wall}; CPU ${own}; CPU / static ${ratio}; CPU a frame over static ${perFrame}`,
      );
    }
    console.log(`load average after: ${loadNow()}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

await main();
