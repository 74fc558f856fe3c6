/**
 * Duration of an ISO-BMFF file (mp4, m4a, mov, 3gp) as ffprobe reports it.
 *
 * ffmpeg's mov demuxer sets the format duration from the movie header: `mvhd.duration` rescaled from
 * `mvhd.timescale` to microseconds (mov.c, mov_read_mvhd). The movie duration already includes the tracks'
 * edit lists (it is the presentation length), and the stream durations never override it
 * (update_stream_timings only fills a format duration that is still unset). Fragmented files (an `mvex`
 * box) take their length from the fragments instead, so those go to ffprobe.
 */
import type { ByteSource } from "./byte-source";
import { ascii, u32be, u64be } from "./bytes";
import { ticksToUs } from "./rescale";

/** A `moov` larger than this is not read into memory (hours of a many-track file stay far below). */
const MAX_MOOV_BYTES = 32 * 1024 * 1024;

interface BoxHeader {
  type: string;
  /** Offset of the box's payload. */
  start: number;
  /** Offset just past the box. */
  end: number;
}

const boxAt = (b: Uint8Array, at: number, limit: number): BoxHeader | null => {
  if (at + 8 > b.byteLength) return null;
  let size = u32be(b, at);
  let header = 8;
  if (size === 1) {
    if (at + 16 > b.byteLength) return null;
    size = Number(u64be(b, at + 8));
    header = 16;
  } else if (size === 0) {
    size = limit - at; // the box runs to the end of its parent
  }
  if (size < header) return null;
  return { type: ascii(b, at + 4, 4), start: at + header, end: at + size };
};

/** Reads `mvhd` from the payload of `moov`; null for fragmented movies or an unknown duration. */
export const durationFromMoov = (moov: Uint8Array): number | null => {
  let mvhd: BoxHeader | null = null;
  for (let at = 0; at < moov.byteLength;) {
    const box = boxAt(moov, at, moov.byteLength);
    if (!box) break;
    if (box.type === "mvex") return null;
    if (box.type === "mvhd") mvhd = box;
    at = box.end;
  }
  if (!mvhd) return null;
  const p = mvhd.start;
  const version = moov[p] ?? 0;
  const timescale = u32be(moov, version === 1 ? p + 20 : p + 12);
  const duration = version === 1 ? u64be(moov, p + 24) : BigInt(u32be(moov, p + 16));
  // 0 and all-ones both mean "unknown" in practice; ffprobe then derives the length from the tracks.
  if (timescale === 0 || duration === 0n || duration === 0xffffffffn || duration === 0xffffffffffffffffn)
    return null;
  return ticksToUs(duration, timescale);
};

/** Walks the top-level boxes to `moov` (before or after `mdat`) and returns the duration in microseconds. */
export const mp4DurationUs = async (src: ByteSource): Promise<number | null> => {
  for (let at = 0; at + 8 <= src.size;) {
    const head = await src.read(at, 16);
    const box = boxAt(head, 0, src.size - at);
    if (!box) return null;
    if (box.type === "moov") {
      const length = box.end - box.start;
      if (length > MAX_MOOV_BYTES || at + box.end > src.size) return null;
      return durationFromMoov(await src.read(at + box.start, length));
    }
    at += box.end;
  }
  return null;
};
