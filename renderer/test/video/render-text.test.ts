/** Rasterised text layers: titles fade in, word-by-word reveals left to right, text sits where placed. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { colorAt, FIXTURES, probeOut } from "./media-helpers.ts";

let dir: string;
let out: string;
const brightness = (c: number[]) => ((c[0] ?? 0) + (c[1] ?? 0) + (c[2] ?? 0)) / 3;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "video-text-"));
  out = join(dir, "text.mp4");
  await renderVideo({
    jobId: "job_text",
    workDir: dir,
    outPath: out,
    allowLocalFiles: true,
    config: videoConfig({
      width: 320,
      height: 180,
      fps: 10,
      defaults: { transition: null, layer: { fontPath: `${FIXTURES}/PatuaOne-Regular.ttf` } },
      clips: [
        {
          duration: 2,
          layers: [
            { type: "fill-color", color: "#000000" },
            { type: "title", text: "█████", fontSize: 60, zoomDirection: null, animationDuration: 1 },
          ],
        },
        {
          duration: 2,
          layers: [
            { type: "fill-color", color: "#000000" },
            { type: "title", text: "██ ██", fontSize: 60, style: "word-by-word", animationDuration: 1 },
            {
              type: "title",
              text: "██",
              fontSize: 40,
              textColor: "#ff0000",
              zoomDirection: null,
              position: { x: 0, y: 0, originX: "left", originY: "top" },
            },
          ],
        },
      ],
    }),
  });
});
afterAll(async () => {
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

describe("text layers", () => {
  it("renders the expected length", async () => {
    expect(Math.abs((await probeOut(out)).duration - 4)).toBeLessThanOrEqual(0.1);
  });

  it("fades a title in over animationDuration", async () => {
    const centre = { x: 0.45, y: 0.45, w: 0.1, h: 0.1 };
    expect(brightness(await colorAt(out, 0.0, centre))).toBeLessThan(40);
    expect(brightness(await colorAt(out, 0.5, centre))).toBeGreaterThan(60);
    expect(brightness(await colorAt(out, 0.5, centre))).toBeLessThan(200);
    expect(brightness(await colorAt(out, 1.5, centre))).toBeGreaterThan(200);
  });

  it("reveals word by word: first the left word, then both", async () => {
    const left = { x: 0.3, y: 0.45, w: 0.08, h: 0.1 };
    const right = { x: 0.62, y: 0.45, w: 0.08, h: 0.1 };
    expect(brightness(await colorAt(out, 2.2, left))).toBeGreaterThan(200);
    expect(brightness(await colorAt(out, 2.2, right))).toBeLessThan(40);
    expect(brightness(await colorAt(out, 3.5, right))).toBeGreaterThan(200);
  });

  it("draws a title at its position: the top-left corner", async () => {
    const c = await colorAt(out, 3, { x: 0.03, y: 0.06, w: 0.05, h: 0.08 });
    expect(c[0]).toBeGreaterThan(180);
    expect(c[1]).toBeLessThan(60);
  });
});
