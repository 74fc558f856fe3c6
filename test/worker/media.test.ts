/**
 * The in-process duration parsers against the real ffprobe (the renderer's /probe runs it): for every
 * fixture and for variants cut or edited here, the parser's microseconds equal ffprobe's format.duration.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bufferSource } from "../../src/media/byte-source";
import { readDurationUs } from "../../src/media/duration";
import { formatDuration } from "../../src/media/format-duration";
import { rendererFor } from "../../src/runner/renderer-client";
import { fixture } from "./helpers";

const ffprobeUs = async (bytes: Uint8Array, name: string) => {
  const probe = await rendererFor(env).probe(bytes.slice().buffer, bytes.byteLength, name);
  return probe.duration === null ? null : Math.round(probe.duration * 1e6);
};

/** A PCM WAV file of `samples` frames. */
const wav = (rate: number, channels: number, bits: number, samples: number) => {
  const data = samples * channels * (bits / 8);
  const b = new Uint8Array(44 + data);
  const v = new DataView(b.buffer);
  const tag = (at: number, s: string) => [...s].forEach((c, i) => (b[at + i] = c.charCodeAt(0)));
  tag(0, "RIFF");
  v.setUint32(4, 36 + data, true);
  tag(8, "WAVE");
  tag(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, channels, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, (rate * channels * bits) / 8, true);
  v.setUint16(32, (channels * bits) / 8, true);
  v.setUint16(34, bits, true);
  tag(36, "data");
  v.setUint32(40, data, true);
  return b;
};

describe("duration parsers match ffprobe to the microsecond", () => {
  for (const [name, expected] of [
    ["kohlipe3.mp4", 34_910_000],
    ["sample1.m4a", 2_024_000],
    ["winxp.mp3", 4_879_625],
  ] as const) {
    it(`reads ${name} in-process exactly as ffprobe does`, async () => {
      const bytes = fixture(name);
      const us = await readDurationUs(bufferSource(bytes));
      expect(us).toBe(expected);
      expect(us).toBe(await ffprobeUs(bytes, name));
    });
  }

  it("estimates a header-less CBR mp3 from size and bit rate, like ffprobe, at any cut", async () => {
    const whole = fixture("winxp.mp3");
    for (const cut of [0.31, 0.5, 0.77]) {
      const bytes = whole.slice(0, Math.floor(whole.byteLength * cut));
      expect(await readDurationUs(bufferSource(bytes))).toBe(await ffprobeUs(bytes, "cut.mp3"));
    }
  });

  it("follows the movie header when it says the movie is shorter (edited mvhd duration)", async () => {
    const bytes = fixture("sample1.m4a").slice();
    const at = [...bytes.keys()].find((i) => String.fromCharCode(...bytes.subarray(i, i + 4)) === "mvhd")!;
    const v = new DataView(bytes.buffer);
    const timescale = v.getUint32(at + 4 + 12);
    const ticks = Math.round(timescale * 1.2345);
    v.setUint32(at + 4 + 16, ticks);
    const us = await readDurationUs(bufferSource(bytes));
    expect(us).toBe(await ffprobeUs(bytes, "edited.m4a"));
    expect(us).toBe(Math.round((ticks * 1e6) / timescale));
    expect(us).toBeLessThan(2_000_000);
  });

  it("reads PCM WAV sample counts", async () => {
    for (const [rate, ch, bits, n] of [
      [44100, 1, 16, 54321],
      [48000, 2, 24, 48000 * 3 + 7],
      [8000, 1, 8, 12345],
    ] as const) {
      const bytes = wav(rate, ch, bits, n);
      expect(await readDurationUs(bufferSource(bytes))).toBe(await ffprobeUs(bytes, "tone.wav"));
    }
  });

  it("leaves unknown containers and damaged headers to ffprobe (null)", async () => {
    expect(await readDurationUs(bufferSource(fixture("emoji.png")))).toBeNull();
    expect(await readDurationUs(bufferSource(fixture("kohlipe3.mp4").slice(0, 5000)))).toBeNull();
    expect(await readDurationUs(bufferSource(new TextEncoder().encode("OggS but not really")))).toBeNull();
  });
});

describe("formatDuration", () => {
  it("uses MM:SS.mmm under an hour and HH:MM:SS.mmm from an hour", () => {
    expect(formatDuration(4880)).toBe("00:04.880");
    expect(formatDuration(34_910)).toBe("00:34.910");
    expect(formatDuration(3_599_999)).toBe("59:59.999");
    expect(formatDuration(3_600_000)).toBe("01:00:00.000");
    expect(formatDuration(90_061_001)).toBe("25:01:01.001");
    expect(formatDuration(4880, true)).toBe("00:00:04.880");
  });
});
