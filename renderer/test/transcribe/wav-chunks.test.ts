import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/lib/process.ts";
import { pocketsphinxTranscriber } from "../../src/transcribe/pocketsphinx.ts";
import { SPEECH_AUDIO_FILTER } from "../../src/transcribe/types.ts";
import { parsePcmWav, pcmWav, quietCuts } from "../../src/transcribe/wav-chunks.ts";
import { FIXTURES } from "../video/media-helpers.ts";

describe("wav parts", () => {
  it("writes and reads back a mono 16-bit WAV", () => {
    const samples = Int16Array.from([0, 1, -1, 32767, -32768]);
    expect(parsePcmWav(pcmWav(16000, samples))).toEqual({ sampleRate: 16000, samples });
  });

  it("cuts in the quiet stretch nearest the even split point", () => {
    // 10 s of loud signal with one quiet second at 4-5 s: the cut for 2 parts lands inside it.
    const rate = 1000;
    const samples = Int16Array.from({ length: 10 * rate }, (_, i) =>
      i >= 4 * rate && i < 5 * rate ? 0 : 10000,
    );
    const [cut] = quietCuts({ sampleRate: rate, samples }, 2);
    expect(cut! / rate).toBeGreaterThan(4);
    expect(cut! / rate).toBeLessThan(5);
  });
});

describe("pocketsphinx on parts in parallel", () => {
  let dir: string;
  let wav: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "asr-parts-"));
    wav = join(dir, "long.wav");
    // The fixture sentence three times, then 0.4 s of silence: ~14 s, cut into two parts (the even split point falls
    // inside the second sentence, so the cut is looked for among its pauses).
    await run("ffmpeg", [
      ...["-v", "error", "-stream_loop", "2", "-i", join(FIXTURES, "speech-en.wav")],
      ...["-af", `apad=pad_dur=0.4,${SPEECH_AUDIO_FILTER}`, wav],
    ]);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("hears the same words at the same times as one run over the whole file", async () => {
    const [one, two] = await Promise.all([
      pocketsphinxTranscriber("pocketsphinx_continuous", 1).transcribe(wav),
      pocketsphinxTranscriber("pocketsphinx_continuous", 2).transcribe(wav),
    ]);
    const count = (words: { text: string }[], w: string) => words.filter((x) => x.text === w).length;
    for (const w of ["every", "word", "welcome"])
      expect(Math.abs(count(two.words, w) - count(one.words, w)), w).toBeLessThanOrEqual(1);
    // The last "every" is said at the same moment whichever way the file was read.
    const lastEvery = (words: { text: string; start: number }[]) =>
      words.filter((x) => x.text === "every").at(-1)!.start;
    expect(Math.abs(lastEvery(two.words) - lastEvery(one.words))).toBeLessThan(0.1);
    for (let i = 1; i < two.words.length; i++)
      expect(two.words[i]!.start).toBeGreaterThanOrEqual(two.words[i - 1]!.end);
    // Three pocketsphinx runs at once: 21 s on a loaded 2-core machine, over 60 s on one core of it.
  }, 180_000);
});
