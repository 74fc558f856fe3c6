/** Specs and graph contexts for the pure graph builders' tests: configs go through the contract's grammar. */
import { buildTimeline } from "@media-render/contract/timeline";
import { videoSpec } from "../../src/video/config.ts";
import { GraphContext } from "../../src/video/graph-context.ts";
import type { MediaInfo, VideoFormat, VideoSpec } from "../../src/video/types.ts";
import { videoConfig } from "./video-config.ts";

/** The spec of a 320x180, 25 fps config with `raw`'s fields. */
export const specOf = (raw: Record<string, unknown>, format?: VideoFormat): VideoSpec =>
  videoSpec(videoConfig({ width: 320, height: 180, fps: 25, ...raw }), format);

/** A fresh graph context of `spec` (labels numbered from 0). */
export const contextOf = (spec: VideoSpec, media: ReadonlyMap<string, MediaInfo> = new Map()): GraphContext =>
  new GraphContext(spec, buildTimeline(spec), "job", media, new Map());

/** A probed audio file of `duration` seconds (`hasAudio: false`: a file without sound). */
export const audioFile = (duration: number, hasAudio = true): MediaInfo => ({
  width: 0,
  height: 0,
  duration,
  hasVideo: false,
  hasAudio,
  hasAlpha: false,
  rotation: 0,
  videoCodec: null,
  orientation: 1,
  demuxer: "wav",
});

/** A clip of `duration` seconds filled with one colour. */
export const colourClip = (duration: number, transition?: Record<string, unknown>) => ({
  duration,
  ...(transition ? { transition } : {}),
  layers: [{ type: "fill-color", color: "#336699" }],
});
