/** Pixel counting on one decoded frame: how many pixels of a region are near a colour. */
import { run } from "../../src/lib/process.ts";

export interface Frame {
  width: number;
  height: number;
  data: Buffer;
}

/** The RGB frame shown at `t` seconds. */
export const frameAt = async (path: string, t: number, width: number, height: number): Promise<Frame> => {
  const { stdout } = await run("ffmpeg", [
    ...["-v", "error", "-threads", "1", "-ss", String(t), "-i", path, "-frames:v", "1"],
    ...["-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
  ]);
  return { width, height, data: stdout };
};

/** Pixels within `tol` of `rgb` in the region (fractions of the frame; default the whole frame). */
export const countNear = (
  frame: Frame,
  rgb: [number, number, number],
  region = { x: 0, y: 0, w: 1, h: 1 },
  tol = 60,
): number => {
  let n = 0;
  const x0 = Math.floor(region.x * frame.width);
  const x1 = Math.floor((region.x + region.w) * frame.width);
  const y0 = Math.floor(region.y * frame.height);
  const y1 = Math.floor((region.y + region.h) * frame.height);
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = (y * frame.width + x) * 3;
      if (rgb.every((c, k) => Math.abs(frame.data[i + k]! - c) <= tol)) n++;
    }
  return n;
};

/** Every frame of the video at `path`, in order (frame n is the output's frame n), decoded once. */
export const allFrames = async (path: string, width: number, height: number): Promise<Frame[]> => {
  const { stdout } = await run("ffmpeg", [
    ...["-v", "error", "-threads", "1", "-i", path],
    ...["-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
  ]);
  const size = width * height * 3;
  return Array.from({ length: stdout.length / size }, (_, n) => ({
    width,
    height,
    data: stdout.subarray(n * size, (n + 1) * size),
  }));
};
