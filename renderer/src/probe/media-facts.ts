/**
 * The one fact shape a probe produces (probe-media.ts), whoever asked: POST /probe answers its
 * {@link toProbeResult} view, the video renderer reads its {@link toMediaInfo} view. Pure.
 */
import type { ProbeResult } from "@media-render/contract/wire";

/** What a probe learned about one media file. */
export interface MediaFacts {
  /** Display size (coded size swapped for a quarter turn, EXIF orientation 5-8 for stills); null: no picture. */
  width: number | null;
  height: number | null;
  /** Seconds, exactly ffprobe's format.duration; null for still images and when unknown. */
  duration: number | null;
  /** Clockwise degrees a player turns the coded picture for display, in [0, 360). */
  rotation: number;
  videoCodec: string | null;
  /** A moving-picture stream exists (still images and embedded cover art do not count). */
  hasVideo: boolean;
  hasAudio: boolean;
  /** The picture decodes with an alpha channel (png rgba, palette, tRNS, vp9 alpha...). */
  hasAlpha: boolean;
  /**
   * EXIF orientation of a JPEG still (1–8, 1 = as stored). ffprobe does not report it (its size is the
   * stored one) and ffmpeg's autorotate ignores the mirrored ones, so the video graph applies it.
   */
  orientation: number;
  /** The demuxer that read it (demuxers.ts), which a render names for it (`-f`). */
  demuxer: string;
  /** What only ffprobe reports; null when an in-process header reader answered. */
  ffprobe: { formatName: string; audioCodec: string | null; fps: number | null } | null;
}

/** The POST /probe answer; the facts must come from ffprobe (`probeMedia(..., { complete: true })`). */
export const toProbeResult = (facts: MediaFacts): ProbeResult => {
  if (!facts.ffprobe) throw new Error("a probe result needs ffprobe's facts (probe with complete: true)");
  return {
    width: facts.width,
    height: facts.height,
    duration: facts.duration,
    formatName: facts.ffprobe.formatName,
    videoCodec: facts.videoCodec,
    audioCodec: facts.ffprobe.audioCodec,
    fps: facts.ffprobe.fps,
    rotation: facts.rotation,
    hasVideo: facts.hasVideo,
    hasAudio: facts.hasAudio,
  };
};

/** What the video compiler reads about an input: sizes and lengths as numbers (0 when absent). */
export interface MediaInfo {
  width: number;
  height: number;
  /** Seconds; 0 for stills. */
  duration: number;
  /** The file has a picture to draw, moving or still. */
  hasVideo: boolean;
  hasAudio: boolean;
  hasAlpha: boolean;
  rotation: number;
  videoCodec: string | null;
  orientation: number;
  /** The demuxer its probe read it with: ffmpeg is told it (`-f`) and probes nothing (probe/demuxers.ts). */
  demuxer: string;
}

/** The renderer's view of the facts. */
export const toMediaInfo = (facts: MediaFacts): MediaInfo => {
  return {
    width: facts.width ?? 0,
    height: facts.height ?? 0,
    duration: facts.duration ?? 0,
    hasVideo: facts.width !== null,
    hasAudio: facts.hasAudio,
    hasAlpha: facts.hasAlpha,
    rotation: facts.rotation,
    videoCodec: facts.videoCodec,
    orientation: facts.orientation,
    demuxer: facts.demuxer,
  };
};
