/** Pixel helpers for render tests: decode and compare through the host's ffmpeg (see pixel-server.ts). */
import { inject } from "vitest";

export interface Decoded {
  width: number;
  height: number;
  at(x: number, y: number): [number, number, number, number];
  /** Bounding box of the pixels whose RGBA differs from `background` by more than `threshold` in some channel. */
  bbox(
    background: readonly number[],
    threshold?: number,
  ): { left: number; top: number; right: number; bottom: number } | null;
}

export const decode = async (bytes: Uint8Array): Promise<Decoded> => {
  const res = await fetch(`${inject("pixelServer")}/decode`, { method: "POST", body: bytes });
  if (!res.ok) throw new Error(await res.text());
  const width = Number(res.headers.get("x-width"));
  const height = Number(res.headers.get("x-height"));
  const raw = new Uint8Array(await res.arrayBuffer());
  const at = (x: number, y: number): [number, number, number, number] => {
    const i = (y * width + x) * 4;
    return [raw[i]!, raw[i + 1]!, raw[i + 2]!, raw[i + 3]!];
  };
  return {
    width,
    height,
    at,
    bbox(background, threshold = 40) {
      let box: { left: number; top: number; right: number; bottom: number } | null = null;
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          const p = at(x, y);
          if (!p.some((v, c) => Math.abs(v - (background[c] ?? 255)) > threshold)) continue;
          if (!box) box = { left: x, top: y, right: x, bottom: y };
          else {
            box.left = Math.min(box.left, x);
            box.right = Math.max(box.right, x);
            box.top = Math.min(box.top, y);
            box.bottom = Math.max(box.bottom, y);
          }
        }
      return box;
    },
  };
};

export interface Comparison {
  missing: boolean;
  sameSize?: boolean;
  meanDiff?: number;
  badShare?: number;
}

/** Compares a render with test/fixtures/reference/<name>.png (and keeps the render for a look). */
export const compareWithReference = async (name: string, png: Uint8Array): Promise<Comparison> => {
  const res = await fetch(`${inject("pixelServer")}/compare/${name}`, { method: "POST", body: png });
  if (!res.ok) throw new Error(await res.text());
  return (await res.json()) as Comparison;
};

export const distance = (a: readonly number[], b: readonly number[]) =>
  Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
