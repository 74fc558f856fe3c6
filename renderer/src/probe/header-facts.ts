/**
 * In-process readers behind probe-media.ts: stills whose header tells everything (PNG, JPEG, simple WebP)
 * and H.264/HEVC MP4s (their `moov`) are read without ffprobe, whose process start-up alone costs ~60 ms
 * on the path before a render's encoder starts. Each returns null for what only ffprobe can tell.
 */
import { open } from "node:fs/promises";
import { readImageHeader } from "@media-render/contract/media/image-header";
import {
  boxAt,
  FIRST_BOXES,
  MAX_MOOV_BYTES,
  parseMoov,
  type Mp4Facts,
} from "@media-render/contract/media/mp4-header";
import { MP4_DEMUXER, STILL_DEMUXER } from "./demuxers.ts";
import type { MediaFacts } from "./media-facts.ts";

/** Bytes read for a still's header (JPEG metadata before the frame header can be long). */
const HEADER_BYTES = 256 * 1024;

/** Facts of a still from its header alone, or null when only ffprobe can tell (other formats, animation). */
export const probeStill = async (path: string): Promise<MediaFacts | null> => {
  const file = await open(path, "r");
  try {
    const buf = new Uint8Array(HEADER_BYTES);
    const { bytesRead } = await file.read(buf, 0, HEADER_BYTES, 0);
    const h = readImageHeader(buf.subarray(0, bytesRead));
    if (!h || h.hasAlpha === null || h.animated !== false) return null;
    return {
      width: h.width,
      height: h.height,
      duration: null,
      rotation: 0,
      videoCodec: h.codec,
      hasVideo: false,
      hasAudio: false,
      hasAlpha: h.hasAlpha,
      orientation: h.orientation,
      demuxer: STILL_DEMUXER,
      ffprobe: null,
    };
  } finally {
    await file.close();
  }
};

/** Chunks an animated PNG's reader walks at most (two per frame, and a few more). */
const MAX_PNG_CHUNKS = 100_000;

/**
 * Seconds an animated PNG's frame shows, as ffmpeg's APNG demuxer times it: `num/den`, a zero `den` read as 100 and
 * a zero `num` as a fifteenth of a second (its default rate).
 */
export const apngDelay = (num: number, den: number): number => (num === 0 ? 1 / 15 : num / (den || 100));

/**
 * Facts of an animated PNG (more than one frame) from its chunks, its length the sum of its frames' delays: ffprobe
 * reports none for APNG, without which a render would take it for a still. Null for anything else.
 */
export const probeApng = async (path: string): Promise<MediaFacts | null> => {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    const head = new Uint8Array(33);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    const h = readImageHeader(head.subarray(0, bytesRead));
    if (h?.codec !== "png" || bytesRead < head.length) return null;
    const colorType = head[25]!;
    let hasAlpha = colorType === 4 || colorType === 6 || colorType === 3;
    let frames = 0;
    let duration = 0;
    const chunk = new Uint8Array(34);
    const cv = new DataView(chunk.buffer);
    for (let at = 8, chunkCount = 0; at + 8 <= size && chunkCount < MAX_PNG_CHUNKS; chunkCount++) {
      await file.read(chunk, 0, 34, at);
      const length = cv.getUint32(0);
      const type = String.fromCharCode(...chunk.subarray(4, 8));
      if (type === "IEND") break;
      if (type === "tRNS") hasAlpha = true;
      if (type === "fcTL" && length >= 26) {
        frames++;
        duration += apngDelay(cv.getUint16(8 + 20), cv.getUint16(8 + 22));
      }
      at += 12 + length;
    }
    if (frames < 2) return null;
    return {
      width: h.width,
      height: h.height,
      duration,
      rotation: 0,
      videoCodec: "apng",
      hasVideo: true,
      hasAudio: false,
      hasAlpha,
      orientation: 1,
      demuxer: "apng",
      ffprobe: null,
    };
  } finally {
    await file.close();
  }
};

/** Finds `moov` among the top-level boxes of a file (before or after `mdat`) and parses it. */
const readMp4Facts = async (path: string): Promise<Mp4Facts | null> => {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    const head = new Uint8Array(16);
    for (let at = 0, first = true; at + 8 <= size; first = false) {
      const { bytesRead } = await file.read(head, 0, 16, at);
      const box = boxAt(head.subarray(0, bytesRead), 0, size - at);
      if (!box || (first && !FIRST_BOXES.has(box.type)) || at + box.end > size) return null;
      if (box.type === "moov") {
        const length = box.end - box.start;
        if (length > MAX_MOOV_BYTES) return null;
        const moov = new Uint8Array(length);
        await file.read(moov, 0, length, at + box.start);
        return parseMoov(moov);
      }
      at += box.end;
    }
    return null;
  } finally {
    await file.close();
  }
};

/** Facts of an H.264/HEVC MP4 or QuickTime file from its `moov`, or null when only ffprobe can tell. */
export const probeMp4 = async (path: string): Promise<MediaFacts | null> => {
  const mp4 = await readMp4Facts(path);
  if (!mp4) return null;
  return {
    width: mp4.width,
    height: mp4.height,
    duration: mp4.duration,
    rotation: mp4.rotation,
    videoCodec: mp4.videoCodec,
    hasVideo: true,
    hasAudio: mp4.hasAudio,
    hasAlpha: false,
    orientation: 1,
    demuxer: MP4_DEMUXER,
    ffprobe: null,
  };
};
