/**
 * Token estimate reserved at job creation (spec "Events"): image 2 + 1 per layer; video 10 + 2 per
 * started second of output, plus 5 + 1 per started second with autoSubtitles. The final video cost uses the
 * rendered duration; this is the reserve.
 */
import type { ImageConfig } from "./image.ts";
import type { JobType } from "./job-type.ts";
import {
  TOKENS_IMAGE_BASE,
  TOKENS_IMAGE_PER_LAYER,
  TOKENS_SUBTITLES_BASE,
  TOKENS_SUBTITLES_PER_SECOND,
  TOKENS_VIDEO_BASE,
  TOKENS_VIDEO_PER_SECOND,
} from "./limits.ts";
import { buildTimeline } from "../timeline.ts";
import type { VideoConfig } from "./video.ts";

export function estimateTokens(type: "image", config: ImageConfig): number;
export function estimateTokens(type: "video", config: VideoConfig): number;
export function estimateTokens(type: JobType, config: ImageConfig | VideoConfig): number;
export function estimateTokens(type: JobType, config: ImageConfig | VideoConfig): number {
  if (type === "image")
    return TOKENS_IMAGE_BASE + TOKENS_IMAGE_PER_LAYER * (config as ImageConfig).layers.length;
  const video = config as VideoConfig;
  return estimateVideoTokens(buildTimeline(video).duration, video.autoSubtitles === true);
}

/**
 * Video: 10 + 2 per started second of `seconds` of output, and with `autoSubtitles` 5 + 1 more per started
 * second (the final cost uses the same rule).
 */
export const estimateVideoTokens = (seconds: number, autoSubtitles = false): number => {
  // Round to the millisecond first so 2.1 + 0.9 (= 3.0000000000000004) is not charged as 4 s.
  const started = Math.ceil(Math.round(seconds * 1000) / 1000);
  const captions = autoSubtitles ? TOKENS_SUBTITLES_BASE + TOKENS_SUBTITLES_PER_SECOND * started : 0;
  return TOKENS_VIDEO_BASE + TOKENS_VIDEO_PER_SECOND * started + captions;
};

/** The output file format: png/jpeg/webp for images (default png), mp4/mov/webm for videos (default mp4). */
export const outputFormatOf = (type: JobType, config: ImageConfig | VideoConfig): string => {
  if (type === "image") {
    const format = (config as ImageConfig).format ?? "png";
    return format === "jpg" ? "jpeg" : format;
  }
  return (config as VideoConfig).format ?? "mp4";
};
