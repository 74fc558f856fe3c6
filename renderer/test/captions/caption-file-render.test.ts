/**
 * Captions from SubRip / WebVTT files through the real renderer: each cue drawn at its times and not between
 * them; the caption styles (a highlighted active word, a background box) in the pixels; and CJK text drawn on
 * exactly the lines the layout measured (the browser wraps no further).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { countNear, frameAt, type Frame } from "./frame-pixels.ts";

const RED: [number, number, number] = [255, 0, 0];
const GREEN: [number, number, number] = [0, 255, 0];
const YELLOW: [number, number, number] = [255, 255, 0];

let dir: string;
const render = async (name: string, file: string, text: string, style: object, W = 320, H = 180) => {
  const path = join(dir, file);
  await writeFile(path, text);
  const out = join(dir, `${name}.mp4`);
  const r = await renderVideo({
    jobId: `job_${name}`,
    workDir: dir,
    outPath: out,
    allowLocalFiles: true,
    config: videoConfig({
      width: W,
      height: H,
      fps: 10,
      clips: [{ duration: 4, layers: [{ type: "fill-color", color: "#0000ff" }] }],
      captionsFile: path,
      autoSubtitlesStyle: { textColor: "#ff0000", ...style },
    }),
  });
  return { out, r, W, H };
};
type Rendered = Awaited<ReturnType<typeof render>>;
const frame = (v: Rendered, t: number): Promise<Frame> => frameAt(v.out, t, v.W, v.H);

/** The rows and columns between which pixels near `rgb` are drawn. */
const extent = (f: Frame, rgb: [number, number, number]) => {
  const rows: number[] = [];
  const cols: number[] = [];
  for (let y = 0; y < f.height; y++)
    for (let x = 0; x < f.width; x++) {
      const i = (y * f.width + x) * 3;
      if (rgb.every((c, k) => Math.abs(f.data[i + k]! - c) <= 60)) {
        rows.push(y);
        cols.push(x);
      }
    }
  return { height: Math.max(...rows) - Math.min(...rows), width: Math.max(...cols) - Math.min(...cols) };
};

let srt: Rendered;
let vtt: Rendered;
let cjk: Rendered;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "captions-file-"));
  srt = await render(
    "srt",
    "talk.srt",
    "1\r\n00:00:00,500 --> 00:00:01,500\r\nHELLO <b>THERE</b>\r\n\r\n2\r\n00:00:02,500 --> 00:00:03,500\r\nGOODBYE\r\n",
    { fontSize: 28 },
  );
  vtt = await render("vtt", "talk.vtt", "WEBVTT\n\n00:00.500 --> 00:02.500 align:start\nLEFT RIGHT\n", {
    fontSize: 28,
    animation: "none",
    highlightColor: "#00ff00",
    backgroundColor: "#ffff00",
  });
  cjk = await render(
    "cjk",
    "zh.srt",
    "1\n00:00:00,500 --> 00:00:03,000\n今天天气很好我们去公园散步吧今天天气很好我们去公园散步吧\n",
    { fontSize: 40 },
    640,
    360,
  );
}, 180_000);
afterAll(async () => {
  // KEEP_FRAMES=<folder>: a frame of each render is written there as <name>.png, for a human look.
  const keep = process.env.KEEP_FRAMES;
  if (keep) {
    const { run } = await import("../../src/lib/process.ts");
    for (const [v, t, name] of [
      [cjk, 1.5, "cjk"],
      [vtt, 0.8, "vtt"],
      [srt, 0.5, "srt"],
    ] as const)
      await run("ffmpeg", [
        "-v",
        "error",
        "-ss",
        String(t),
        "-i",
        v.out,
        "-frames:v",
        "1",
        "-y",
        join(keep, `${name}.png`),
      ]);
  }
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

describe("captions from a file", () => {
  it("draws each SubRip cue whole at its own times, and nothing before, between or after", async () => {
    expect(srt.r.captions!.cues.map((c) => [c.start, c.end])).toEqual([
      [0.5, 1.5],
      [2.5, 3.5],
    ]);
    expect(srt.r.captions!.backend).toBeNull();
    for (const t of [0.2, 2.0, 3.8]) expect(countNear(await frame(srt, t), RED), `at ${t}s`).toBe(0);
    // Whole from its first frame: both words at 0.5 s (animation none is the default for a file).
    const first = await frame(srt, 0.5);
    expect(countNear(first, RED, { x: 0, y: 0, w: 0.5, h: 1 })).toBeGreaterThan(50);
    expect(countNear(first, RED, { x: 0.5, y: 0, w: 0.5, h: 1 })).toBeGreaterThan(50);
    expect(countNear(await frame(srt, 3.0), RED)).toBeGreaterThan(50);
  });

  it("moves the highlight from word to word over a WebVTT cue, on a background box", async () => {
    const left = { x: 0, y: 0, w: 0.5, h: 1 };
    const right = { x: 0.5, y: 0, w: 0.5, h: 1 };
    const early = await frame(vtt, 0.8);
    const late = await frame(vtt, 2.3);
    expect(countNear(early, GREEN, left)).toBeGreaterThan(30);
    expect(countNear(early, GREEN, right)).toBe(0);
    expect(countNear(early, RED, right)).toBeGreaterThan(30);
    expect(countNear(late, GREEN, right)).toBeGreaterThan(30);
    expect(countNear(late, RED, left)).toBeGreaterThan(30);
    expect(countNear(early, YELLOW)).toBeGreaterThan(1000);
    expect(countNear(await frame(vtt, 3.0), YELLOW)).toBe(0);
  });

  it("draws CJK text on the lines the layout measured: the browser wraps no further", async () => {
    const cue = cjk.r.captions!.cues[0]!;
    expect(cue.lines.length).toBe(3);
    expect(cue.lines.map((l) => l.length)).toEqual([12, 12, 4]);
    // Three lines of 1.2 x 40 px: glyph tops of line 1 to glyph bottoms of line 3 span about 2 x 48 + 40 px
    // (four lines would be 48 px more), and no line is wider than the 80 % box.
    const drawn = extent(await frame(cjk, 1.5), RED);
    expect(drawn.height).toBeGreaterThan(2 * 48 + 25);
    expect(drawn.height).toBeLessThan(3 * 48);
    expect(drawn.width).toBeLessThanOrEqual(640 * 0.8);
    expect(drawn.width).toBeGreaterThan(12 * 40 - 20);
  });
});
