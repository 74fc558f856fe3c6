/**
 * editly's motion, matched pixel by pixel from its sources (mifi/editly src/sources/*.ts):
 * - linear-gradient: a 2W x 2H rect centred on the frame, ramp from its top-left corner to its centre,
 *   turned progress * 30 degrees clockwise about the centre;
 * - radial-gradient: first colour at the centre, last at 0.6 x max(W, H) x (1 + progress);
 * - subtitle / news-title `delay` and `speed`: easeOutExpo(clamp((progress - delay) * speed * k, 0, 1)).
 * progress = seconds into the layer / its length. Frames are picked by number (frame n at n / fps).
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { FIXTURES } from "./media-helpers.ts";

const W = 320;
const H = 180;
const FPS = 10;
let dir: string;
let out: string;

/** Frame `n` as rgb24. */
const frame = (n: number): Buffer => {
  return execFileSync("ffmpeg", [
    ...["-v", "error", "-i", out, "-vf", `select=eq(n\\,${n})`, "-frames:v", "1"],
    ...["-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
  ]);
};
const px = (f: Buffer, x: number, y: number) => [...f.subarray((y * W + x) * 3, (y * W + x) * 3 + 3)];
const mix = (a: number[], b: number[], t: number) => a.map((v, i) => v + (b[i]! - v) * t);
const clamp01 = (t: number) => Math.min(1, Math.max(0, t));
const maxDiff = (a: number[], b: number[]) => Math.max(...a.map((v, i) => Math.abs(v - b[i]!)));
/** Mean of a region's pixels. */
const mean = (f: Buffer, x0: number, y0: number, w: number, h: number): number[] => {
  const sum = [0, 0, 0];
  for (let y = y0; y < y0 + h; y++)
    for (let x = x0; x < x0 + w; x++) px(f, x, y).forEach((v, i) => (sum[i]! += v));
  return sum.map((s) => s / (w * h));
};

const RED = [255, 0, 0];
const BLUE = [0, 0, 255];
const WHITE = [255, 255, 255];
const BLACK = [0, 0, 0];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "editly-motion-"));
  out = join(dir, "m.mp4");
  const font = `${FIXTURES}/PatuaOne-Regular.ttf`;
  const bg = { type: "fill-color", color: "#ffffff" };
  await renderVideo({
    jobId: "job_motion",
    workDir: dir,
    outPath: out,
    allowLocalFiles: true,
    config: videoConfig({
      width: W,
      height: H,
      fps: FPS,
      clips: [
        { duration: 2, layers: [{ type: "linear-gradient", colors: ["#ff0000", "#0000ff"] }] },
        { duration: 2, layers: [{ type: "radial-gradient", colors: ["#ffffff", "#000000"] }] },
        {
          duration: 2,
          layers: [bg, { type: "subtitle", text: "Delayed", fontPath: font, delay: 0.5, speed: 2 }],
        },
        { duration: 2, layers: [bg, { type: "news-title", text: "NEWS", fontPath: font, delay: 0.25 }] },
      ],
    }),
  });
}, 120_000);
afterAll(async () => {
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

describe("linear-gradient turns like editly's", () => {
  /** editly's colour at frame pixel (x, y) for progress p. */
  const expected = (x: number, y: number, p: number) => {
    const a = (-p * 30 * Math.PI) / 180; // undo the clockwise turn
    const [qx, qy] = [x + 0.5 - W / 2, y + 0.5 - H / 2];
    const [rx, ry] = [qx * Math.cos(a) - qy * Math.sin(a), qx * Math.sin(a) + qy * Math.cos(a)];
    // Rect-local: its top-left corner is at (-W/2, -H/2) of the frame, i.e. (-W, -H) from the centre.
    const t = ((rx + W) * W + (ry + H) * H) / (W * W + H * H);
    return mix(RED, BLUE, clamp01(t));
  };
  const points: [number, number][] = [
    [8, 8],
    [60, 20],
    [20, 120],
    [150, 40],
    [250, 10],
  ];

  it("frame 0: the ramp's second half, from the top-left corner to the centre", () => {
    const f = frame(0);
    for (const [x, y] of points) expect(maxDiff(px(f, x, y), expected(x, y, 0))).toBeLessThan(14);
  });

  it("last frame: turned by 30 x 19/20 degrees, and visibly different from frame 0", () => {
    const [f0, f19] = [frame(0), frame(19)];
    for (const [x, y] of points) expect(maxDiff(px(f19, x, y), expected(x, y, 19 / 20))).toBeLessThan(14);
    expect(maxDiff(px(f0, 20, 120), px(f19, 20, 120))).toBeGreaterThan(40);
  });
});

describe("radial-gradient grows like editly's", () => {
  const expected = (x: number, y: number, p: number) => {
    const r = Math.hypot(x + 0.5 - W / 2, y + 0.5 - H / 2);
    return mix(WHITE, BLACK, clamp01(r / (0.6 * Math.max(W, H) * (1 + p))));
  };
  it("radius 0.6 x max at the start, 1.2 x max at the end", () => {
    const [f0, f19] = [frame(20), frame(39)];
    for (const [x, y] of [
      [160, 90],
      [100, 90],
      [20, 90],
      [5, 5],
      [300, 170],
    ] as [number, number][]) {
      expect(maxDiff(px(f0, x, y), expected(x, y, 0))).toBeLessThan(14);
      expect(maxDiff(px(f19, x, y), expected(x, y, 19 / 20))).toBeLessThan(14);
    }
  });
});

describe("subtitle and news-title delay and speed (editly's banner clock)", () => {
  // The subtitle band: bottom of the frame, its middle third (the text is left aside).
  const band = (f: Buffer) => mean(f, 40, 160, 40, 6);
  it("subtitle: absent before delay (progress < 0.5), half faded at easeOutExpo = 0.5, whole after", () => {
    const before = band(frame(40 + 9)); // progress 0.45
    expect(maxDiff(before, WHITE)).toBeLessThan(3);
    const whole = band(frame(40 + 19)); // (0.95 - 0.5) * 2 = 0.9: 1 - 2^-9
    expect(maxDiff(whole, WHITE)).toBeGreaterThan(30);
    // easeOutExpo(x) = 0.5 at x = 0.1: progress 0.55 = frame 11 of 20.
    const half = band(frame(40 + 11));
    for (let c = 0; c < 3; c++) expect(Math.abs(half[c]! - (WHITE[c]! + whole[c]!) / 2)).toBeLessThan(8);
  });

  it("news-title: no band before delay (progress < 0.25), in place once (progress - 0.25) * 3 >= 1", () => {
    // editly's news band is at 8 % of the height, from the left edge.
    const strip = (f: Buffer) => mean(f, 2, Math.round(H * 0.08) + 4, 10, 4);
    expect(maxDiff(strip(frame(60 + 4)), WHITE)).toBeLessThan(3); // progress 0.2
    expect(maxDiff(strip(frame(60 + 19)), WHITE)).toBeGreaterThan(60); // progress 0.95
  });
});
