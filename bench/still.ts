/**
 * Stills benchmark: `node bench/still.ts` (Node 24) or `npm run bench still`.
 * One frame of a 1280x720 @ 25 fps, 10 s video config (a Ken Burns photo, a title, the fixture video, fade
 * transitions) rendered as a PNG still (`still: { time }`) at 0.5 s, 4.5 s and 9.5 s, on a warm renderer (the same
 * process: Chromium's text page and the page cache warm after two unmeasured rounds), interleaved with the full
 * video render of the same config. The target: a 720p still under 1 s.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { VideoConfigSchema } from "@media-render/contract/config/video";
import { closeBrowser } from "../renderer/src/video/raster/browser.ts";
import { renderVideo } from "../renderer/src/video/render.ts";
import { conditions, interleave, loadNow, measured, spread, withCpu } from "./_lib.ts";

const FIX = process.env.FIXTURES_DIR ?? join(import.meta.dirname, "..", "..", "shared", "fixtures");

const config = (still?: number) =>
  v.parse(VideoConfigSchema, {
    width: 1280,
    height: 720,
    fps: 25,
    defaults: { transition: { name: "fade", duration: 0.4 } },
    clips: [
      {
        duration: 4,
        layers: [
          { type: "image", path: `${FIX}/img2.jpg`, zoomDirection: "in" },
          { type: "title", text: "A still of the playhead", position: "bottom" },
        ],
      },
      { duration: 3.4, layers: [{ type: "video", path: `${FIX}/kohlipe3.mp4` }] },
      {
        duration: 3.4,
        layers: [
          { type: "fill-color", color: "#204060" },
          { type: "title", text: "The end" },
        ],
      },
    ],
    ...(still !== undefined && { still: { time: still } }),
  });

const main = async () => {
  console.log(conditions("still"));
  const dir = await mkdtemp(join(tmpdir(), "bench-still-"));
  let n = 0;
  // CPU seconds of each render (this process and its ffmpeg): what a loaded machine's wall time hides.
  const cpu: Record<string, number[]> = {};
  const render = (still?: number) => async () => {
    n++;
    const name = still === undefined ? "video" : `still ${still} s`;
    const workDir = await mkdtemp(join(dir, "job-"));
    await withCpu((cpu[name] ??= []), () =>
      renderVideo({
        jobId: `bench_still_${n}`,
        config: config(still),
        workDir,
        outPath: join(dir, still === undefined ? `video-${n}.mp4` : `still-${n}.png`),
        allowLocalFiles: true,
      }),
    );
  };
  try {
    const r = await interleave(
      "video",
      { video: render(), "still 0.5 s": render(0.5), "still 4.5 s": render(4.5), "still 9.5 s": render(9.5) },
      { warmup: 2, minRounds: 7, maxRounds: 7 },
    );
    for (const [name, times] of Object.entries(r.times) as [string, number[]][]) {
      const wall = spread(
        times.map((t) => t / 1000),
        " s",
      );
      const used = spread(
        measured(cpu[name]!, r.rounds).map((t) => t / 1000),
        " s",
      );
      console.log(`${name.padEnd(12)} wall ${wall}; CPU ${used}`);
    }
    console.log(`load average after: ${loadNow()}`);
  } finally {
    await closeBrowser();
    await rm(dir, { recursive: true, force: true });
  }
};

await main();
