/**
 * Stills in video jobs: photos turned by their EXIF orientation (ffmpeg 5.1 ignores it; browsers and
 * image jobs honour it), big JPEGs decoded at a reduced size, one decode for a still drawn twice, and
 * many text layers drawn from one sheet. Checked on the pixels of real renders.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/lib/process.ts";
import { filterThreadsFor } from "../../src/video/args.ts";
import { jpegLowres, orientationFilter } from "../../src/video/layers/image.ts";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { stackCells } from "../../src/video/raster/sheet-layout.ts";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import type { MediaInfo } from "../../src/video/types.ts";
import { withExifOrientation } from "../probe/exif.ts";
import { colorAt, FIXTURES, near, probeOut } from "./media-helpers.ts";

let dir: string;
const RED = [255, 0, 0];
const BLUE = [0, 0, 255];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "video-stills-"));
  // 1280x640 as stored: left half red, right half blue.
  await run("ffmpeg", [
    ...[
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "color=red:s=640x640",
      "-f",
      "lavfi",
      "-i",
      "color=blue:s=640x640",
    ],
    ...["-filter_complex", "[0:v][1:v]hstack", "-frames:v", "1", "-q:v", "2", join(dir, "plain.jpg")],
  ]);
  const plain = await readFile(join(dir, "plain.jpg"));
  await writeFile(join(dir, "turned-cw.jpg"), withExifOrientation(plain, 6));
  await writeFile(join(dir, "turned-ccw.jpg"), withExifOrientation(plain, 8, "II"));
  await writeFile(join(dir, "mirrored.jpg"), withExifOrientation(plain, 2));
});
afterAll(async () => {
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

const render = async (name: string, config: Record<string, unknown>): Promise<string> => {
  const work = await mkdtemp(join(dir, `${name}-`));
  const outPath = join(dir, `${name}.mp4`);
  await renderVideo({
    jobId: `job_${name}`,
    config: videoConfig(config),
    workDir: work,
    outPath,
    allowLocalFiles: true,
  });
  return outPath;
};

const TOP = { x: 0.3, y: 0.1, w: 0.4, h: 0.2 };
const BOTTOM = { x: 0.3, y: 0.7, w: 0.4, h: 0.2 };

describe("EXIF orientation of photos", () => {
  const portrait = (path: string) => ({
    width: 180,
    height: 320,
    fps: 10,
    clips: [{ duration: 1, layers: [{ type: "image", path, zoomDirection: null }] }],
  });

  it("orientation 6 (turned clockwise) shows the stored left half on top", async () => {
    const out = await render("cw", portrait(join(dir, "turned-cw.jpg")));
    expect(near(await colorAt(out, 0.5, TOP), RED, 40)).toBe(true);
    expect(near(await colorAt(out, 0.5, BOTTOM), BLUE, 40)).toBe(true);
  });

  it("orientation 8 (turned counter-clockwise) shows the stored right half on top", async () => {
    const out = await render("ccw", portrait(join(dir, "turned-ccw.jpg")));
    expect(near(await colorAt(out, 0.5, TOP), BLUE, 40)).toBe(true);
    expect(near(await colorAt(out, 0.5, BOTTOM), RED, 40)).toBe(true);
  });

  it("without EXIF the same photo is shown as stored (left red, right blue)", async () => {
    const out = await render("plain", {
      width: 320,
      height: 160,
      fps: 10,
      clips: [
        { duration: 1, layers: [{ type: "image", path: join(dir, "plain.jpg"), zoomDirection: null }] },
      ],
    });
    expect(near(await colorAt(out, 0.5, { x: 0.1, y: 0.4, w: 0.2, h: 0.2 }), RED, 40)).toBe(true);
    expect(near(await colorAt(out, 0.5, { x: 0.7, y: 0.4, w: 0.2, h: 0.2 }), BLUE, 40)).toBe(true);
  });

  it("orientation 2 (mirrored, which ffmpeg's autorotate ignores) swaps the halves", async () => {
    const out = await render("mirrored", {
      width: 320,
      height: 160,
      fps: 10,
      clips: [
        { duration: 1, layers: [{ type: "image", path: join(dir, "mirrored.jpg"), zoomDirection: null }] },
      ],
    });
    expect(near(await colorAt(out, 0.5, { x: 0.1, y: 0.4, w: 0.2, h: 0.2 }), BLUE, 40)).toBe(true);
    expect(near(await colorAt(out, 0.5, { x: 0.7, y: 0.4, w: 0.2, h: 0.2 }), RED, 40)).toBe(true);
  });

  it("maps every orientation to the transform that shows it upright", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(orientationFilter)).toEqual([
      "",
      "hflip",
      "hflip,vflip",
      "vflip",
      "transpose=0",
      "transpose=1",
      "transpose=3",
      "transpose=2",
    ]);
  });
});

describe("Ken Burns pans", () => {
  // A 640x360 grey ramp (0 at the left or top edge, 255 at the other), panned at 320x180 with zoomAmount
  // 0.2: the still is shown at 384x216 and the 320x180 view slides across its 64 x 36 pixel margin,
  // frame k of n at offset margin·k/(n-1) (editly's maths; ken-burns.ts), left/up forward, right/down back.
  const ramp = async (name: string, axis: "X" | "Y") => {
    const path = join(dir, `${name}.png`);
    const v = axis === "X" ? "255*X/(W-1)" : "255*Y/(H-1)";
    await run("ffmpeg", [
      ...["-v", "error", "-y", "-f", "lavfi", "-i", "color=black:s=640x360", "-frames:v", "1"],
      ...["-vf", `format=rgb24,geq=r='${v}':g='${v}':b='${v}'`, path],
    ]);
    return path;
  };
  const pan = async (name: string, path: string, zoomDirection: string) =>
    render(name, {
      width: 320,
      height: 180,
      fps: 10,
      clips: [{ duration: 2, layers: [{ type: "image", path, zoomDirection, zoomAmount: 0.2 }] }],
    });
  /** Grey at the centre of the view when it is `offset` pixels into the 384 (or 216) pixel still. */
  const expected = (offset: number, centre: number, size: number) => (255 * (centre + offset + 0.5)) / size;
  const grey = async (out: string, t: number, region: { x: number; y: number; w: number; h: number }) =>
    (await colorAt(out, t, region))[0]!;
  const COLUMN = { x: 0.49, y: 0.3, w: 0.02, h: 0.4 };
  const ROW = { x: 0.3, y: 0.49, w: 0.4, h: 0.02 };

  it("left: the view slides right across the whole margin", async () => {
    const out = await pan("pan-left", await ramp("ramp-x", "X"), "left");
    for (const k of [0, 10, 19])
      expect(Math.abs((await grey(out, k / 10, COLUMN)) - expected((64 * k) / 19, 160, 384))).toBeLessThan(6);
  });

  it("a video layer pans the same way (each frame resized once, then cropped)", async () => {
    const still = await ramp("ramp-xv", "X");
    const path = join(dir, "ramp-x.mp4");
    await run("ffmpeg", [
      ...["-v", "error", "-y", "-loop", "1", "-i", still, "-t", "2", "-r", "10", "-c:v", "libx264"],
      ...["-crf", "0", "-pix_fmt", "yuv420p", path],
    ]);
    const out = await render("pan-video", {
      width: 320,
      height: 180,
      fps: 10,
      clips: [
        {
          duration: 2,
          layers: [{ type: "video", path, resizeMode: "stretch", zoomDirection: "right", zoomAmount: 0.2 }],
        },
      ],
    });
    for (const k of [0, 10, 19])
      expect(
        Math.abs((await grey(out, k / 10, COLUMN)) - expected(64 * (1 - k / 19), 160, 384)),
      ).toBeLessThan(6);
  });

  it("down: the view slides up from the bottom of the margin", async () => {
    const out = await pan("pan-down", await ramp("ramp-y", "Y"), "down");
    for (const k of [0, 10, 19])
      expect(Math.abs((await grey(out, k / 10, ROW)) - expected(36 * (1 - k / 19), 90, 216))).toBeLessThan(6);
  });
});

describe("decoding cost", () => {
  const jpeg = (width: number, height: number): MediaInfo => ({
    width,
    height,
    duration: 0,
    hasVideo: true,
    hasAudio: false,
    hasAlpha: false,
    rotation: 0,
    videoCodec: "mjpeg",
    orientation: 1,
    demuxer: "image2",
  });

  it("decodes a JPEG at the smallest power-of-two reduction still at least the drawn size", () => {
    expect(jpegLowres(jpeg(4000, 3000), 1920, 1080)).toEqual(["-lowres", "1"]);
    expect(jpegLowres(jpeg(4000, 3000), 960, 540)).toEqual(["-lowres", "2"]);
    expect(jpegLowres(jpeg(4000, 3000), 320, 180)).toEqual(["-lowres", "3"]);
    expect(jpegLowres(jpeg(1920, 1080), 1920, 1080)).toEqual([]);
    expect(jpegLowres({ ...jpeg(4000, 3000), videoCodec: "png" }, 320, 180)).toEqual([]);
  });

  it("keeps slice threads only for per-pixel expression filters", () => {
    expect(filterThreadsFor("[a][b]xfade=transition=fade:duration=1[c]")).toBe(1);
    expect(filterThreadsFor("[a][b]xfade=transition=custom:expr='A'[c]")).toBe(0);
    expect(filterThreadsFor("gradients=s=320x180[g]")).toBe(0);
  });

  it("a 12-megapixel photo drawn twice renders both copies, sharp enough to keep its detail", async () => {
    const out = await render("twice", {
      width: 320,
      height: 180,
      fps: 10,
      clips: [
        {
          duration: 1,
          layers: [
            { type: "fill-color", color: "#000000" },
            { type: "image-overlay", path: `${FIXTURES}/img2.jpg`, width: 0.4, position: "top-left" },
            { type: "image-overlay", path: `${FIXTURES}/img2.jpg`, width: 0.4, position: "bottom-right" },
          ],
        },
      ],
    });
    const facts = await probeOut(out);
    expect(facts.video).toMatchObject({ width: 320, height: 180 });
    const left = await colorAt(out, 0.5, { x: 0.1, y: 0.1, w: 0.2, h: 0.2 });
    const right = await colorAt(out, 0.5, { x: 0.7, y: 0.7, w: 0.2, h: 0.2 });
    const middle = await colorAt(out, 0.5, { x: 0.45, y: 0.45, w: 0.1, h: 0.1 });
    // Both copies show the photo (not black); the frame between them stays the black fill.
    expect(left.reduce((a, b) => a + b)).toBeGreaterThan(120);
    expect(right.reduce((a, b) => a + b)).toBeGreaterThan(120);
    expect(near(middle, [0, 0, 0], 12)).toBe(true);
  });
});

describe("text sheet", () => {
  it("stacks cells into pages that never exceed the height limit", () => {
    expect(stackCells([100, 200, 50])).toEqual([
      { page: 0, top: 0 },
      { page: 0, top: 100 },
      { page: 0, top: 300 },
    ]);
    const tall = stackCells(Array.from({ length: 70 }, () => 136));
    expect(Math.max(...tall.map((c) => c.top + 136))).toBeLessThanOrEqual(8192);
    expect(tall.at(-1)?.page).toBe(1);
    // One cell taller than a page still gets a page of its own.
    expect(stackCells([9000, 10])).toEqual([
      { page: 0, top: 0 },
      { page: 1, top: 0 },
    ]);
  });

  it("draws many text layers and a long letter-by-letter reveal from shared sheets", async () => {
    /** A title whose box's top-left corner is at pixel (x, y) of the 320x180 frame. */
    const block = (textColor: string, x: number, y: number) => ({
      type: "title",
      text: "██",
      fontSize: 30,
      textColor,
      zoomDirection: null,
      position: { x: x / 320, y: y / 180, originX: "left", originY: "top" },
    });
    const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".repeat(3);
    const out = await render("sheet", {
      width: 320,
      height: 180,
      fps: 10,
      defaults: { layer: { fontPath: `${FIXTURES}/PatuaOne-Regular.ttf` } },
      clips: [
        {
          duration: 2,
          layers: [
            { type: "fill-color", color: "#000000" },
            block("#ff0000", 0, 0),
            block("#00ff00", 250, 0),
            block("#0000ff", 0, 130),
            {
              type: "title",
              text: letters,
              fontSize: 12,
              style: "letter-by-letter",
              animationDuration: 1,
              position: "center",
            },
          ],
        },
      ],
    });
    const corner = (x: number, y: number) => colorAt(out, 1.5, { x, y, w: 0.06, h: 0.1 });
    expect(near(await corner(0.03, 0.06), RED, 60)).toBe(true);
    expect(near(await corner(0.8, 0.06), [0, 255, 0], 60)).toBe(true);
    expect(near(await corner(0.03, 0.78), BLUE, 60)).toBe(true);
    // The reveal: nothing of the title's right end at the start, ink there once it is revealed.
    const end = { x: 0.55, y: 0.3, w: 0.4, h: 0.4 };
    const sum = (c: number[]) => c.reduce((a, b) => a + b, 0);
    expect(sum(await colorAt(out, 0.05, end))).toBeLessThan(sum(await colorAt(out, 1.5, end)));
  });
});
