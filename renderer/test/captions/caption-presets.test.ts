/**
 * Caption presets through the real renderer (captions/presets.ts, captions/word-motion.ts), from a captions file whose
 * one cue spreads its 3 s over its words by their length (caption-file.ts): "GO ALL TOGETHER" from 1 s to 4 s is GO
 * 1-1.375 s, ALL 1.5625-2.125 s, TOGETHER 2.3125-3.8125 s; at 25 fps their first frames are 25, 39 and 58. Each
 * render is decoded whole and read at chosen frame numbers; a still mid-word must show what the single render shows.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/lib/process.ts";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { allFrames, countNear, frameAt, type Frame } from "./frame-pixels.ts";

const W = 480;
const H = 270;
const FPS = 25;
const RED: [number, number, number] = [255, 0, 0];
const GREEN: [number, number, number] = [0, 255, 0];
const YELLOW: [number, number, number] = [255, 255, 0];
const SRT = "1\n00:00:01,000 --> 00:00:04,000\nGO ALL TOGETHER\n";

let dir: string;
const config = (style: object, extra: object = {}) =>
  videoConfig({
    width: W,
    height: H,
    fps: FPS,
    clips: [{ duration: 5, layers: [{ type: "fill-color", color: "#0000ff" }] }],
    captionsFile: join(dir, "talk.srt"),
    autoSubtitlesStyle: { textColor: "#ff0000", fontSize: 32, outlineWidth: 0, ...style },
    ...extra,
  });
const render = async (name: string, style: object, extra: object = {}) => {
  const out = join(dir, name);
  await renderVideo({
    jobId: `job_${name.replace(/\W/g, "_")}`,
    workDir: await mkdtemp(join(dir, "w-")),
    outPath: out,
    allowLocalFiles: true,
    config: config(style, extra),
  });
  return out;
};
/** Frame n of a render, every frame decoded once. */
const decoded = new Map<string, Promise<Frame[]>>();
const frame = async (path: string, n: number): Promise<Frame> => {
  if (!decoded.has(path)) decoded.set(path, allFrames(path, W, H));
  return (await decoded.get(path)!)[n]!;
};
const still = (path: string): Promise<Frame> => frameAt(path, 0, W, H);

/** Columns and rows between which pixels near `rgb` are drawn (-1 when none are). */
const extent = (f: Frame, rgb: [number, number, number], tol = 60) => {
  let x0 = Infinity;
  let x1 = -1;
  let y0 = Infinity;
  let y1 = -1;
  for (let y = 0; y < f.height; y++)
    for (let x = 0; x < f.width; x++) {
      const i = (y * f.width + x) * 3;
      if (rgb.every((c, k) => Math.abs(f.data[i + k]! - c) <= tol)) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
    }
  return x1 < 0 ? { x0: -1, x1: -1, w: 0, h: 0 } : { x0, x1, w: x1 - x0 + 1, h: y1 - y0 + 1 };
};

const renders: Record<string, string> = {};
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "caption-presets-"));
  await writeFile(join(dir, "talk.srt"), SRT);
  // One at a time: the machine is shared.
  renders.karaoke = await render("karaoke.mp4", { preset: "karaoke", highlightColor: "#00ff00" });
  renders.karaokeStill = await render(
    "karaoke.png",
    { preset: "karaoke", highlightColor: "#00ff00" },
    { still: { time: 74 / FPS } },
  );
  renders.pop = await render("pop.mp4", { preset: "pop" });
  renders.popStill = await render("pop.png", { preset: "pop" }, { still: { time: 26 / FPS } });
  renders.box = await render("box.mp4", { preset: "box", highlightColor: "#ffff00" });
  renders.oneWord = await render("one-word.mp4", { preset: "one-word", fontSize: 48 });
}, 300_000);
afterAll(async () => {
  // KEEP_FRAMES=<folder>: a frame of each preset is written there, for a human look.
  const keep = process.env.KEEP_FRAMES;
  if (keep)
    for (const [name, n] of [
      ["karaoke", 74],
      ["pop", 27],
      ["box", 50],
      ["oneWord", 60],
    ] as const)
      await run("ffmpeg", [
        ...["-v", "error", "-ss", String(n / FPS + 0.01), "-i", renders[name]!],
        ...["-frames:v", "1", "-y", join(keep, `preset-${name}.png`)],
      ]);
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

describe("caption presets", () => {
  it("karaoke: the word being said fills left to right from its first frame, the next word not yet", async () => {
    const all = extent(await frame(renders.karaoke!, 25), RED);
    // Before the cue nothing; at GO's first frame nothing is filled yet.
    expect(countNear(await frame(renders.karaoke!, 24), RED)).toBe(0);
    expect(countNear(await frame(renders.karaoke!, 25), GREEN)).toBe(0);
    // Mid GO (frame 29: 0.16 of 0.375 s): GO's left part green, ALL and TOGETHER not.
    const go = extent(await frame(renders.karaoke!, 29), GREEN);
    expect(go.w).toBeGreaterThan(3);
    expect(go.x0 - all.x0).toBeLessThan(4);
    // GO filled, in the gap before ALL: green ends at GO, well left of the middle.
    const held = extent(await frame(renders.karaoke!, 37), GREEN);
    expect(held.x1).toBeGreaterThan(go.x1 + 5);
    expect(held.x1).toBeLessThan(W / 2 - 40);
    expect(extent(await frame(renders.karaoke!, 38), GREEN).x1).toBe(held.x1);
    // TOGETHER fills frame by frame: green reaches further right on every later frame, never past the text.
    const reach = await Promise.all(
      [60, 66, 74, 82].map(async (n) => extent(await frame(renders.karaoke!, n), GREEN).x1),
    );
    for (let i = 1; i < reach.length; i++) expect(reach[i]!).toBeGreaterThan(reach[i - 1]! + 4);
    expect(reach.at(-1)!).toBeLessThan(all.x1);
    // Every word filled after TOGETHER ends; red only in the outline-free text's antialiased edges.
    const done = await frame(renders.karaoke!, 97);
    expect(countNear(done, GREEN)).toBeGreaterThan(countNear(done, RED) * 3);
  });

  it("karaoke: a still mid-word draws the single render's fill there", async () => {
    const single = await frame(renders.karaoke!, 74);
    const alone = await still(renders.karaokeStill!);
    expect(Math.abs(extent(alone, GREEN).x1 - extent(single, GREEN).x1)).toBeLessThanOrEqual(2);
    // Green pixels: the still's (a lossless PNG) within the video's compression noise of frame 74's, and nearer to
    // it than to frame 72's (8 px less of TOGETHER filled), which is told apart.
    const green = countNear(single, GREEN);
    const earlier = countNear(await frame(renders.karaoke!, 72), GREEN);
    const stillGreen = countNear(alone, GREEN);
    expect(green - earlier).toBeGreaterThan(15);
    expect(Math.abs(stillGreen - green)).toBeLessThan(green * 0.03);
    expect(Math.abs(stillGreen - green)).toBeLessThan(Math.abs(stillGreen - earlier));
  });

  it("pop: each word scales in from the frame it is said, and only said words show", async () => {
    expect(countNear(await frame(renders.pop!, 24), RED)).toBe(0);
    const sizes = await Promise.all(
      [25, 26, 27, 29, 33].map(async (n) => extent(await frame(renders.pop!, n), RED)),
    );
    for (let i = 1; i < 4; i++) {
      expect(sizes[i]!.w).toBeGreaterThan(sizes[i - 1]!.w);
      expect(sizes[i]!.h).toBeGreaterThan(sizes[i - 1]!.h);
    }
    // Grown to its size within 0.15 s, then held.
    expect(Math.abs(sizes[4]!.w - sizes[3]!.w)).toBeLessThanOrEqual(1);
    expect(sizes[0]!.w).toBeLessThan(sizes[4]!.w * 0.6);
    // Frame 38, before ALL: GO only; frame 39: ALL appears right of GO (small: blended with the blue, not yet red).
    const before = extent(await frame(renders.pop!, 38), RED);
    expect(before.w).toBe(sizes[4]!.w);
    const rightOfGo = { x: (before.x1 + 6) / W, y: 0, w: 1 - (before.x1 + 6) / W, h: 1 };
    const blueRight = async (n: number) =>
      countNear(await frame(renders.pop!, n), [0, 0, 255], rightOfGo, 40);
    expect(await blueRight(38)).toBe(await blueRight(30));
    expect(await blueRight(39)).toBeLessThan((await blueRight(38)) - 10);
    expect(extent(await frame(renders.pop!, 41), RED).x1).toBeGreaterThan(before.x1 + 20);
  });

  it("pop: a still in a word's scale-in draws the single render's size there", async () => {
    const single = extent(await frame(renders.pop!, 26), RED);
    const alone = extent(await still(renders.popStill!), RED);
    expect(Math.abs(alone.w - single.w)).toBeLessThanOrEqual(2);
    expect(Math.abs(alone.h - single.h)).toBeLessThanOrEqual(2);
  });

  it("box: a box behind the word being said only, moving at the next word's first frame", async () => {
    const goBox = extent(await frame(renders.box!, 30), YELLOW);
    const text = extent(await frame(renders.box!, 30), RED);
    expect(goBox.w).toBeGreaterThan(10);
    // Behind GO: at the text's left, far short of its right; every word is drawn meanwhile.
    expect(Math.abs(goBox.x0 - text.x0)).toBeLessThan(10);
    expect(goBox.x1).toBeLessThan(text.x0 + (text.x1 - text.x0) / 3);
    expect(extent(await frame(renders.box!, 38), YELLOW).x0).toBe(goBox.x0);
    const allBox = extent(await frame(renders.box!, 39), YELLOW);
    expect(allBox.x0).toBeGreaterThan(goBox.x1);
    const togetherBox = extent(await frame(renders.box!, 60), YELLOW);
    expect(togetherBox.x0).toBeGreaterThan(allBox.x1);
    expect(Math.abs(togetherBox.x1 - text.x1)).toBeLessThan(10);
    expect(countNear(await frame(renders.box!, 101), YELLOW)).toBe(0);
  });

  it("one-word: one word at a time, large and centred, changing at the word's first frame", async () => {
    const go = extent(await frame(renders.oneWord!, 30), RED);
    const all = extent(await frame(renders.oneWord!, 57), RED);
    const together = extent(await frame(renders.oneWord!, 58), RED);
    expect(countNear(await frame(renders.oneWord!, 24), RED)).toBe(0);
    // Centred about the middle of the frame, each as wide as its own letters.
    for (const word of [go, all, together]) expect(Math.abs((word.x0 + word.x1) / 2 - W / 2)).toBeLessThan(8);
    expect(all.w).toBeGreaterThan(go.w * 1.2);
    expect(together.w).toBeGreaterThan(all.w * 2);
    expect(go.h).toBeGreaterThan(30);
    expect(extent(await frame(renders.oneWord!, 39), RED).w).toBe(all.w);
    expect(extent(await frame(renders.oneWord!, 38), RED).w).toBe(go.w);
  });
});
