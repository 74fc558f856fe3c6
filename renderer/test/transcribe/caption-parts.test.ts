/**
 * The mix cut into transcription parts (video/captions/parts.ts) with the real offline recogniser: the cut near the
 * 30 s grid point falls in a pause of continuous speech, so no word is cut in two: the parts, recognised on their own
 * (at once), hear the words one run over the whole file hears.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captionGrid } from "@media-render/contract/caption-parts";
import { run } from "../../src/lib/process.ts";
import { pocketsphinxTranscriber } from "../../src/transcribe/pocketsphinx.ts";
import { SPEECH_AUDIO_FILTER, type TranscriptWord } from "../../src/transcribe/types.ts";
import { openWav, type WavFile } from "../../src/transcribe/wav-chunks.ts";
import { cutParts, transcribeParts, type MixPart } from "../../src/video/captions/parts.ts";
import { FIXTURES } from "../video/media-helpers.ts";

const SECONDS = 47;
let dir: string;
let wav: WavFile;
let parts: MixPart[];
let whole: TranscriptWord[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "caption-parts-"));
  const path = join(dir, "mix.wav");
  // Silence, then the fixture sentence three times back to back from 24.07 s (to 37.96 s): continuous speech all
  // through the cut's search (28-32 s), whose only quiet moments are the pauses between and inside its sentences;
  // the grid point itself, 30 s, falls 1.3 s into the second sentence, inside a word.
  await run("ffmpeg", [
    ...["-v", "error", "-stream_loop", "2", "-i", join(FIXTURES, "speech-en.wav")],
    ...["-af", `adelay=24070:all=1,apad=whole_dur=${SECONDS},${SPEECH_AUDIO_FILTER}`, path],
  ]);
  wav = await openWav(path);
  parts = await cutParts(wav, captionGrid(SECONDS), SECONDS, true);
  whole = (await pocketsphinxTranscriber().transcribe(path)).words;
}, 120_000);
afterAll(async () => {
  await wav.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the mix cut into transcription parts", () => {
  it("is cut once, near 30 s, in a pause: between two words the whole file's recogniser heard", async () => {
    expect(parts.map((p) => [p.index, p.start, p.end])).toEqual([
      [0, 0, parts[0]!.end],
      [1, parts[0]!.end, SECONDS],
    ]);
    const cut = parts[0]!.end;
    expect(Math.abs(cut - 30)).toBeLessThanOrEqual(2.1);
    expect(whole.filter((w) => w.start < cut && w.end > cut)).toEqual([]);
    expect(whole.some((w) => w.end <= cut && w.end > cut - 1.5)).toBe(true);
    // Quiet there: the 100 ms around the cut carry a small fraction of the speech's energy, where the grid point
    // itself is in the middle of a word.
    const rms = (s: Int16Array) => Math.sqrt(s.reduce((a, x) => a + x * x, 0) / s.length);
    const around = async (sample: number) => rms(await wav.read(sample - 800, sample + 800));
    const speech = rms(await wav.read(24.1 * 16000, 37.9 * 16000));
    expect(await around(parts[1]!.from)).toBeLessThan(0.1 * speech);
    expect(await around(30 * 16000)).toBeGreaterThan(0.5 * speech);
  });

  it("hears the whole file's words in its parts, recognised on their own, at once", async () => {
    const heard = await transcribeParts(wav, parts, {
      workDir: dir,
      transcriber: pocketsphinxTranscriber(),
    });
    const words = heard.flatMap((p) => p.words);
    // Each part's words stay inside it.
    for (const p of heard) for (const w of p.words) expect(w.start >= p.start && w.end <= p.end).toBe(true);
    // The offline recogniser decodes a stretch of speech as a whole and adapts to what it heard before, so on its
    // own a part may come out differently word for word (this rough model on synthetic speech: ~40 words either way,
    // a few of them different); no word is lost or doubled at the cut, so the counts stay close.
    expect(Math.abs(words.length - whole.length)).toBeLessThanOrEqual(0.15 * whole.length);
    for (const w of ["every", "word", "welcome"]) {
      const count = (list: TranscriptWord[]) => list.filter((x) => x.text === w).length;
      expect(Math.abs(count(words) - count(whole)), w).toBeLessThanOrEqual(1);
    }
  }, 120_000);
});
