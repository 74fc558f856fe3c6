/**
 * A `speech` layer through the real renderer with the offline voice (espeak-ng): heard where it is placed,
 * silent elsewhere, and with autoSubtitles its own words are the captions (no transcriber runs), drawn while
 * they are said. A speech audio track is placed on the output's timeline the same way.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Transcriber } from "../../src/transcribe/types.ts";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo, type RenderVideoResult } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { meanVolume, probeOut } from "../video/media-helpers.ts";
import { countNear, frameAt } from "../captions/frame-pixels.ts";

const W = 320;
const H = 180;
const RED: [number, number, number] = [255, 0, 0];

let dir: string;
let transcribed = 0;
const refuses: Transcriber = {
  backend: "pocketsphinx",
  async transcribe() {
    transcribed++;
    throw new Error("a speech layer's captions must not be transcribed");
  },
};

let layer: { out: string; r: RenderVideoResult };
let track: { out: string; r: RenderVideoResult };

const render = async (name: string, raw: Record<string, unknown>) => {
  const out = join(dir, `${name}.mp4`);
  const r = await renderVideo({
    jobId: `job_${name}`,
    workDir: dir,
    outPath: out,
    allowLocalFiles: true,
    transcriber: refuses,
    config: videoConfig({ width: W, height: H, fps: 10, ...raw }),
  });
  return { out, r };
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "speech-layer-"));
  layer = await render("layer", {
    clips: [
      { duration: 1, layers: [{ type: "fill-color", color: "#0000ff" }] },
      {
        duration: 5,
        layers: [
          { type: "fill-color", color: "#0000ff" },
          { type: "speech", text: "Hello world. Good morning", start: 1 },
        ],
      },
    ],
    autoSubtitles: true,
    autoSubtitlesStyle: { textColor: "#ff0000", fontSize: 28 },
  });
  track = await render("track", {
    clips: [{ duration: 4, layers: [{ type: "fill-color", color: "#000000" }] }],
    audioTracks: [{ type: "speech", text: "Testing one two", start: 2, rate: 1.5 }],
  });
}, 180_000);
afterAll(async () => {
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

describe("a speech layer (offline voice)", () => {
  it("captions its own words at their times on the output, without transcribing", () => {
    const c = layer.r.captions!;
    expect(transcribed).toBe(0);
    expect(c.backend).toBeNull();
    expect(c.words.map((w) => w.text)).toEqual(["Hello", "world.", "Good", "morning"]);
    // Clip 2 starts at 1 s and the layer 1 s into it; the voice leads in 0.05 s.
    expect(c.words[0]!.start).toBeCloseTo(2.05, 2);
    expect(
      c.cues.map((q) =>
        q.lines
          .flat()
          .map((w) => w.text)
          .join(" "),
      ),
    ).toEqual(["Hello world.", "Good morning"]);
  });

  it("is heard while it speaks and not before", async () => {
    const words = layer.r.captions!.words;
    expect(await meanVolume(layer.out, 0, 1.9)).toBeLessThan(-80);
    const said = await meanVolume(layer.out, words[0]!.start, words[1]!.end - words[0]!.start);
    expect(said).toBeGreaterThan(-35);
    expect((await probeOut(layer.out)).duration).toBeCloseTo(6, 1);
  });

  it("draws the captions while the words are said, and none before", async () => {
    const words = layer.r.captions!.words;
    expect(countNear(await frameAt(layer.out, 1.5, W, H), RED)).toBe(0);
    const during = await frameAt(layer.out, (words[1]!.start + words[1]!.end) / 2, W, H);
    expect(countNear(during, RED, { x: 0, y: 0.5, w: 1, h: 0.5 })).toBeGreaterThan(100);
    const later = await frameAt(layer.out, (words[3]!.start + words[3]!.end) / 2, W, H);
    expect(countNear(later, RED)).toBeGreaterThan(100);
  });
});

describe("a speech audio track", () => {
  it("starts at its start on the output's timeline", async () => {
    expect(track.r.captions).toBeNull();
    expect(await meanVolume(track.out, 0, 1.9)).toBeLessThan(-80);
    expect(await meanVolume(track.out, 2.05, 1)).toBeGreaterThan(-35);
  });
});
