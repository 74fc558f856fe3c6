import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWav, parsePcmWav, pcmWav, quietestMoment } from "../../src/transcribe/wav-chunks.ts";

describe("wav parts", () => {
  it("writes and reads back a mono 16-bit WAV", () => {
    const samples = Int16Array.from([0, 1, -1, 32767, -32768]);
    expect(parsePcmWav(pcmWav(16000, samples))).toEqual({ sampleRate: 16000, samples });
  });

  it("finds the quietest moment in the quiet stretch, the first of equal ones", () => {
    // 10 s of loud signal with one quiet second at 4-5 s: the quietest moment is inside it.
    const rate = 1000;
    const samples = Int16Array.from({ length: 10 * rate }, (_, i) =>
      i >= 4 * rate && i < 5 * rate ? 0 : 10000,
    );
    const at = quietestMoment(samples, rate);
    expect(at / rate).toBeGreaterThan(4);
    expect(at / rate).toBeLessThan(5);
    // Every window of the quiet second is silent: the first one wins, 100 ms (half a window) in.
    expect(at).toBe(4 * rate + 100);
    expect(quietestMoment(samples.subarray(3000), rate, 3000)).toBe(at);
  });
});

describe("a WAV file read by offset", () => {
  let dir: string;
  const rate = 16000;
  // 20 s of a loud 440 Hz tone with a quiet half-second at 12.3-12.8 s.
  const samples = Int16Array.from({ length: 20 * rate }, (_, i) =>
    i >= 12.3 * rate && i < 12.8 * rate ? 0 : Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)),
  );
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "wav-file-"));
    // A LIST chunk before the samples, as some writers put one.
    const plain = pcmWav(rate, samples);
    const list = new Uint8Array([..."LIST"].map((c) => c.charCodeAt(0)).concat([4, 0, 0, 0, 1, 2, 3, 4]));
    const withList = new Uint8Array(plain.length + list.length);
    withList.set(plain.subarray(0, 36));
    withList.set(list, 36);
    withList.set(plain.subarray(36), 36 + list.length);
    new DataView(withList.buffer).setUint32(4, withList.length - 8, true);
    await writeFile(join(dir, "tone.wav"), withList);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("reads spans, finds the quiet near a point and writes a part as a WAV of its own", async () => {
    const wav = await openWav(join(dir, "tone.wav"));
    try {
      expect(wav).toMatchObject({ sampleRate: rate, length: samples.length });
      expect(await wav.read(100, 110)).toEqual(samples.slice(100, 110));
      // Clamped to the file.
      expect((await wav.read(samples.length - 5, samples.length + 100)).length).toBe(5);
      const cut = await wav.quietNear(12 * rate, 2);
      expect(cut / rate).toBeGreaterThan(12.3);
      expect(cut / rate).toBeLessThan(12.8);
      // Searched only within 2 s of the point: a point far from the quiet finds no quiet.
      expect(Math.abs((await wav.quietNear(5 * rate, 2)) / rate - 5)).toBeLessThanOrEqual(2.2);
      await wav.writePart(cut, samples.length, join(dir, "part.wav"));
      const part = parsePcmWav(new Uint8Array(await readFile(join(dir, "part.wav"))))!;
      expect(part.sampleRate).toBe(rate);
      expect(part.samples).toEqual(samples.slice(cut));
    } finally {
      await wav.close();
    }
  });

  it("refuses a file that is not mono 16-bit PCM", async () => {
    const stereo = pcmWav(rate, samples.slice(0, 100));
    new DataView(stereo.buffer).setUint16(22, 2, true);
    await writeFile(join(dir, "stereo.wav"), stereo);
    await expect(openWav(join(dir, "stereo.wav"))).rejects.toThrow(/mono 16-bit PCM/);
  });
});
