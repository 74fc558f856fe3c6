/**
 * Gradients draw every colour they are given, in order (ffmpeg's `gradients` takes eight; more are
 * thinned to eight). Note: ffmpeg 5.1's `gradients` ends its ramp well before x1 (README), so the stops
 * are not yet evenly spaced across the frame as editly's are.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";

let dir: string;
let out: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "video-gradients-"));
  out = join(dir, "g.mp4");
  await renderVideo({
    jobId: "job_gradients",
    workDir: dir,
    outPath: out,
    config: videoConfig({
      width: 320,
      height: 90,
      fps: 10,
      clips: [
        {
          duration: 1,
          layers: [
            { type: "linear-gradient", direction: "horizontal", colors: ["#ff0000", "#00ff00", "#0000ff"] },
          ],
        },
      ],
    }),
  });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("linear-gradient with three colours", () => {
  it("runs red, then green, then blue across the frame (every colour drawn, in order)", () => {
    const row = execFileSync("ffmpeg", [
      ...["-v", "error", "-ss", "0.5", "-i", out, "-frames:v", "1", "-vf", "crop=320:2:0:44"],
      ...["-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
    ]);
    const dominant: number[] = [];
    for (let x = 0; x < 320; x++) {
      const px = [row[x * 3]!, row[x * 3 + 1]!, row[x * 3 + 2]!];
      const top = px.indexOf(Math.max(...px));
      if (Math.max(...px) > 200 && dominant.at(-1) !== top) dominant.push(top);
    }
    expect(dominant).toEqual([0, 1, 2]);
  });
});
