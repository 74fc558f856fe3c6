/**
 * Final token cost of a completed job (spec: Events, token rules), by the same rules as the estimate
 * (packages/contract/src/config/estimate.ts): image 2 + 1 per layer; video 10 + 2 per started second of the rendered
 * duration (audio-only formats at their own rate; plus the autoSubtitles part when the audio was transcribed, posters
 * and thumbnails, and speech by its characters), or the reserved estimate when the renderer reports none. The
 * lifecycle caps the charge at the reserve.
 */
import { estimateTokens } from "@media-render/contract/config";
import { videoJobTokens } from "@media-render/contract/config/estimate";
import { storedImageConfig, storedVideoConfig, type StoredJob } from "./stored-config.ts";

export const finalCost = (
  job: StoredJob & { tokensReserved: number },
  videoDuration?: number | null,
  captioned = false,
): number => {
  if (job.type === "IMAGE") return estimateTokens("image", storedImageConfig(job));
  if (videoDuration == null || !Number.isFinite(videoDuration) || videoDuration < 0)
    return job.tokensReserved;
  const config = storedVideoConfig(job);
  return videoJobTokens(config, videoDuration, captioned && config.autoSubtitles === true);
};
