/**
 * `fast: true` previews are the full render made smaller: pixel-valued text properties shrink with the
 * frame and html pages keep their layout. Compared on the pixels of the preview against the full render
 * scaled to the preview's size.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/lib/process.ts";
import { scaleLayerPixels } from "../../src/video/spec.ts";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { probeOut } from "./media-helpers.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "video-preview-"));
});
afterAll(async () => {
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

const config = (fast: boolean) =>
  videoConfig({
    width: 1280,
    height: 720,
    fps: 30,
    fast,
    clips: [
      {
        duration: 1,
        layers: [
          { type: "fill-color", color: "#204060" },
          { type: "title", text: "Big title", fontSize: 120, position: "top", zoomDirection: null },
          { type: "subtitle", text: "px text", fontSize: 60, textColor: "#ffff00" },
          {
            type: "html",
            width: 600,
            height: 200,
            position: "center-right",
            html: "<div style='font:bold 64px sans-serif;color:#fff;background:#c00;height:100vh;display:flex;align-items:center;justify-content:center'>HTML</div>",
          },
        ],
      },
    ],
  });

const grey = async (path: string, w: number, h: number): Promise<Buffer> => {
  const { stdout } = await run("ffmpeg", [
    ...["-v", "error", "-ss", "0.9", "-i", path, "-frames:v", "1", "-vf", `scale=${w}:${h}:flags=area`],
    ...["-f", "rawvideo", "-pix_fmt", "gray", "-"],
  ]);
  return stdout;
};

describe("fast previews", () => {
  it("scale pixel font sizes and outline widths, nothing else", () => {
    expect(scaleLayerPixels({ type: "subtitle", text: "a", fontSize: 60 }, 0.5)).toEqual({
      type: "subtitle",
      text: "a",
      fontSize: 30,
    });
    expect(
      scaleLayerPixels({ type: "title", text: "a", fontSize: 100, outlineWidth: 4 }, 0.25),
    ).toMatchObject({
      fontSize: 25,
      outlineWidth: 1,
    });
    // slide-in-text's fontSize is a fraction of the frame width: it scales by itself.
    expect(scaleLayerPixels({ type: "slide-in-text", text: "a", fontSize: 0.05 }, 0.25)).toMatchObject({
      fontSize: 0.05,
    });
    const image = { type: "image" as const, width: 0.5, path: "/a.jpg" };
    expect(scaleLayerPixels(image, 0.25)).toBe(image);
  });

  it("look like the full render made smaller (text and html in place, at their share of the frame)", async () => {
    const full = join(dir, "full.mp4");
    const preview = join(dir, "preview.mp4");
    for (const [fast, outPath] of [
      [false, full],
      [true, preview],
    ] as const)
      await renderVideo({
        jobId: `job_${fast}`,
        workDir: await mkdtemp(join(dir, "w-")),
        outPath,
        config: config(fast),
      });
    const facts = await probeOut(preview);
    // sqrt(250² · 16/9) = 333.3 and 332 / (16/9) = 186.75, each rounded down to even.
    expect(facts.video).toMatchObject({ width: 332, height: 186, fps: 15 });
    const [a, b] = [await grey(full, 332, 186), await grey(preview, 332, 186)];
    let differing = 0;
    for (let i = 0; i < a.length; i++) if (Math.abs((a[i] ?? 0) - (b[i] ?? 0)) > 48) differing++;
    // Only anti-aliasing at the edges of text and boxes differs.
    expect(differing / a.length).toBeLessThan(0.03);
    // The html box (red, 600x200 of 1280x720, centre-right) covers its share of the preview.
    let red = 0;
    const { stdout } = await run("ffmpeg", [
      ...["-v", "error", "-ss", "0.9", "-i", preview, "-frames:v", "1"],
      ...["-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
    ]);
    for (let i = 0; i < stdout.length; i += 3) if ((stdout[i] ?? 0) > 150 && (stdout[i + 1] ?? 0) < 80) red++;
    const share = red / (stdout.length / 3);
    expect(share).toBeGreaterThan(0.08);
    expect(share).toBeLessThan(0.15);
  });
});
