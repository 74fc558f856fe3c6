/**
 * Media facts the video compiler needs, built on the shared probe parser (src/probe) plus the one
 * thing it does not report: whether the picture carries alpha (pix_fmt, or VP8/VP9's ALPHA_MODE tag).
 * Stills whose header tells everything (PNG, JPEG, simple WebP) and H.264/HEVC MP4s are read
 * in-process: an ffprobe run costs ~60 ms of process start-up alone, on the path before the encoder starts.
 */
import { open } from "node:fs/promises";
import * as v from "valibot";
import { run } from "../lib/process.ts";
import { buildFfprobeArgs } from "../probe/ffprobe-args.ts";
import { readImageHeader } from "../probe/image-header.ts";
import { boxAt, FIRST_BOXES, MAX_MOOV_BYTES, parseMoov, type Mp4Facts } from "../probe/mp4-header.ts";
import { parseProbeOutput } from "../probe/parse-probe.ts";
import type { MediaInfo } from "./types.ts";

const AlphaStream = v.looseObject({
  codec_type: v.optional(v.string()),
  pix_fmt: v.optional(v.string()),
  tags: v.optional(v.record(v.string(), v.unknown())),
});
const AlphaOutput = v.looseObject({ streams: v.optional(v.array(AlphaStream), []) });

/** Parses ffprobe JSON into MediaInfo (stills: hasVideo true, duration 0). */
export function parseMediaInfo(json: unknown): MediaInfo {
  const p = parseProbeOutput(json);
  const video = v.parse(AlphaOutput, json).streams.find((s) => s.codec_type === "video");
  const tags = video?.tags ?? {};
  const alphaMode = tags.alpha_mode ?? tags.ALPHA_MODE;
  return {
    width: p.width ?? 0,
    height: p.height ?? 0,
    duration: p.duration ?? 0,
    hasVideo: p.width !== null,
    hasAudio: p.hasAudio,
    hasAlpha: /^(rgba|bgra|argb|abgr|yuva|gbrap|ya|pal8)/.test(video?.pix_fmt ?? "") || alphaMode === "1",
    rotation: p.rotation,
    videoCodec: p.videoCodec,
    orientation: 1,
  };
}

/** Bytes read for a still's header (JPEG metadata before the frame header can be long). */
const HEADER_BYTES = 256 * 1024;

/** MediaInfo of a still from its header alone, or null when only ffprobe can tell (other formats, animation). */
export async function probeStill(path: string): Promise<MediaInfo | null> {
  const file = await open(path, "r");
  try {
    const buf = new Uint8Array(HEADER_BYTES);
    const { bytesRead } = await file.read(buf, 0, HEADER_BYTES, 0);
    const h = readImageHeader(buf.subarray(0, bytesRead));
    if (!h || h.hasAlpha === null || h.animated !== false) return null;
    return {
      width: h.width,
      height: h.height,
      duration: 0,
      hasVideo: true,
      hasAudio: false,
      hasAlpha: h.hasAlpha,
      rotation: 0,
      videoCodec: h.codec,
      orientation: h.orientation,
    };
  } finally {
    await file.close();
  }
}

/** Finds `moov` among the top-level boxes of a file (before or after `mdat`) and parses it. */
async function readMp4Facts(path: string): Promise<Mp4Facts | null> {
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
}

/** MediaInfo of an H.264/HEVC MP4 or QuickTime file from its `moov`, or null when only ffprobe can tell. */
export async function probeMp4(path: string): Promise<MediaInfo | null> {
  const m = await readMp4Facts(path);
  if (!m) return null;
  return {
    width: m.width,
    height: m.height,
    duration: m.duration,
    hasVideo: true,
    hasAudio: m.hasAudio,
    hasAlpha: false,
    rotation: m.rotation,
    videoCodec: m.videoCodec,
    orientation: 1,
  };
}

/** Reads a still's header or an MP4's `moov`, else runs ffprobe on a local file. */
export async function probeMedia(path: string, ffprobePath = "ffprobe"): Promise<MediaInfo> {
  const known = (await probeStill(path)) ?? (await probeMp4(path));
  if (known) return known;
  const { stdout } = await run(ffprobePath, buildFfprobeArgs(path), { timeoutMs: 30_000 });
  return parseMediaInfo(JSON.parse(stdout.toString("utf8")));
}
