/**
 * What a video job writes (config reference, "Outputs"): the container `format` (video, GIF or audio only),
 * `alpha` for ProRes 4444 in mov, GIF's dithering, and editly's `outPath` whose extension names the format when
 * `format` is absent. One module so the Worker (estimate, output row) and the renderer (encoder) read one truth; the
 * formats themselves are the table of output-formats.ts.
 */
import * as v from "valibot";
import { evenDimension } from "../geometry.ts";
import {
  formatsFor,
  formatsOfKind,
  keepsAlpha,
  OUTPUT_FORMATS,
  outputFormat,
  type FormatFor,
  type OutputFormatEntry,
} from "../output-formats.ts";
import { bool, documentedDefault, integerIn, numberIn, oneOf, Seconds, strict } from "./common.ts";
import * as limits from "./limits.ts";
import { TOKENS_POSTER, TOKENS_SPRITE, TOKENS_THUMBNAILS_PER_10 } from "./prices.ts";
import type { RuleIssue } from "./rules.ts";

/** Output formats of a video job: video containers, an animated GIF, and audio-only files. */
export const VIDEO_FORMATS = formatsFor("video");
export type VideoFormat = FormatFor<"video">;

/** Formats that carry only the config's audio mix: no picture is composed or encoded. */
export const AUDIO_FORMATS = formatsOfKind("audio");
export const isAudioFormat = (format: string): format is (typeof AUDIO_FORMATS)[number] =>
  outputFormat(format)?.kind === "audio";

/** ffmpeg's paletteuse dithering modes offered for GIF (default sierra2_4a, ffmpeg's own). */
export const GIF_DITHERS = ["sierra2_4a", "floyd_steinberg", "bayer", "none"] as const;

const optional = v.optional;

/** The output entries of the video config (spread into videoConfigEntries). */
export const outputEntries = {
  /**
   * With `format: "mov"`: ProRes 4444 with an alpha channel (areas no layer covers stay transparent, like webm).
   * Plain mov stays H.264. webm always keeps alpha.
   */
  alpha: optional(
    v.pipe(
      bool(),
      v.description(
        'With format "mov": ProRes 4444 with an alpha channel (areas no layer covers stay transparent). Plain mov is ' +
          "H.264; webm always keeps alpha; other formats refuse it.",
      ),
    ),
  ),
  /** GIF output settings (`format: "gif"`): the dithering paletteuse applies (default sierra2_4a). */
  gif: optional(
    strict("gif", {
      dither: optional(
        v.pipe(
          documentedDefault(oneOf(GIF_DITHERS), "sierra2_4a"),
          v.description(
            "How colours outside the GIF's 256-colour palette (made for this video) are dithered.",
          ),
        ),
      ),
    }),
  ),
};

/** Image formats of stills, posters and thumbnails. */
export const FRAME_FORMATS = formatsFor("frame");
/** The formats of a still, a poster and thumbnails when the config names none. */
export const FRAME_DEFAULTS = { still: "png", poster: "png", thumbnails: "jpeg" } as const satisfies Record<
  string,
  FormatFor<"frame">
>;

/** The shortest thumbnail interval: one frame at 25 fps. */
const MIN_INTERVAL = 0.04;

/** The poster and thumbnail entries of the video config (spread into videoConfigEntries). */
export const frameEntries = {
  poster: optional(
    v.pipe(
      strict("poster", {
        /** Seconds into the output; the frame the video shows then. */
        time: Seconds,
        format: optional(documentedDefault(oneOf(FRAME_FORMATS), FRAME_DEFAULTS.poster)),
      }),
      v.description(
        "Adds one image of the frame the video shows at `time` (seconds, before its end) to the job's outputs.",
      ),
    ),
  ),
  thumbnails: optional(
    v.pipe(
      strict("thumbnails", {
        count: optional(integerIn(1, limits.THUMBNAILS_MAX_COUNT)),
        interval: optional(numberIn(MIN_INTERVAL, limits.MAX_SECONDS)),
        width: optional(
          documentedDefault(
            integerIn(limits.THUMBNAIL_MIN_WIDTH, limits.THUMBNAIL_MAX_WIDTH),
            limits.THUMBNAIL_DEFAULT_WIDTH,
          ),
        ),
        format: optional(documentedDefault(oneOf(FRAME_FORMATS), FRAME_DEFAULTS.thumbnails)),
        sprite: optional(bool()),
      }),
      v.description(
        "Adds evenly spaced frames to the job's outputs: `count` frames at 0, D/count, 2D/count... or one every " +
          `\`interval\` seconds from 0 (one of the two; at most ${limits.THUMBNAILS_MAX_COUNT}), each \`width\` px wide; ` +
          `\`sprite: true\` adds one sheet of them (${limits.SPRITE_COLUMNS} a row, at most ${limits.IMAGE_MAX_SIZE}x${limits.IMAGE_MAX_SIZE} ` +
          "pixels in all) and a WebVTT index for players.",
      ),
    ),
  ),
};

/**
 * One frame of the video as the job's only output (an image instead of the video): the frame the video shows at
 * `time`, rendered by the same graph and stopped there.
 */
export const stillEntries = {
  still: optional(
    v.pipe(
      strict("still", {
        time: Seconds,
        format: optional(documentedDefault(oneOf(FRAME_FORMATS), FRAME_DEFAULTS.still)),
      }),
      v.description(
        "Render only the frame the video shows at `time` (seconds, before its end), as a PNG or JPEG image: the " +
          "job's output is that image (priced like a small image job).",
      ),
    ),
  ),
};

/** A scaled-down and/or time-limited render for checking (`preview`), charged by the seconds it renders. */
export const previewEntries = {
  preview: optional(
    v.pipe(
      strict("preview", {
        /** The frame's size as a fraction of the config's (aspect kept, even sizes). */
        scale: optional(documentedDefault(numberIn(0.1, 1), 1)),
        /** Seconds into the video where the preview starts (default 0) and ends (default: the end). */
        from: optional(Seconds),
        to: optional(Seconds),
      }),
      v.description(
        "Render a smaller (`scale` 0.1-1 of the size) and/or shorter (`from`..`to` seconds of the video) version " +
          "for checking; charged by the seconds it renders. Not with still, poster or thumbnails.",
      ),
    ),
  ),
};

/** The seconds a render writes of an `duration` s video: a preview's range, else all of it. */
export const renderedSeconds = (
  config: { preview?: { from?: number; to?: number }; still?: object },
  duration: number,
): number => {
  const preview = config.preview;
  if (!preview) return duration;
  return Math.max(0, Math.min(preview.to ?? duration, duration) - (preview.from ?? 0));
};

/** Every output format a render request may name: the video formats and a still's image formats. */
export const RENDER_FORMATS = [...VIDEO_FORMATS, ...FRAME_FORMATS] as const;
export type RenderFormat = (typeof RENDER_FORMATS)[number];

/** The format a video job writes: its still's (default png), else its `format` (default mp4). */
export const renderFormatOf = (config: {
  format?: VideoFormat;
  still?: { format?: FormatFor<"frame"> };
}): RenderFormat =>
  config.still
    ? (config.still.format ?? FRAME_DEFAULTS.still)
    : (config.format ?? limits.VIDEO_DEFAULTS.format);

type Thumbnails = { count?: number; interval?: number };

/** The times (s) of a job's thumbnails in an output of `duration` s: evenly spaced from 0, within the video. */
export const thumbnailTimes = (thumbnails: Thumbnails, duration: number): number[] => {
  const step = thumbnails.interval ?? duration / (thumbnails.count ?? 1);
  const count = thumbnails.interval
    ? Math.min(limits.THUMBNAILS_MAX_COUNT, Math.ceil(duration / step - 1e-9))
    : (thumbnails.count ?? 1);
  return Array.from({ length: Math.max(1, count) }, (_, i) => Math.round(i * step * 1000) / 1000);
};

/**
 * The size of each thumbnail of a `frame` (the video's width x height): `width` (default THUMBNAIL_DEFAULT_WIDTH),
 * no wider than the frame, the frame's aspect kept, both sides even. The renderer scales to it.
 */
export const thumbnailSize = (
  width: number | undefined,
  frame: { width: number; height: number },
): { width: number; height: number } => {
  const w = evenDimension(Math.min(width ?? limits.THUMBNAIL_DEFAULT_WIDTH, frame.width));
  return { width: w, height: Math.max(2, evenDimension((w * frame.height) / frame.width)) };
};

/** The sprite sheet of `count` thumbnails of `tile`: SPRITE_COLUMNS a row (fewer when there are fewer). */
export const spriteSize = (
  count: number,
  tile: { width: number; height: number },
): { width: number; height: number } => ({
  width: Math.min(limits.SPRITE_COLUMNS, count) * tile.width,
  height: Math.ceil(count / limits.SPRITE_COLUMNS) * tile.height,
});

/** Tokens of a job's posters and thumbnails (prices.ts TOKENS_POSTER...). */
export const frameTokens = (
  config: { poster?: object; thumbnails?: Thumbnails & { sprite?: boolean } },
  duration: number,
): number => {
  const poster = config.poster ? TOKENS_POSTER : 0;
  const thumbnails = config.thumbnails;
  if (!thumbnails) return poster;
  const count = thumbnailTimes(thumbnails, duration).length;
  return poster + TOKENS_THUMBNAILS_PER_10 * Math.ceil(count / 10) + (thumbnails.sprite ? TOKENS_SPRITE : 0);
};

/** The format an `outPath` names by its extension (`./out.gif` → gif), or undefined. */
export const formatOfPath = (path: string | undefined): VideoFormat | undefined => {
  const ext = path?.match(/\.([a-z0-9]+)$/i)?.[1]?.toLowerCase();
  return ext === undefined
    ? undefined
    : VIDEO_FORMATS.find((f) => (OUTPUT_FORMATS[f].extensions as readonly string[]).includes(ext));
};

/** The job's output format: `format`, else the extension of editly's `outPath`, else mp4. */
export const effectiveFormat = (config: { format?: VideoFormat; outPath?: string }): VideoFormat =>
  config.format ?? formatOfPath(config.outPath) ?? limits.VIDEO_DEFAULTS.format;

/** A config with `format` filled from `outPath` when only that names it (so both runtimes read `format`). */
export const withOutPathFormat = <C extends { format?: VideoFormat; outPath?: string }>(config: C): C => {
  if (config.format !== undefined) return config;
  const format = formatOfPath(config.outPath);
  return format ? { ...config, format } : config;
};

/** The formats that can keep alpha, as the refusal names them: `"mov" (ProRes 4444) or "webm"`. */
const alphaFormats = (): string => {
  const names = VIDEO_FORMATS.flatMap((format) => {
    const entry: OutputFormatEntry = OUTPUT_FORMATS[format];
    if (entry.alpha === "none") return [];
    return [entry.alphaCodec ? `"${format}" (${entry.alphaCodec})` : `"${format}"`];
  });
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : names.join("");
};

/** A pixel count in millions, for messages ("524.3 million"). */
const millions = (pixels: number) => `${Math.round(pixels / 1e5) / 10} million`;

/**
 * Cross-field rules of the outputs: alpha needs mov or webm, a GIF's length cap, the sprite sheet's size.
 * `duration` = output seconds.
 */
export const outputIssues = (
  config: {
    width?: number;
    height?: number;
    format?: VideoFormat;
    outPath?: string;
    alpha?: boolean;
    gif?: object;
    poster?: { time: number };
    thumbnails?: Thumbnails & { width?: number; sprite?: boolean };
    still?: { time: number };
    preview?: { from?: number; to?: number };
  },
  duration: number,
): RuleIssue[] => {
  const format = effectiveFormat(config);
  const entry: OutputFormatEntry = OUTPUT_FORMATS[format];
  const out: RuleIssue[] = [];
  if (config.alpha === true && !keepsAlpha(format, true))
    out.push({ path: ["alpha"], message: `alpha needs format ${alphaFormats()}; the format is ${format}` });
  const audio = entry.kind === "audio";
  const preview = config.preview;
  if (preview && (config.still || config.poster || config.thumbnails))
    out.push({ path: ["preview"], message: "a preview takes no still, poster or thumbnails" });
  else if (preview && (preview.from ?? 0) >= Math.min(preview.to ?? duration, duration) - 1e-9)
    out.push({
      path: ["preview"],
      message: `from must be before to and before the end of the video (${Math.round(duration * 1000) / 1000} s)`,
    });
  if (config.still) {
    // A still is one frame of a video: an audio or animated image format has none to give.
    if (entry.kind !== "video" || config.poster || config.thumbnails || config.alpha)
      out.push({
        path: ["still"],
        message: "a still is one image: it takes no audio or gif format, alpha, poster or thumbnails",
      });
    else if (config.still.time >= duration - 1e-9)
      out.push({
        path: ["still", "time"],
        message: `must be before the end of the video (${Math.round(duration * 1000) / 1000} s)`,
      });
  }
  if (config.poster && audio)
    out.push({ path: ["poster"], message: `a ${format} output has no picture to take a poster from` });
  else if (config.poster && config.poster.time >= duration - 1e-9)
    out.push({
      path: ["poster", "time"],
      message: `must be before the end of the video (${Math.round(duration * 1000) / 1000} s)`,
    });
  const thumbnails = config.thumbnails;
  if (thumbnails && audio)
    out.push({ path: ["thumbnails"], message: `a ${format} output has no picture to take thumbnails from` });
  else if (thumbnails && (thumbnails.count === undefined) === (thumbnails.interval === undefined))
    out.push({ path: ["thumbnails"], message: "set either count or interval" });
  else if (
    thumbnails?.interval !== undefined &&
    thumbnails.interval >= MIN_INTERVAL &&
    duration / thumbnails.interval > limits.THUMBNAILS_MAX_COUNT + 1e-9
  )
    out.push({
      path: ["thumbnails", "interval"],
      message: `one frame every ${thumbnails.interval} s of a ${Math.round(duration * 100) / 100} s video is more than ${limits.THUMBNAILS_MAX_COUNT} frames`,
    });
  else if (thumbnails?.sprite === true) {
    // Sized from the config's frame: a GIF's frame is scaled down after, so its sheet is never larger than this.
    const frame = {
      width: evenDimension(config.width ?? limits.VIDEO_DEFAULTS.width),
      height: evenDimension(config.height ?? limits.VIDEO_DEFAULTS.height),
    };
    const tile = thumbnailSize(thumbnails.width, frame);
    const count = thumbnailTimes(thumbnails, duration).length;
    const sheet = spriteSize(count, tile);
    if (sheet.width * sheet.height > limits.SPRITE_MAX_PIXELS)
      out.push({
        path: ["thumbnails", "sprite"],
        message:
          `the sprite sheet of ${count} thumbnails of ${tile.width}x${tile.height} px would be ` +
          `${sheet.width}x${sheet.height} px (${millions(sheet.width * sheet.height)} pixels); at most ` +
          `${millions(limits.SPRITE_MAX_PIXELS)} (${limits.IMAGE_MAX_SIZE}x${limits.IMAGE_MAX_SIZE}): make the thumbnails narrower ` +
          "(width) or fewer, or leave the sprite out",
      });
  }
  const { caps } = entry;
  if (caps && duration > caps.maxDuration + 1e-9)
    out.push({
      path: ["clips"],
      message: `a ${format.toUpperCase()} lasts at most ${caps.maxDuration} s; this one would last ${Math.round(duration * 100) / 100} s`,
    });
  return out;
};
