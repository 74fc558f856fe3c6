/** Decodes images with the real ffmpeg into RGBA pixels, so tests can check colours at known points. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Pixels {
  width: number;
  height: number;
  at(x: number, y: number): [number, number, number, number];
}

export const decodeImage = (bytes: Uint8Array, width: number, height: number): Pixels => {
  const dir = mkdtempSync(join(tmpdir(), "px-"));
  let raw: Buffer;
  try {
    writeFileSync(join(dir, "in"), bytes);
    raw = execFileSync(
      "ffmpeg",
      ["-v", "error", "-i", join(dir, "in"), "-f", "rawvideo", "-pix_fmt", "rgba", "-"],
      {
        maxBuffer: 1 << 28,
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

/**
 * How far apart two images of the same size are (ffmpeg decodes both, any format): the mean absolute difference per
 * RGB channel (0-255), and the share of channels off by more than 64.
 */
export const imageDifference = (a: Uint8Array, b: Uint8Array) => {
  const dir = mkdtempSync(join(tmpdir(), "px-"));
  const rgb = (bytes: Uint8Array, name: string) => {
    writeFileSync(join(dir, name), bytes);
    return execFileSync(
      "ffmpeg",
      ["-v", "error", "-i", join(dir, name), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
      {
        maxBuffer: 1 << 26,
      },
    );
  };
  let x: Buffer;
  let y: Buffer;
  try {
    [x, y] = [rgb(a, "a"), rgb(b, "b")];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (x.length !== y.length) throw new Error(`images of different sizes: ${x.length} and ${y.length} bytes`);
  let sum = 0;
  let over = 0;
  for (let i = 0; i < x.length; i++) {
    const d = Math.abs(x[i]! - y[i]!);
    sum += d;
    if (d > 64) over++;
  }
  return { mean: sum / x.length, over: over / x.length };
};
