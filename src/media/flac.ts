/**
 * Duration of a native FLAC file as ffprobe reports it (flacdec.c): STREAMINFO's total sample count in the
 * stream time base 1/sample rate. A zero count (unknown, streamed encoders) goes to ffprobe.
 */
import type { ByteSource } from "./byte-source.ts";
import { ascii, u8 } from "./bytes.ts";
import { ticksToUs } from "@media-render/contract/media/rescale";

/** Duration in microseconds, or null. `start` is where "fLaC" begins (after any ID3v2 tag). */
export const flacDurationUs = async (src: ByteSource, start = 0): Promise<number | null> => {
  const bytes = await src.read(start, 4 + 4 + 34);
  // The first metadata block must be STREAMINFO (type 0) of 34 bytes.
  if (ascii(bytes, 0, 4) !== "fLaC" || (u8(bytes, 4) & 0x7f) !== 0 || bytes.byteLength < 42) return null;
  const streamInfo = 8;
  const rate =
    (u8(bytes, streamInfo + 10) << 12) |
    (u8(bytes, streamInfo + 11) << 4) |
    (u8(bytes, streamInfo + 12) >> 4);
  const samples =
    (u8(bytes, streamInfo + 13) & 0x0f) * 2 ** 32 +
    ((u8(bytes, streamInfo + 14) << 24) >>> 0) +
    (u8(bytes, streamInfo + 15) << 16) +
    (u8(bytes, streamInfo + 16) << 8) +
    u8(bytes, streamInfo + 17);
  if (!rate || !samples) return null;
  return ticksToUs(samples, rate);
};
