/**
 * Duration of a Matroska/WebM file as ffprobe reports it: the Segment Info `Duration` (a float in
 * TimecodeScale units, default 1,000,000 ns) converted the way matroskadec.c does, in double arithmetic
 * truncated to whole microseconds: `(int64_t)(duration * time_scale * 1000 / AV_TIME_BASE)`.
 * Files without a Duration (live recordings) or with the Info element after the first Cluster go to ffprobe.
 */
import type { ByteSource } from "./byte-source.ts";
import { u8 } from "./bytes.ts";

const EBML = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const CLUSTER = 0x1f43b675;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;

interface Element {
  id: number;
  /** Payload offset and size (size null: unknown, "until the parent ends"). */
  start: number;
  size: number | null;
}

/** Reads an element header at `bytes[i]`; ids keep their length marker, as the specification writes them. */
const elementAt = (bytes: Uint8Array, i: number, base: number): Element | null => {
  const first = u8(bytes, i);
  const idLen = first >= 0x80 ? 1 : first >= 0x40 ? 2 : first >= 0x20 ? 3 : first >= 0x10 ? 4 : 0;
  if (!idLen || i + idLen >= bytes.byteLength) return null;
  let id = 0;
  for (let k = 0; k < idLen; k++) id = id * 256 + u8(bytes, i + k);
  const s0 = u8(bytes, i + idLen);
  let sizeLen = 1;
  while (sizeLen <= 8 && !(s0 & (0x100 >> sizeLen))) sizeLen++;
  if (sizeLen > 8 || i + idLen + sizeLen > bytes.byteLength) return null;
  let size = s0 & (0xff >> sizeLen);
  let allOnes = size === 0xff >> sizeLen;
  for (let k = 1; k < sizeLen; k++) {
    const byte = u8(bytes, i + idLen + k);
    allOnes &&= byte === 0xff;
    size = size * 256 + byte;
  }
  return { id, start: base + i + idLen + sizeLen, size: allOnes ? null : size };
};

const readElement = async (src: ByteSource, at: number) => elementAt(await src.read(at, 12), 0, at);

const uint = (bytes: Uint8Array): number => bytes.reduce((n, x) => n * 256 + x, 0);

const float = (bytes: Uint8Array): number | null => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength === 4) return view.getFloat32(0);
  if (bytes.byteLength === 8) return view.getFloat64(0);
  return null;
};

/** Duration in microseconds from the Segment Info, or null. */
export const matroskaDurationUs = async (src: ByteSource): Promise<number | null> => {
  const ebml = await readElement(src, 0);
  if (!ebml || ebml.id !== EBML || ebml.size === null) return null;
  const segment = await readElement(src, ebml.start + ebml.size);
  if (!segment || segment.id !== SEGMENT) return null;
  const segmentEnd = segment.size === null ? src.size : segment.start + segment.size;
  for (let at = segment.start; at < segmentEnd;) {
    const el = await readElement(src, at);
    if (!el || el.id === CLUSTER || el.size === null) return null;
    if (el.id === INFO) {
      if (el.size > 1024 * 1024) return null;
      const info = await src.read(el.start, el.size);
      let scale = 1_000_000;
      let duration: number | null = null;
      for (let i = 0; i < info.byteLength;) {
        const child = elementAt(info, i, 0);
        if (!child || child.size === null) return null;
        const payload = info.subarray(child.start, child.start + child.size);
        if (child.id === TIMECODE_SCALE) scale = uint(payload);
        if (child.id === DURATION) duration = float(payload);
        i = child.start + child.size;
      }
      if (!duration || !(duration > 0) || !scale) return null;
      return Math.trunc((duration * scale * 1000) / 1_000_000);
    }
    at = el.start + el.size;
  }
  return null;
};
