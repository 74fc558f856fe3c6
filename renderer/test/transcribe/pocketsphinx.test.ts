import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { run } from "../../src/lib/process.ts";
import { parsePocketsphinx, pocketsphinxTranscriber } from "../../src/transcribe/pocketsphinx.ts";
import { normaliseWords, SPEECH_AUDIO_FILTER, TranscriptionFailed } from "../../src/transcribe/types.ts";
import { FIXTURES } from "../video/media-helpers.ts";

describe("parsePocketsphinx", () => {
  it("keeps words with their times and drops fillers and pronunciation suffixes", () => {
    const out =
      "welcome to\n<s> 0.120 0.190 0.99\nwelcome 0.200 0.590 0.002\nto(3) 0.600 0.880 0.003\n<sil> 2.35 2.48 0.5\n[NOISE] 2.5 2.6 0.1\n</s> 4.570 4.620 1.0\n";
    expect(parsePocketsphinx(out)).toEqual([
      { text: "welcome", start: 0.2, end: 0.59 },
      { text: "to", start: 0.6, end: 0.88 },
    ]);
  });
});

describe("normaliseWords", () => {
  it("clamps times into the audio and makes them monotonic", () => {
    expect(
      normaliseWords(
        [
          { text: " a ", start: 0.5, end: 1.2 },
          { text: "b", start: 1.1, end: 1.4 },
          { text: "", start: 2, end: 3 },
          { text: "c", start: 4.5, end: 6 },
        ],
        5,
      ),
    ).toEqual([
      { text: "a", start: 0.5, end: 1.2 },
      { text: "b", start: 1.2, end: 1.4 },
      { text: "c", start: 4.5, end: 5 },
    ]);
  });
});

describe("pocketsphinx backend on the fixture speech-en.wav", () => {
  let dir: string;
  let wav: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "asr-"));
    wav = join(dir, "speech.wav");
    await run("ffmpeg", [
      "-v",
      "error",
      "-i",
      join(FIXTURES, "speech-en.wav"),
      "-af",
      SPEECH_AUDIO_FILTER,
      wav,
    ]);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("recognises words of the sentence with increasing times inside the file's 4.63 s", async () => {
    const t = await pocketsphinxTranscriber().transcribe(wav);
    expect(t.backend).toBe("pocketsphinx");
    expect(t.language).toBe("en");
    const texts = t.words.map((w) => w.text.toLowerCase());
    // "Welcome to the media rendering service. Every word you hear appears on the screen." The offline
    // model is rough on synthetic speech; these words it gets (the rest varies with the model's guesses).
    for (const word of ["welcome", "every", "word", "you"]) expect(texts).toContain(word);
    let last = 0;
    for (const w of t.words) {
      expect(w.start).toBeGreaterThanOrEqual(last);
      expect(w.end).toBeGreaterThan(w.start);
      expect(w.end).toBeLessThanOrEqual(4.63);
      last = w.end;
    }
    // "every word you" is said in the second sentence, after the pause near 2.4 s.
    const every = t.words.find((w) => w.text === "every")!;
    expect(every.start).toBeGreaterThan(2);
    expect(every.start).toBeLessThan(3);
  });

  it("refuses a language it does not know, with a message naming the other backend", async () => {
    await expect(pocketsphinxTranscriber().transcribe(wav, { language: "fr" })).rejects.toThrow(
      /only knows English.*Workers AI/,
    );
  });

  it("fails with a TranscriptionFailed (not a host path) when the recogniser is missing", async () => {
    const error = await pocketsphinxTranscriber("/nonexistent/pocketsphinx")
      .transcribe(wav)
      .catch((e) => e);
    expect(error).toBeInstanceOf(TranscriptionFailed);
    expect(String(error.message)).not.toContain("/nonexistent");
  });
});
