/**
 * Duration of an MPEG audio file (mp3) as ffprobe reports it (libavformat/mp3dec.c and demux.c):
 * - a Xing/Info or VBRI header with a frame count: frames x samples-per-frame / sample rate;
 * - otherwise (plain CBR): ffmpeg *estimates* from the file size and the bit rate,
 *   (file size - offset of the first frame) x 8 / bit rate (estimate_timings_from_bit_rate), with the stream
 *   time base 1/14112000 in between. That estimate is only reproducible when every frame has the same bit
 *   rate (ffmpeg averages the rates of the frames it happens to parse), so VBR without a header goes to ffprobe.
 */
import type { ByteSource } from "./byte-source.ts";
import { ascii, u16be, u32be, u8 } from "./bytes.ts";
import { decodeMpaHeader, MP3_MASK, samplesPerFrame, type MpaHeader } from "./mpeg-audio-header.ts";
import { avRescale, ticksToUs } from "@media-render/contract/media/rescale";

/** ffmpeg's mp3 stream time base: 1/14112000 s, the LCM of every MPEG audio sample rate. */
const TB = 14_112_000n;
/** Frames compared to decide that a header-less file is constant bit rate. */
const CBR_FRAMES = 24;

/** End of the ID3v2 tags at the start of the file (ffmpeg skips consecutive tags). */
const skipId3v2 = async (src: ByteSource): Promise<number> => {
  let off = 0;
  for (;;) {
    const bytes = await src.read(off, 10);
    const isTag =
      bytes.byteLength === 10 &&
      ascii(bytes, 0, 3) === "ID3" &&
      u8(bytes, 3) !== 0xff &&
      u8(bytes, 4) !== 0xff &&
      ((u8(bytes, 6) | u8(bytes, 7) | u8(bytes, 8) | u8(bytes, 9)) & 0x80) === 0;
    if (!isTag) return off;
    const len = (u8(bytes, 6) << 21) | (u8(bytes, 7) << 14) | (u8(bytes, 8) << 7) | u8(bytes, 9);
    off += 10 + len + (u8(bytes, 5) & 0x10 ? 10 : 0);
  }
};

const headerAt = async (src: ByteSource, at: number): Promise<{ raw: number; h: MpaHeader } | null> => {
  const bytes = await src.read(at, 4);
  if (bytes.byteLength < 4) return null;
  const raw = u32be(bytes, 0);
  const h = decodeMpaHeader(raw);
  return h ? { raw, h } : null;
};

/** Frame count from a Xing/Info or VBRI header in the first frame at `base`; "none" when there is none. */
const vbrFrames = async (src: ByteSource, base: number, h: MpaHeader): Promise<number | "none" | null> => {
  if (h.layer !== 3) return "none";
  const bytes = await src.read(base, 4 + 36 + 26);
  const xingAt = 4 + (h.lsf ? (h.channels === 1 ? 9 : 17) : h.channels === 1 ? 17 : 32);
  let frames = 0;
  let headerSize = 0;
  const tag = ascii(bytes, xingAt, 4);
  if (tag === "Xing" || tag === "Info") {
    const flags = u32be(bytes, xingAt + 4);
    let offset = xingAt + 8;
    if (flags & 1) {
      frames = u32be(bytes, offset);
      offset += 4;
    }
    if (flags & 2) headerSize = u32be(bytes, offset);
    if (headerSize) {
      // ffmpeg drops the frame count of a file much larger than its header says ("concatenated file");
      // it measures from just after the frame header. Either way that file is not ours to guess.
      const fsize = src.size - (base + 4);
      const min = Math.min(fsize, headerSize);
      if (Math.max(fsize, headerSize) - min > Math.floor(min / 16)) return null;
    }
  }
  if (ascii(bytes, 36, 4) === "VBRI" && u16be(bytes, 40) === 1) {
    headerSize = u32be(bytes, 46);
    frames = u32be(bytes, 50);
  }
  if (frames) return frames;
  return headerSize ? null : "none";
};

/** First frame at or after `off` whose successor has the same fixed header bits (ffmpeg's resync). */
const firstFrame = async (src: ByteSource, off: number) => {
  const window = await src.read(off, 64 * 1024 + 4);
  for (let i = 0; i + 4 <= window.byteLength; i++) {
    if (window[i] !== 0xff) continue;
    const raw = u32be(window, i);
    const h = decodeMpaHeader(raw);
    if (!h || !h.frameSize) continue;
    const next = await headerAt(src, off + i + h.frameSize);
    if (next && (next.raw & MP3_MASK) >>> 0 === (raw & MP3_MASK) >>> 0) return { at: off + i, h };
  }
  return null;
};

/** Whether the first frames from `at` all share `bitRate` (or the file ends first). */
const isCbr = async (src: ByteSource, at: number, bitRate: number): Promise<boolean> => {
  for (let checked = 0; checked < CBR_FRAMES && at + 4 <= src.size; checked++) {
    const frame = await headerAt(src, at);
    if (!frame) return at + 128 >= src.size; // trailing ID3v1 tag or padding
    if (frame.h.bitRate !== bitRate) return false;
    at += frame.h.frameSize;
  }
  return true;
};

/** Duration in microseconds; null when only ffprobe's own estimate would match. */
export const mp3DurationUs = async (src: ByteSource): Promise<number | null> => {
  const base = await skipId3v2(src);
  const sync = await src.read(base, 2);
  // ADTS AAC shares the 12-bit sync word (layer bits 00): ffprobe reads it with another demuxer.
  if (sync[0] === 0xff && ((sync[1] ?? 0) & 0xf6) === 0xf0) return null;
  const first = await headerAt(src, base);
  if (first) {
    const frames = await vbrFrames(src, base, first.h);
    if (frames === null) return null;
    if (frames !== "none") {
      const ticks = avRescale(
        BigInt(frames),
        BigInt(samplesPerFrame(first.h)) * TB,
        BigInt(first.h.sampleRate),
      );
      return ticksToUs(ticks, TB);
    }
  }
  const start = await firstFrame(src, base);
  if (!start || !start.h.bitRate || !(await isCbr(src, start.at, start.h.bitRate))) return null;
  const ticks = avRescale(BigInt(src.size - start.at), 8n * TB, BigInt(start.h.bitRate));
  return ticksToUs(ticks, TB);
};
