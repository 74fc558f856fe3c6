/**
 * Ducking through the real renderer: a steady tone as the background track, a speech layer whose own volume is 0
 * (so the output is the tone alone), and `ducking`: the tone's level drops by the amount while the speech's
 * words are said, and is back where it was before speech once the release is over. Plus the pure parts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/lib/process.ts";
import { duckFilter, speechIntervals } from "../../src/video/ducking.ts";
import { renderVideo, type RenderVideoResult } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { meanVolume } from "../video/media-helpers.ts";

let dir: string;
let tone: string;
const render = async (name: string, extra: Record<string, unknown>) => {
  const out = join(dir, `${name}.mp4`);
  const r = await renderVideo({
    jobId: `job_${name}`,
    workDir: dir,
    outPath: out,
    allowLocalFiles: true,
    config: videoConfig({
      width: 64,
      height: 64,
      fps: 10,
      clips: [
        {
          duration: 6,
          layers: [
            { type: "fill-color", color: "#000000" },
            { type: "speech", text: "This is a test of ducking", start: 1.5, mixVolume: 0 },
          ],
        },
      ],
      audioFilePath: tone,
      autoSubtitles: true,
      ...extra,
    }),
  });
  return { out, r };
};

let ducked: { out: string; r: RenderVideoResult };
let plain: { out: string; r: RenderVideoResult };
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ducking-"));
  tone = join(dir, "tone.wav");
  await run("ffmpeg", [
    ...["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=6:sample_rate=48000"],
    ...["-af", "volume=0.5", "-y", tone],
  ]);
  ducked = await render("ducked", { ducking: { amount: 12, attack: 0.2, release: 0.5 } });
  plain = await render("plain", {});
}, 120_000);
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe("ducking (pure)", () => {
  it("merges words closer than attack + release into one interval", () => {
    const words = [
      { start: 1, end: 1.3 },
      { start: 1.5, end: 1.8 },
      { start: 3, end: 3.2 },
    ];
    expect(speechIntervals(words, 0.7)).toEqual([
      [1, 1.8],
      [3, 3.2],
    ]);
  });

  it("writes one per-frame volume expression with a ramp on each side", () => {
    const filter = duckFilter({ amount: 20, attack: 0.1, release: 0.5, intervals: [[1, 2]] });
    expect(filter).toBe("volume='pow(10,-1*min(clip((t-0.9)/0.1,0,1),clip((2.5-t)/0.5,0,1)))':eval=frame");
  });
});

describe("ducking (rendered)", () => {
  it("lowers the music by the amount while the speech is said, and brings it back after the release", async () => {
    const words = ducked.r.captions!.words;
    const first = words[0]!.start;
    const last = words.at(-1)!.end;
    expect(first).toBeCloseTo(1.55, 2);
    const before = await meanVolume(ducked.out, 0.3, 1);
    const during = await meanVolume(ducked.out, first + 0.1, last - first - 0.2);
    const after = await meanVolume(ducked.out, last + 0.6, 5.8 - (last + 0.6));
    expect(before - during).toBeGreaterThan(11);
    expect(before - during).toBeLessThan(13);
    expect(Math.abs(after - before)).toBeLessThan(0.5);
    // Without ducking the tone keeps its level under the (silent) speech.
    const steady = await meanVolume(plain.out, first + 0.1, last - first - 0.2);
    expect(Math.abs(steady - before)).toBeLessThan(0.5);
  });

  it("ramps down over the attack: half way through it the music is part way down", async () => {
    const first = ducked.r.captions!.words[0]!.start;
    const ramp = await meanVolume(ducked.out, first - 0.15, 0.1);
    const before = await meanVolume(ducked.out, 0.3, 1);
    expect(before - ramp).toBeGreaterThan(2);
    expect(before - ramp).toBeLessThan(11);
  });
});
