/**
 * Captions burned in from a deterministic transcript (a stand-in transcriber with exact word times): present
 * while words are said, absent before, after and in the pause, revealed word by word, and styled as asked
 * (text colour, outline colour, position).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Transcriber, TranscriptWord } from "../../src/transcribe/types.ts";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo, type RenderVideoResult } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { FIXTURES, probeOut } from "../video/media-helpers.ts";
import { countNear, frameAt, type Frame } from "./frame-pixels.ts";

const W = 320;
const H = 180;
const RED: [number, number, number] = [255, 0, 0];
const GREEN: [number, number, number] = [0, 255, 0];
const WORDS: TranscriptWord[] = [
  { text: "HELLO", start: 1.0, end: 1.4 },
  { text: "WORLD", start: 1.6, end: 2.0 },
  { text: "AGAIN", start: 4.0, end: 4.4 },
];

let dir: string;
const heard: { wav: string; facts: Awaited<ReturnType<typeof probeOut>> }[] = [];
const fixed: Transcriber = {
  backend: "pocketsphinx",
  async transcribe(wav) {
    heard.push({ wav, facts: await probeOut(wav) });
    return { backend: "pocketsphinx", language: "en", words: WORDS };
  },
};

const render = async (
  name: string,
  style: Record<string, unknown>,
): Promise<{ out: string; r: RenderVideoResult }> => {
  const out = join(dir, `${name}.mp4`);
  const r = await renderVideo({
    jobId: `job_${name}`,
    workDir: dir,
    outPath: out,
    allowLocalFiles: true,
    transcriber: fixed,
    config: videoConfig({
      width: W,
      height: H,
      fps: 10,
      clips: [{ duration: 6, layers: [{ type: "fill-color", color: "#0000ff" }] }],
      audioTracks: [{ path: `${FIXTURES}/winxp.mp3` }],
      autoSubtitles: true,
      autoSubtitlesStyle: style,
    }),
  });
  return { out, r };
};

let bottom: { out: string; r: RenderVideoResult };
let top: { out: string; r: RenderVideoResult };
const frames = new Map<string, Frame>();
const frame = async (which: { out: string }, t: number) => {
  const key = `${which.out}@${t}`;
  if (!frames.has(key)) frames.set(key, await frameAt(which.out, t, W, H));
  return frames.get(key)!;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "captions-"));
  bottom = await render("bottom", {
    textColor: "#ff0000",
    outlineColor: "#00ff00",
    outlineWidth: 2,
    fontSize: 30,
  });
  top = await render("top", {
    textColor: "#ff0000",
    position: "top",
    fontSize: 30,
    animation: "letter-by-letter",
  });
}, 120_000);
afterAll(async () => {
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

const lowerHalf = { x: 0, y: 0.5, w: 1, h: 0.5 };
const upperHalf = { x: 0, y: 0, w: 1, h: 0.5 };
const leftHalf = { x: 0, y: 0, w: 0.5, h: 1 };
const rightHalf = { x: 0.5, y: 0, w: 0.5, h: 1 };

describe("burned-in captions from a deterministic transcript", () => {
  it("transcribes the final mix once, as 16 kHz mono audio as long as the video", () => {
    expect(heard).toHaveLength(2);
    expect(heard[0]!.facts.audio).toEqual({ codec: "pcm_s16le", channels: 1 });
    expect(heard[0]!.facts.duration).toBeCloseTo(6, 1);
  });

  it("reports the cues laid out: one per phrase, the pause splits them", () => {
    const c = bottom.r.captions!;
    expect(c.backend).toBe("pocketsphinx");
    expect(c.note).toBeNull();
    expect(
      c.cues.map((q) =>
        q.lines
          .flat()
          .map((w) => w.text)
          .join(" "),
      ),
    ).toEqual(["HELLO WORLD", "AGAIN"]);
  });

  it("draws nothing before the first word, in the pause and after the last", async () => {
    for (const t of [0.5, 3.0, 5.5]) {
      const f = await frame(bottom, t);
      expect(countNear(f, RED), `red at ${t}s`).toBe(0);
      expect(countNear(f, GREEN), `green at ${t}s`).toBe(0);
    }
  });

  it("reveals word by word at the spoken times, in the text colour with the outline colour, at the bottom", async () => {
    const first = await frame(bottom, 1.25);
    const both = await frame(bottom, 1.85);
    // "HELLO" is said, "WORLD" not yet: red only in the left half of the centred line.
    expect(countNear(first, RED, leftHalf)).toBeGreaterThan(50);
    expect(countNear(first, RED, rightHalf)).toBeLessThan(5);
    expect(countNear(both, RED, rightHalf)).toBeGreaterThan(50);
    expect(countNear(both, GREEN)).toBeGreaterThan(50);
    expect(countNear(both, RED, upperHalf)).toBe(0);
    expect(countNear(both, RED, lowerHalf)).toBeGreaterThan(100);
    expect(countNear(await frame(bottom, 4.2), RED, lowerHalf)).toBeGreaterThan(50);
  });

  it("places captions at the style's position and reveals letter by letter", async () => {
    const early = await frame(top, 1.1);
    const later = await frame(top, 1.35);
    expect(countNear(later, RED, lowerHalf)).toBe(0);
    expect(countNear(later, RED, upperHalf)).toBeGreaterThan(countNear(early, RED, upperHalf) + 20);
    expect(countNear(await frame(top, 0.5), RED)).toBe(0);
  });
});
