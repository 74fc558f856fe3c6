/**
 * autoSubtitles end to end in the renderer with the real offline backend (pocketsphinx) on the fixture
 * speech-en.wav placed 1 s into a 7 s video: captions on frames while the speech plays, none before and after;
 * and the faults: no audio, no speech, a failing recogniser.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/lib/process.ts";
import { pocketsphinxTranscriber } from "../../src/transcribe/pocketsphinx.ts";
import { toSrt, toTranscriptJson, toWebVtt } from "../../src/video/captions/caption-files.ts";
import { NO_AUDIO_NOTE, NO_SPEECH_NOTE } from "../../src/video/captions/captions.ts";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo, type RenderVideoOptions, type RenderVideoResult } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { FIXTURES, probeOut } from "../video/media-helpers.ts";
import { countNear, frameAt } from "./frame-pixels.ts";

const W = 320;
const H = 180;
const YELLOW: [number, number, number] = [255, 255, 0];
let dir: string;
let silence: string;

const render = (name: string, extra: Record<string, unknown>, o: Partial<RenderVideoOptions> = {}) =>
  renderVideo({
    jobId: `job_${name}`,
    workDir: dir,
    outPath: join(dir, `${name}.mp4`),
    allowLocalFiles: true,
    config: videoConfig({
      width: W,
      height: H,
      fps: 10,
      clips: [{ duration: 7, layers: [{ type: "fill-color", color: "#202020" }] }],
      autoSubtitles: true,
      autoSubtitlesStyle: { textColor: "#ffff00", fontSize: 24 },
      ...extra,
    }),
    ...o,
  });

let speech: RenderVideoResult;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "captions-speech-"));
  silence = join(dir, "silence.wav");
  await run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-t", "3", silence]);
  speech = await render("speech", { audioTracks: [{ path: `${FIXTURES}/speech-en.wav`, start: 1 }] });
}, 120_000);
afterAll(async () => {
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

describe("autoSubtitles with the offline backend on speech-en.wav", () => {
  it("recognises the speech and places its words at the times they play in the video", () => {
    const c = speech.captions!;
    expect(c.backend).toBe("pocketsphinx");
    expect(c.note).toBeNull();
    const words = c.words.map((w) => w.text);
    for (const w of ["welcome", "every", "word", "you"]) expect(words).toContain(w);
    // The track starts 1 s in: every word lies within [1, 1 + 4.63] s.
    expect(c.words[0]!.start).toBeGreaterThanOrEqual(1);
    expect(c.words.at(-1)!.end).toBeLessThanOrEqual(5.63 + 1e-9);
    expect(c.cues.length).toBeGreaterThan(0);
  });

  it("draws captions while the speech plays and none before or after it", async () => {
    const lower = { x: 0, y: 0.5, w: 1, h: 0.5 };
    for (const t of [0.5, 6.5])
      expect(countNear(await frameAt(speech.outPath, t, W, H), YELLOW, lower), `at ${t}s`).toBe(0);
    for (const t of [2.5, 4.5])
      expect(countNear(await frameAt(speech.outPath, t, W, H), YELLOW, lower), `at ${t}s`).toBeGreaterThan(
        30,
      );
  });

  it("keeps the video's own length and audio", async () => {
    const facts = await probeOut(speech.outPath);
    expect(facts.duration).toBeCloseTo(7, 1);
    expect(facts.audio).not.toBeNull();
  });

  it("writes WebVTT and SRT with the burned-in cues, and the transcript with every word", () => {
    const vtt = toWebVtt(speech.captions!);
    expect(vtt.startsWith("WEBVTT\n")).toBe(true);
    expect(vtt).toMatch(/\n1\n00:00:01\.\d{3} --> 00:00:0\d\.\d{3}\nwelcome/);
    const srt = toSrt(speech.captions!);
    expect(srt).toMatch(/^1\n00:00:01,\d{3} --> 00:00:0\d,\d{3}\nwelcome/);
    const transcript = JSON.parse(toTranscriptJson(speech.captions!));
    expect(transcript).toMatchObject({ backend: "pocketsphinx", language: "en", note: null });
    expect(transcript.words.length).toBe(speech.captions!.words.length);
  });
});

describe("autoSubtitles faults", () => {
  it("a video without audio completes with no captions and says so", async () => {
    const r = await render("silent-video", {});
    expect(r.captions).toMatchObject({ backend: null, cues: [], note: NO_AUDIO_NOTE });
    expect(toWebVtt(r.captions!)).toBe(`WEBVTT\n\nNOTE ${NO_AUDIO_NOTE}\n`);
    expect(toSrt(r.captions!)).toBe("");
  });

  it("audio without speech completes with no captions and says so", async () => {
    const r = await render("no-speech", { audioTracks: [{ path: silence }] });
    expect(r.captions).toMatchObject({ backend: "pocketsphinx", words: [], cues: [], note: NO_SPEECH_NOTE });
    const f = await frameAt(r.outPath, 1.5, W, H);
    expect(countNear(f, YELLOW)).toBe(0);
  });

  it("a recogniser that fails fails the render with a clear message", async () => {
    await expect(
      render(
        "broken",
        { audioTracks: [{ path: `${FIXTURES}/speech-en.wav` }] },
        { transcriber: pocketsphinxTranscriber("/nonexistent/pocketsphinx_continuous") },
      ),
    ).rejects.toThrow("transcription failed: the offline speech recogniser did not run (not installed)");
  });
});
