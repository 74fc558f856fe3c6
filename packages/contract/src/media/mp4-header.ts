/**
 * Facts about an MP4 / QuickTime file read from its `moov` box, without ffprobe: what the video
 * compiler needs (display size, rotation, duration, codec, audio presence), for the common case of
 * H.264 / HEVC video. Anything less common (fragmented files, other codecs, mirrored or skewed
 * matrices, several edit quirks) returns null and goes to ffprobe, whose answer this mirrors:
 * - duration: ffmpeg's mov demuxer takes the format duration from `mvhd` (mov.c, mov_read_mvhd);
 * - size: the sample entry's coded width/height, swapped for a quarter turn as ffprobe's display size;
 * - rotation: clockwise degrees = atan2(b, a) of the track matrix (ffprobe prints -that as the
 *   display matrix rotation; see renderer/src/probe/parse-probe.ts).
 * Pure (no I/O): the renderer reads files (renderer/src/probe/header-facts.ts), the Worker R2 objects
 * (src/media/mp4.ts).
 */
import { ticksToUs } from "./rescale.ts";

export interface Mp4Facts {
  width: number;
  height: number;
  /** Seconds, microsecond precision like ffprobe's format.duration. */
  duration: number;
  rotation: number;
  videoCodec: "h264" | "hevc";
  hasAudio: boolean;
}

/** A `moov` larger than this is not read into memory (hours of a many-track file stay far below). */
export const MAX_MOOV_BYTES = 32 * 1024 * 1024;

/** Boxes an MP4 / QuickTime file starts with. */
export const FIRST_BOXES = new Set(["ftyp", "moov", "mdat", "free", "wide", "skip"]);

const CODECS: Record<string, Mp4Facts["videoCodec"]> = {
  avc1: "h264",
  avc3: "h264",
  hvc1: "hevc",
  hev1: "hevc",
};

const u16 = (b: Uint8Array, i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
const u32 = (b: Uint8Array, i: number) => u16(b, i) * 0x10000 + u16(b, i + 2);
const s32 = (b: Uint8Array, i: number) => u32(b, i) | 0;
const u64 = (b: Uint8Array, i: number) => u32(b, i) * 2 ** 32 + u32(b, i + 4);
const type = (b: Uint8Array, i: number) => String.fromCharCode(...b.subarray(i, i + 4));

/** A box: its type, payload start and end (just past the box). */
export interface Box {
  type: string;
  start: number;
  end: number;
}

/**
 * The box whose header starts at `at` in `bytes` (a size-0 box runs to `limit`, its parent's end); null
 * when the header does not fit or is malformed. Shared with the Worker's duration reader.
 */
export const boxAt = (bytes: Uint8Array, at: number, limit: number): Box | null => {
  if (at + 8 > bytes.length) return null;
  let size = u32(bytes, at);
  let header = 8;
  if (size === 1) {
    if (at + 16 > bytes.length) return null;
    size = u64(bytes, at + 8);
    header = 16;
  } else if (size === 0) size = limit - at;
  if (size < header) return null;
  return { type: type(bytes, at + 4), start: at + header, end: at + size };
};

/** Child boxes of the payload [start, end); stops at the first malformed header. */
const children = (bytes: Uint8Array, start: number, end: number): Box[] => {
  const out: Box[] = [];
  for (let box = boxAt(bytes, start, end); box && box.end <= end; box = boxAt(bytes, box.end, end))
    out.push(box);
  return out;
};

/**
 * The format duration ffprobe reports for a `moov` payload, in microseconds: `mvhd.duration` rescaled
 * from `mvhd.timescale` (mov.c, mov_read_mvhd; the movie duration already includes the edit lists).
 * Null for fragmented movies (`mvex`: the length lives in the fragments) and unknown durations.
 */
export const moovDurationUs = (moov: Uint8Array): number | null => {
  const top = children(moov, 0, moov.length);
  if (top.some((x) => x.type === "mvex")) return null;
  const mvhd = top.find((x) => x.type === "mvhd");
  if (!mvhd) return null;
  const v1 = moov[mvhd.start] === 1;
  const timescale = u32(moov, mvhd.start + (v1 ? 20 : 12));
  const ticks = v1 ? u64(moov, mvhd.start + 24) : u32(moov, mvhd.start + 16);
  // 0 and all-ones both mean "unknown" in practice; ffprobe then derives the length from the tracks.
  if (!timescale || !ticks || ticks === 0xffffffff || ticks >= 2 ** 53) return null;
  return ticksToUs(ticks, timescale);
};

const child = (b: Uint8Array, parent: Box, name: string) =>
  children(b, parent.start, parent.end).find((c) => c.type === name);

/** Walks `trak` → mdia → hdlr / minf → stbl → stsd; returns the handler and first sample entry. */
const track = (moov: Uint8Array, trak: Box): { handler: string; entry: Box | null; tkhd: Box | null } => {
  const mdia = child(moov, trak, "mdia");
  const hdlr = mdia && child(moov, mdia, "hdlr");
  const minf = mdia && child(moov, mdia, "minf");
  const stbl = minf && child(moov, minf, "stbl");
  const stsd = stbl && child(moov, stbl, "stsd");
  // stsd: version/flags (4), entry count (4), then sample entries.
  const entry =
    stsd && u32(moov, stsd.start + 4) > 0 ? (children(moov, stsd.start + 8, stsd.end)[0] ?? null) : null;
  return { handler: hdlr ? type(moov, hdlr.start + 8) : "", entry, tkhd: child(moov, trak, "tkhd") ?? null };
};

/** Clockwise quarter turns from a track header's matrix; null when mirrored, skewed or not a quarter. */
const tkhdRotation = (moov: Uint8Array, tkhd: Box): number | null => {
  const matrix = tkhd.start + ((moov[tkhd.start] ?? 0) === 1 ? 52 : 40);
  const [a, bb, c, d] = [
    s32(moov, matrix),
    s32(moov, matrix + 4),
    s32(moov, matrix + 12),
    s32(moov, matrix + 16),
  ];
  if (a * d - bb * c <= 0) return null;
  const deg = Math.round((Math.atan2(bb, a) * 180) / Math.PI);
  const cw = ((deg % 360) + 360) % 360;
  return cw % 90 === 0 ? cw : null;
};

/** Parses the payload of `moov` (pure). */
export const parseMoov = (moov: Uint8Array): Mp4Facts | null => {
  const us = moovDurationUs(moov);
  if (us === null) return null;
  const top = children(moov, 0, moov.length);
  const tracks = top.filter((x) => x.type === "trak").map((t) => track(moov, t));
  const video = tracks.find((t) => t.handler === "vide");
  if (!video?.entry || !video.tkhd) return null;
  const videoCodec = CODECS[video.entry.type];
  if (!videoCodec) return null;
  const rotation = tkhdRotation(moov, video.tkhd);
  // VisualSampleEntry: 6 reserved + 2 data-reference index + 16 pre-defined/reserved, then width, height.
  const codedW = u16(moov, video.entry.start + 24);
  const codedH = u16(moov, video.entry.start + 26);
  if (rotation === null || !codedW || !codedH) return null;
  // AudioSampleEntry: sample rate (16.16) after 8 reserved/reference, 8 version/vendor, 8 format bytes.
  const hasAudio = tracks.some(
    (t) => t.handler === "soun" && t.entry !== null && u32(moov, t.entry.start + 24) >>> 16 > 0,
  );
  const quarter = rotation === 90 || rotation === 270;
  return {
    width: quarter ? codedH : codedW,
    height: quarter ? codedW : codedH,
    duration: us / 1e6,
    rotation,
    videoCodec,
    hasAudio,
  };
};
