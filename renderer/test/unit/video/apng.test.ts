/**
 * The animated PNG an animated WebP becomes (apng.ts): its chunks in the order the APNG spec wants them (IHDR, acTL,
 * then per frame an fcTL before its IDAT or fdAT, sequence numbers counting up from 0), delays as exact fractions,
 * every chunk's CRC right; and the pixels zlib gives back are the frames given.
 */
import { crc32, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { delayFraction, encodeApng } from "../../../src/video/apng.ts";

/** Each chunk of a PNG file: type, data, whether its CRC is right. */
const chunks = (file: Buffer) => {
  const out: { type: string; data: Buffer; crcOk: boolean }[] = [];
  for (let at = 8; at < file.length;) {
    const length = file.readUInt32BE(at);
    const type = file.toString("latin1", at + 4, at + 8);
    const data = file.subarray(at + 8, at + 8 + length);
    out.push({
      type,
      data,
      crcOk: file.readUInt32BE(at + 8 + length) === crc32(file.subarray(at + 4, at + 8 + length)),
    });
    at += 12 + length;
  }
  return out;
};

const frame = (w: number, h: number, rgba: number[], delayMs: number) => ({
  rgba: new Uint8Array(w * h * 4).map((_, i) => rgba[i % 4]!),
  delayMs,
});

describe("encodeApng", () => {
  const file = encodeApng(3, 2, [frame(3, 2, [255, 0, 0, 255], 200), frame(3, 2, [0, 0, 255, 128], 70_000)]);
  const list = chunks(file);

  it("writes the PNG signature and the chunks in APNG's order, each with its CRC", () => {
    expect([...file.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(list.map((c) => c.type)).toEqual(["IHDR", "acTL", "fcTL", "IDAT", "fcTL", "fdAT", "IEND"]);
    expect(list.every((c) => c.crcOk)).toBe(true);
    expect([...list[0]!.data]).toEqual([0, 0, 0, 3, 0, 0, 0, 2, 8, 6, 0, 0, 0]);
    // Two frames, played forever.
    expect([list[1]!.data.readUInt32BE(0), list[1]!.data.readUInt32BE(4)]).toEqual([2, 0]);
  });

  it("numbers fcTL and fdAT in one sequence, each frame whole, its delay exact, replacing the canvas", () => {
    const [first, second] = [list[2]!.data, list[4]!.data];
    const fields = (d: Buffer) => ({
      sequence: d.readUInt32BE(0),
      size: [d.readUInt32BE(4), d.readUInt32BE(8)],
      offset: [d.readUInt32BE(12), d.readUInt32BE(16)],
      delay: [d.readUInt16BE(20), d.readUInt16BE(22)],
      ops: [d[24], d[25]],
    });
    expect(fields(first)).toEqual({
      sequence: 0,
      size: [3, 2],
      offset: [0, 0],
      delay: [200, 1000],
      ops: [0, 0],
    });
    expect(fields(second)).toEqual({
      sequence: 1,
      size: [3, 2],
      offset: [0, 0],
      delay: [7000, 100],
      ops: [0, 0],
    });
    expect(list[5]!.data.readUInt32BE(0)).toBe(2);
  });

  it("stores each row after filter byte 0, so the frames inflate to the pixels given", () => {
    const rows = (data: Buffer) => [...inflateSync(data)];
    const row = (px: number[]) => [0, ...px, ...px, ...px];
    expect(rows(list[3]!.data)).toEqual([...row([255, 0, 0, 255]), ...row([255, 0, 0, 255])]);
    expect(rows(list[5]!.data.subarray(4))).toEqual([...row([0, 0, 255, 128]), ...row([0, 0, 255, 128])]);
  });

  it("refuses no frames and a frame of the wrong size", () => {
    expect(() => encodeApng(2, 2, [])).toThrow(/needs a frame/);
    expect(() => encodeApng(2, 2, [frame(2, 1, [0, 0, 0, 0], 10)])).toThrow(/frame 0 is not 2x2 RGBA/);
  });
});

describe("delayFraction", () => {
  it("is milliseconds up to 65.535 s, hundredths above, at most 655.35 s", () => {
    expect(delayFraction(0)).toEqual({ num: 0, den: 1000 });
    expect(delayFraction(33.4)).toEqual({ num: 33, den: 1000 });
    expect(delayFraction(65_535)).toEqual({ num: 65_535, den: 1000 });
    expect(delayFraction(65_540)).toEqual({ num: 6554, den: 100 });
    expect(delayFraction(10_000_000)).toEqual({ num: 65_535, den: 100 });
  });
});
