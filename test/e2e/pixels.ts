/** Decodes images with the real ffmpeg into RGBA pixels, so tests can check colours at known points. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Pixels {
  width: number;
  height: number;
  at(x: number, y: number): [number, number, number, number];
}

export const decodeImage = (bytes: Uint8Array, width: number, height: number): Pixels => {
  const file = join(mkdtempSync(join(tmpdir(), "px-")), "in");
  writeFileSync(file, bytes);
  const raw = execFileSync("ffmpeg", ["-v", "error", "-i", file, "-f", "rawvideo", "-pix_fmt", "rgba", "-"], {
    maxBuffer: 1 << 28,
  });
  if (raw.length !== width * height * 4)
    throw new Error(`decoded ${raw.length} bytes, expected ${width}x${height}x4`);
  return {
    width,
    height,
    at: (x, y) => {
      const i = (y * width + x) * 4;
      return [raw[i]!, raw[i + 1]!, raw[i + 2]!, raw[i + 3]!];
    },
  };
};

/** Euclidean RGB distance, for tolerance checks. */
export const distance = (a: readonly number[], b: readonly number[]) =>
  Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

/** Size of a PNG from its IHDR chunk. */
export const pngSize = (b: Uint8Array) => {
  const v = new DataView(b.buffer, b.byteOffset);
  return { width: v.getUint32(16), height: v.getUint32(20) };
};
