/**
 * Pure parser from ffprobe's JSON (`-show_format -show_streams`) to the probe's {@link MediaFacts} (from
 * which the contract's ProbeResult is taken). ffprobe output is a trust boundary (it describes user
 * uploads), so it is validated with valibot first.
 */
import * as v from "valibot";
import { UnprocessableMedia } from "../lib/errors.ts";
import { demuxerOf, MEDIA_DEMUXERS } from "./demuxers.ts";
import type { MediaFacts } from "./media-facts.ts";

const FfprobeStream = v.looseObject({
  codec_type: v.optional(v.string()),
  codec_name: v.optional(v.string()),
  sample_rate: v.optional(v.string()),
  width: v.optional(v.number()),
  height: v.optional(v.number()),
  avg_frame_rate: v.optional(v.string()),
  pix_fmt: v.optional(v.string()),
  tags: v.optional(
    v.looseObject({
      rotate: v.optional(v.string()),
      // VP8/VP9 in WebM/Matroska: "1" when the stream carries an alpha side channel.
      alpha_mode: v.optional(v.unknown()),
      ALPHA_MODE: v.optional(v.unknown()),
    }),
  ),
  side_data_list: v.optional(
    v.array(v.looseObject({ side_data_type: v.optional(v.string()), rotation: v.optional(v.number()) })),
  ),
  disposition: v.optional(v.looseObject({ attached_pic: v.optional(v.number()) })),
});
type FfprobeStream = v.InferOutput<typeof FfprobeStream>;

/** The part of ffprobe's JSON the renderer relies on. */
export const FfprobeOutput = v.looseObject({
  streams: v.optional(v.array(FfprobeStream), []),
  format: v.looseObject({ format_name: v.string(), duration: v.optional(v.string()) }),
});
export type FfprobeOutput = v.InferOutput<typeof FfprobeOutput>;

/** Image demuxers: one picture, whose 0.04 s "duration" and 25 fps are ffprobe's defaults, not facts. */
const isStillImageFormat = (formatName: string): boolean =>
  formatName === "image2" || formatName.endsWith("_pipe");

const normalizeDegrees = (deg: number): number => {
  const degrees = Math.round(deg) % 360;
  return degrees < 0 ? degrees + 360 : degrees === 0 ? 0 : degrees;
};

/**
 * ffprobe >= 5 reports the display matrix angle counter-clockwise (an upright-when-turned-right phone
 * clip shows -90); the legacy `rotate` tag is clockwise (90). Both are reported here clockwise, the side
 * data winning because it is what ffmpeg's autorotate applies.
 */
export const streamRotation = (stream: FfprobeStream): number => {
  const matrix = stream.side_data_list?.find(
    (s) => s.side_data_type === "Display Matrix" && s.rotation !== undefined,
  );
  if (matrix?.rotation !== undefined) return normalizeDegrees(-matrix.rotation);
  const tag = stream.tags?.rotate;
  if (tag !== undefined && /^-?\d+(\.\d+)?$/.test(tag.trim())) return normalizeDegrees(Number(tag));
  return 0;
};

/** "30000/1001" -> 29.97; "0/0" or malformed -> null. */
export const parseFrameRate = (rate: string | undefined): number | null => {
  const match = rate?.match(/^(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/);
  if (!match) return null;
  const fps = Number(match[1]) / Number(match[2]);
  return Number.isFinite(fps) && fps > 0 ? Math.round(fps * 1000) / 1000 : null;
};

const parseDuration = (raw: string | undefined): number | null => {
  if (raw === undefined || raw.trim() === "" || raw === "N/A") return null;
  const seconds = Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
};

/** Pixel formats ffmpeg decodes with an alpha channel. */
const ALPHA_PIX_FMT = /^(rgba|bgra|argb|abgr|yuva|gbrap|ya|pal8)/;

/** Whether the first video stream decodes with alpha: its pixel format, or VP8/VP9's ALPHA_MODE tag. */
const streamAlpha = (stream: FfprobeStream | undefined): boolean => {
  const tags = stream?.tags;
  const mode = tags?.alpha_mode ?? tags?.ALPHA_MODE;
  return ALPHA_PIX_FMT.test(stream?.pix_fmt ?? "") || mode === "1";
};

/**
 * Maps ffprobe's JSON to {@link MediaFacts}.
 * Throws {@link UnprocessableMedia} when the JSON is not ffprobe's, or no audio with a sample rate and no
 * picture with a size was found (ffprobe exits 0 on a corrupt `.jpg` or `.mp3` but reports no size or rate).
 */
export const parseProbeOutput = (raw: unknown): MediaFacts => {
  const parsed = v.safeParse(FfprobeOutput, raw);
  if (!parsed.success) throw new UnprocessableMedia("ffprobe returned no format information");
  const { streams, format } = parsed.output;
  const picture = streams.find(
    (stream) =>
      stream.codec_type === "video" &&
      stream.disposition?.attached_pic !== 1 &&
      (stream.width ?? 0) > 0 &&
      (stream.height ?? 0) > 0,
  );
  // ffprobe "finds" an mp3 stream with sample_rate 0 in a file of zeros named .mp3: not audio.
  const audio = streams.find((s) => s.codec_type === "audio" && Number(s.sample_rate) > 0);
  if (!picture && !audio) throw new UnprocessableMedia("No audio or video stream found");
  // ffprobe opens no other (its -format_whitelist): this only keeps what a render names with -f to that list.
  const demuxer = demuxerOf(format.format_name);
  if (!MEDIA_DEMUXERS.includes(demuxer))
    throw new UnprocessableMedia(
      `Unreadable media: the file is ${demuxer}, not a picture, video or sound this service reads`,
    );

  const still = isStillImageFormat(format.format_name);
  const rotation = picture ? streamRotation(picture) : 0;
  const swap = rotation === 90 || rotation === 270;
  return {
    width: picture ? (swap ? picture.height! : picture.width!) : null,
    height: picture ? (swap ? picture.width! : picture.height!) : null,
    duration: still && !audio ? null : parseDuration(format.duration),
    rotation,
    videoCodec: picture?.codec_name ?? null,
    hasVideo: picture !== undefined && !still,
    hasAudio: audio !== undefined,
    hasAlpha: streamAlpha(streams.find((s) => s.codec_type === "video")),
    // ffprobe 5.1 reports a JPEG's stored size and no EXIF orientation; only the header reader knows it.
    orientation: 1,
    demuxer,
    ffprobe: {
      formatName: format.format_name,
      audioCodec: audio?.codec_name ?? null,
      fps: picture && !still ? parseFrameRate(picture.avg_frame_rate) : null,
    },
  };
};

/** Parses ffprobe's stdout text; invalid JSON is unprocessable media too. */
export const parseProbeJson = (stdout: string): MediaFacts => {
  let raw: unknown;
  try {
    raw = JSON.parse(stdout);
  } catch {
    throw new UnprocessableMedia("ffprobe returned invalid JSON");
  }
  return parseProbeOutput(raw);
};
