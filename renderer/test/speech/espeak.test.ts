/**
 * The offline voice (Debian's espeak-ng, real): each word spoken on its own and joined, so every word's times
 * are where its samples are. Checked by the samples: loud inside each word, silent in the pauses between.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { espeakSynthesizer, espeakVoice, joinWords, pauseAfter } from "../../src/speech/espeak.ts";
import { readWav, voicedRange, wavBytes } from "../../src/speech/pcm.ts";

let dir: string;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), "espeak-"))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** Root mean square of samples [from, to) seconds, as a fraction of full scale. */
const rms = (samples: Int16Array, rate: number, from: number, to: number): number => {
  const a = Math.max(0, Math.floor(from * rate));
  const b = Math.min(samples.length, Math.ceil(to * rate));
  let sum = 0;
  for (let i = a; i < b; i++) sum += (samples[i]! / 32768) ** 2;
  return Math.sqrt(sum / Math.max(1, b - a));
};

describe("joining separately spoken words (pure)", () => {
  const tone = (n: number) => ({
    sampleRate: 1000,
    samples: Int16Array.from({ length: n + 20 }, (_, i) => (i >= 10 && i < 10 + n ? 8000 : 0)),
  });

  it("times each word by its samples and pauses by punctuation", () => {
    const { words, samples } = joinWords(["Hi,", "you.", "Go"], [tone(100), tone(200), tone(50)], 1);
    expect(words.map((w) => w.text)).toEqual(["Hi,", "you.", "Go"]);
    // lead 0.05 s; "Hi," 0.1 s then a clause pause 0.25; "you." 0.2 then a sentence pause 0.45.
    expect(words[0]).toEqual({ text: "Hi,", start: 0.05, end: 0.15 });
    expect(words[1]).toEqual({ text: "you.", start: 0.4, end: 0.6 });
    expect(words[2]!.start).toBeCloseTo(1.05, 6);
    expect(samples.length).toBe(1050 + 50 + 70);
  });

  it("halves the pauses at rate 2 and gives an unvoiced token's text to the word before", () => {
    const silent = { sampleRate: 1000, samples: new Int16Array(30) };
    const { words } = joinWords(["Yes", "—", "no"], [tone(100), silent, tone(100)], 2);
    expect(words.map((w) => w.text)).toEqual(["Yes —", "no"]);
    expect(words[1]!.start - words[0]!.end).toBeCloseTo(0.035, 6);
  });

  it("reads pauses and voices from the request", () => {
    expect(pauseAfter("end.")).toBe(0.45);
    expect(pauseAfter('said."')).toBe(0.45);
    expect(pauseAfter("so,")).toBe(0.25);
    expect(pauseAfter("word")).toBe(0.07);
    expect(espeakVoice({ text: "x" })).toBe("en");
    expect(espeakVoice({ text: "x", language: "en-GB" })).toBe("en-gb");
    expect(espeakVoice({ text: "x", language: "de", voice: "en+f3" })).toBe("en+f3");
  });

  it("writes and reads back a mono 16-bit WAV", () => {
    const samples = Int16Array.from([0, 1, -1, 32767, -32768]);
    const back = readWav(wavBytes(samples, 22050));
    expect(back.sampleRate).toBe(22050);
    expect([...back.samples]).toEqual([...samples]);
    expect(voicedRange(new Int16Array(10))).toBeNull();
  });
});

describe("espeak-ng (real)", () => {
  it("speaks every word where its times say, with silence between sentences", async () => {
    const out = join(dir, "hello.wav");
    const speech = await espeakSynthesizer("espeak-ng").synthesize(
      { text: "Hello there. Welcome to the show", language: "en" },
      out,
    );
    expect(speech.words.map((w) => w.text)).toEqual(["Hello", "there.", "Welcome", "to", "the", "show"]);
    const { samples, sampleRate } = readWav(new Uint8Array(await readFile(out)));
    expect(speech.duration).toBeCloseTo(samples.length / sampleRate, 6);
    const starts = speech.words.map((w) => w.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    for (const w of speech.words) {
      expect(w.end).toBeGreaterThan(w.start);
      expect(rms(samples, sampleRate, w.start, w.end), w.text).toBeGreaterThan(0.02);
    }
    const [there, welcome] = [speech.words[1]!, speech.words[2]!];
    expect(welcome.start - there.end).toBeCloseTo(0.45, 2);
    expect(rms(samples, sampleRate, there.end + 0.01, welcome.start - 0.01)).toBe(0);
    expect(rms(samples, sampleRate, 0, speech.words[0]!.start)).toBe(0);
  }, 60_000);

  it("speaks slower at rate 0.5 than at 2", async () => {
    const say = (rate: number) =>
      espeakSynthesizer("espeak-ng").synthesize(
        { text: "one two three four", rate },
        join(dir, `r${rate}.wav`),
      );
    const [slow, fast] = [await say(0.5), await say(2)];
    expect(slow.duration).toBeGreaterThan(fast.duration * 2);
  }, 60_000);

  it("refuses a voice it does not have, in words a user can act on", async () => {
    await expect(
      espeakSynthesizer("espeak-ng").synthesize({ text: "hi", voice: "zzz" }, join(dir, "x.wav")),
    ).rejects.toThrow(
      /^speech: the offline voice has no voice "zzz" \(set by the entry's voice, or its language\)/,
    );
  }, 30_000);
});
