/**
 * In-process duration reading for the common containers, equal to ffprobe's `format.duration` to the
 * microsecond. Anything a parser cannot reproduce exactly answers null, and the caller asks ffprobe.
 */
import { withHead, type ByteSource } from "./byte-source.ts";
import { ascii, u8 } from "./bytes.ts";
import { flacDurationUs } from "./flac.ts";
import { matroskaDurationUs } from "./matroska.ts";
import { mp3DurationUs } from "./mp3.ts";
import { mp4DurationUs } from "./mp4.ts";
import { wavDurationUs } from "./wav.ts";

/** The first read covers headers, ID3 tags with small covers and a front `moov` of short files. */
export const HEAD_BYTES = 64 * 1024;

export type ContainerKind = "mp4" | "mp3" | "matroska" | "wav" | "flac";

/** Which parser understands the file starting with `head`; null for formats left to ffprobe. */
export const containerOf = (head: Uint8Array): ContainerKind | null => {
  if (ascii(head, 4, 4) === "ftyp" || ["moov", "mdat", "free", "wide"].includes(ascii(head, 4, 4)))
    return "mp4";
  if (u8(head, 0) === 0x1a && u8(head, 1) === 0x45 && u8(head, 2) === 0xdf && u8(head, 3) === 0xa3)
    return "matroska";
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 4) === "WAVE") return "wav";
  if (ascii(head, 0, 4) === "fLaC") return "flac";
  if (ascii(head, 0, 3) === "ID3" || (u8(head, 0) === 0xff && (u8(head, 1) & 0xe0) === 0xe0)) return "mp3";
  return null;
};

const PARSERS: Record<ContainerKind, (src: ByteSource) => Promise<number | null>> = {
  mp4: mp4DurationUs,
  mp3: mp3DurationUs,
  matroska: matroskaDurationUs,
  wav: wavDurationUs,
  flac: (src) => flacDurationUs(src),
};

/**
 * Duration in microseconds read in-process, or null when ffprobe must decide (unknown container, a file
 * whose duration ffmpeg derives from packets, or a damaged header).
 */
export const readDurationUs = async (source: ByteSource): Promise<number | null> => {
  if (source.size < 8) return null;
  const head = await source.read(0, Math.min(HEAD_BYTES, source.size));
  const kind = containerOf(head);
  if (!kind) return null;
  try {
    const us = await PARSERS[kind](withHead(source, head));
    return us !== null && Number.isFinite(us) && us > 0 ? us : null;
  } catch {
    return null; // a truncated or odd file: ffprobe's verdict is the one that counts
  }
};
