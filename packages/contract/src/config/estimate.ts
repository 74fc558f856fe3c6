/**
 * Token estimate reserved at job creation (spec "Events"): image 2 + 1 per layer; video 10 + 2 per
 * started second of output (audio-only formats: 3 + 1), plus 5 + 1 per started second with autoSubtitles, plus 1 per
 * started 100 characters of each speech text. The final video cost uses the rendered duration; this is the reserve.
 */
import type { ImageConfig } from "./image.ts";
import type { JobType } from "./job-type.ts";
import { canonicalFormat, outputFormat } from "../output-formats.ts";
import { frameTokens, renderedSeconds, renderFormatOf } from "./outputs.ts";
import { IMAGE_DEFAULTS, VIDEO_DEFAULTS } from "./limits.ts";
import {
  TOKENS_AUDIO_BASE,
  TOKENS_AUDIO_PER_SECOND,
  TOKENS_IMAGE_BASE,
  TOKENS_IMAGE_PER_LAYER,
  TOKENS_STILL,
  TOKENS_SUBTITLES_BASE,
  TOKENS_SUBTITLES_PER_SECOND,
  TOKENS_VIDEO_BASE,
  TOKENS_VIDEO_PER_SECOND,
} from "./prices.ts";
import { buildTimeline } from "../timeline.ts";
import { speechTokens } from "./speech.ts";
import type { VideoConfig } from "./video.ts";

export function estimateTokens(type: "image", config: ImageConfig): number;
export function estimateTokens(type: "video", config: VideoConfig): number;
export function estimateTokens(type: JobType, config: ImageConfig | VideoConfig): number;
export function estimateTokens(type: JobType, config: ImageConfig | VideoConfig): number {
  if (type === "image")
    return TOKENS_IMAGE_BASE + TOKENS_IMAGE_PER_LAYER * (config as ImageConfig).layers.length;
  const video = config as VideoConfig;
  return videoJobTokens(video, renderedSeconds(video, buildTimeline(video).duration));
}

/** The per-second price rules of output-formats.ts (`price`): tokens for the render, then per started second. */
const PER_SECOND = {
  video: { base: TOKENS_VIDEO_BASE, perSecond: TOKENS_VIDEO_PER_SECOND },
  audio: { base: TOKENS_AUDIO_BASE, perSecond: TOKENS_AUDIO_PER_SECOND },
};

/**
 * Video: 10 + 2 per started second of `seconds` of output, and with `autoSubtitles` 5 + 1 more per started
 * second (the final cost uses the same rule). A format priced as `audio` (output-formats.ts: mp3, wav, m4a) costs
 * 3 + 1 per started second instead of 10 + 2: nothing is composed or encoded but the mix.
 */
export const estimateVideoTokens = (
  seconds: number,
  autoSubtitles = false,
  format: string = VIDEO_DEFAULTS.format,
): number => {
  // Round to the millisecond first so 2.1 + 0.9 (= 3.0000000000000004) is not charged as 4 s.
  const started = Math.ceil(Math.round(seconds * 1000) / 1000);
  const captions = autoSubtitles ? TOKENS_SUBTITLES_BASE + TOKENS_SUBTITLES_PER_SECOND * started : 0;
  const rule = PER_SECOND[outputFormat(format)?.price === "audio" ? "audio" : "video"];
  return rule.base + rule.perSecond * started + captions;
};

/** The output file format: png/jpeg/webp for images (default png), a VIDEO_FORMATS entry for videos (default mp4). */
export const outputFormatOf = (type: JobType, config: ImageConfig | VideoConfig): string =>
  type === "image"
    ? canonicalFormat((config as ImageConfig).format ?? IMAGE_DEFAULTS.format)
    : renderFormatOf(config as VideoConfig);

/**
 * A video job's tokens for `seconds` of rendered output (a preview's range: outputs.ts renderedSeconds): the render by
 * its format, captions when `captioned` (default: the config asks for them), posters and thumbnails (outputs.ts
 * frameTokens), and its speech by the characters synthesised (speech.ts speechTokens: every text is said whatever
 * part of the video renders). The estimate, the plan with real file lengths and the final cost all use it.
 */
export const videoJobTokens = (
  config: Pick<
    VideoConfig,
    "format" | "autoSubtitles" | "poster" | "thumbnails" | "still" | "clips" | "audioTracks"
  >,
  seconds: number,
  captioned = config.autoSubtitles === true,
): number => {
  const speech = speechTokens(config);
  // A still renders one frame: the captions it may burn in are transcribed from the whole mix.
  if (config.still)
    return (
      TOKENS_STILL +
      speech +
      (captioned ? estimateVideoTokens(seconds, true) - estimateVideoTokens(seconds) : 0)
    );
  return estimateVideoTokens(seconds, captioned, config.format) + frameTokens(config, seconds) + speech;
};
