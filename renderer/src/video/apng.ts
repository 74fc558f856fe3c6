/**
 * An animated PNG of whole RGBA frames, each shown for its own delay: how an animated WebP reaches ffmpeg 5.1, whose
 * WebP decoder reads no animation (animated-webp.ts). Every frame covers the canvas (no offsets, disposal or
 * blending), so ffmpeg's APNG decoder draws exactly the pixels given, and its demuxer times each frame by its
 * delay. Pure: frames in, file bytes out (node:zlib deflates the rows and computes the chunk CRCs).
 */
import { crc32, deflateSync } from "node:zlib";

/** One whole frame: `width x height x 4` bytes of straight RGBA, shown for `delayMs`. */
export interface ApngFrame {
  rgba: Uint8Array;
  delayMs: number;
}

/** zlib's fastest level: the file lives for one render, and its frames inflate as fast at any level. */
const DEFLATE_LEVEL = 1;

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

const chunk = (type: string, data: Uint8Array): Buffer => {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
};

/** A delay as the fcTL's 16-bit fraction: milliseconds, or hundredths of a second above 65.535 s (at most 655 s). */
export const delayFraction = (ms: number): { num: number; den: number } => {
  const whole = Math.max(0, Math.round(ms));
  return whole <= 0xffff
    ? { num: whole, den: 1000 }
    : { num: Math.min(0xffff, Math.round(whole / 10)), den: 100 };
};

/** The rows of one frame, each after filter byte 0 (none), deflated. */
const imageData = (rgba: Uint8Array, width: number, height: number): Buffer => {
  const stride = width * 4;
  const rows = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++)
    rows.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  return deflateSync(rows, { level: DEFLATE_LEVEL });
};

/**
 * The APNG file of `frames` (at least one), each `width x height`, played in a loop, chunk by chunk: a writer holds
 * one frame's compressed rows at a time, not the whole file.
 */
export const apngParts = function* (
  width: number,
  height: number,
  frames: readonly ApngFrame[],
): Generator<Buffer> {
  if (frames.length === 0) throw new Error("an animated PNG needs a frame");
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, adaptive filtering, not interlaced
  const actl = Buffer.alloc(8);
  actl.writeUInt32BE(frames.length, 0); // num_plays 0: forever
  yield Buffer.from(SIGNATURE);
  yield chunk("IHDR", ihdr);
  yield chunk("acTL", actl);
  let sequence = 0;
  for (const [i, frame] of frames.entries()) {
    if (frame.rgba.length !== width * height * 4)
      throw new Error(`frame ${i} is not ${width}x${height} RGBA`);
    const fctl = Buffer.alloc(26);
    const { num, den } = delayFraction(frame.delayMs);
    fctl.writeUInt32BE(sequence++, 0);
    fctl.writeUInt32BE(width, 4);
    fctl.writeUInt32BE(height, 8);
    fctl.writeUInt16BE(num, 20);
    fctl.writeUInt16BE(den, 22);
    // x/y offsets 0, dispose_op 0 (none) and blend_op 0 (source): the frame replaces the canvas.
    yield chunk("fcTL", fctl);
    const data = imageData(frame.rgba, width, height);
    if (i === 0) yield chunk("IDAT", data);
    else {
      const fdat = Buffer.alloc(4 + data.length);
      fdat.writeUInt32BE(sequence++, 0);
      fdat.set(data, 4);
      yield chunk("fdAT", fdat);
    }
  }
  yield chunk("IEND", new Uint8Array(0));
};

/** The whole APNG file of `frames` in memory (apngParts). */
export const encodeApng = (width: number, height: number, frames: readonly ApngFrame[]): Buffer =>
  Buffer.concat([...apngParts(width, height, frames)]);
