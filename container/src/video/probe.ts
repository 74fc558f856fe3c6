/**
 * Media facts the video compiler needs, built on the shared probe parser (src/probe) plus the one
 * thing it does not report: whether the picture carries alpha (pix_fmt, or VP8/VP9's ALPHA_MODE tag).
 */
import * as v from "valibot";
import { run } from "../lib/process.ts";
import { buildFfprobeArgs } from "../probe/ffprobe-args.ts";
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
  };
}

/** Runs ffprobe on a local file. */
export async function probeMedia(path: string, ffprobePath = "ffprobe"): Promise<MediaInfo> {
  const { stdout } = await run(ffprobePath, buildFfprobeArgs(path), { timeoutMs: 30_000 });
  return parseMediaInfo(JSON.parse(stdout.toString("utf8")));
}
