/**
 * Every file format the service writes, one entry each: what a config may name it for, its MIME type and file
 * extensions, what it holds, whether it keeps alpha, whether a long render of it splits into chunks, its price rule
 * and the renderer's encoder settings. Every list of formats (the grammar's pickers, the wire's, MIME types, the
 * reference extensions, the split rule, the Worker's output rows, the console) is derived from this table; the
 * renderer's encoder arguments are keyed by `encoder` (renderer/src/video/outputs/encoders.ts). CONTRIBUTING.md,
 * "Adding an output format", says what else a new entry needs.
 */
import { GIF_MAX_DURATION, GIF_MAX_FPS, GIF_MAX_SIDE } from "./config/limits.ts";

/** What a file holds: moving pictures with sound, sound only, one picture, moving pictures without sound. */
export type FormatKind = "video" | "audio" | "image" | "animated image";

/**
 * Whether the output keeps an alpha channel (areas nothing covers stay transparent): `none`; `always` (webm's VP9, an
 * image job's PNG or WebP); `on request`, with the config's `alpha: true` (mov's ProRes 4444). A still is a picture of
 * the video's opaque frame, whatever its format could hold (the grammar refuses `alpha` with one).
 */
export type AlphaSupport = "none" | "always" | "on request";

/**
 * Where a config may name the format: a video job's `format` (`video`), the `format` of a video job's `still`,
 * `poster` or `thumbnails` (`frame`), an image job's `format` (`image`).
 */
export type FormatUse = "video" | "frame" | "image";

/**
 * How a render in the format is priced (estimate.ts): `video` and `audio` per started second of output (limits.ts
 * TOKENS_VIDEO_*, TOKENS_AUDIO_*); `image` as a picture (an image job by its layers, a still TOKENS_STILL).
 */
export type PriceRule = "video" | "audio" | "image";

export interface OutputFormatEntry {
  mime: string;
  /**
   * File name extensions of the format, lower case: the first is the one a poster, thumbnail or sprite sheet is
   * written with; every one names the format (MIME type, editly's `outPath`). A job's own output is
   * `<jobId>.<format>`, so the format's name is one of them.
   */
  extensions: readonly [string, ...string[]];
  /** Other spellings a config may use for the format (`jpg`), normalised to its name. */
  aliases?: readonly string[];
  kind: FormatKind;
  uses: readonly FormatUse[];
  alpha: AlphaSupport;
  /** With `alpha: "on request"`: what the alpha output is encoded as, for the refusal's message ("ProRes 4444"). */
  alphaCodec?: string;
  /**
   * Whether a long render may split into chunks whose video is joined by stream copy (contract windows.ts
   * `splittable`, which adds the config's conditions): H.264 in mp4 or mov.
   */
  splittable: boolean;
  price: PriceRule;
  /** Whether quality settings apply (an image job's `quality`: JPEG and WebP). */
  lossy: boolean;
  /**
   * The renderer's encoder settings (renderer/src/video/outputs/encoders.ts); none for a format only an image job
   * writes (the image renderer's Chromium encodes it).
   */
  encoder?: string;
  /** ffmpeg's muxer of the finished file (`-f`); none where ffmpeg does not write it. */
  muxer?: string;
  /** Caps of the picture (an animated image's): longer side (px), frame rate and length (s) at most. */
  caps?: { maxSide: number; maxFps: number; maxDuration: number };
}

/** The formats, in the order the grammar lists them (JSON Schema enums, "must be one of" messages). */
export const OUTPUT_FORMATS = {
  mp4: {
    mime: "video/mp4",
    extensions: ["mp4"],
    kind: "video",
    uses: ["video"],
    alpha: "none",
    splittable: true,
    price: "video",
    lossy: true,
    encoder: "h264",
    muxer: "mp4",
  },
  mov: {
    mime: "video/quicktime",
    extensions: ["mov"],
    kind: "video",
    uses: ["video"],
    alpha: "on request",
    alphaCodec: "ProRes 4444",
    splittable: true,
    price: "video",
    lossy: true,
    encoder: "h264",
    muxer: "mov",
  },
  webm: {
    mime: "video/webm",
    extensions: ["webm"],
    kind: "video",
    uses: ["video"],
    alpha: "always",
    splittable: false,
    price: "video",
    lossy: true,
    encoder: "vp9",
    muxer: "webm",
  },
  gif: {
    mime: "image/gif",
    extensions: ["gif"],
    kind: "animated image",
    uses: ["video"],
    alpha: "none",
    splittable: false,
    price: "video",
    lossy: true,
    encoder: "gif",
    muxer: "gif",
    caps: { maxSide: GIF_MAX_SIDE, maxFps: GIF_MAX_FPS, maxDuration: GIF_MAX_DURATION },
  },
  mp3: {
    mime: "audio/mpeg",
    extensions: ["mp3"],
    kind: "audio",
    uses: ["video"],
    alpha: "none",
    splittable: false,
    price: "audio",
    lossy: true,
    encoder: "mp3",
    muxer: "mp3",
  },
  wav: {
    mime: "audio/wav",
    extensions: ["wav"],
    kind: "audio",
    uses: ["video"],
    alpha: "none",
    splittable: false,
    price: "audio",
    lossy: false,
    encoder: "pcm",
    muxer: "wav",
  },
  m4a: {
    mime: "audio/mp4",
    extensions: ["m4a"],
    kind: "audio",
    uses: ["video"],
    alpha: "none",
    splittable: false,
    price: "audio",
    lossy: true,
    encoder: "aac",
    // ffmpeg's muxer of iTunes' audio MP4 (brand M4A).
    muxer: "ipod",
  },
  png: {
    mime: "image/png",
    extensions: ["png"],
    kind: "image",
    uses: ["frame", "image"],
    alpha: "always",
    splittable: false,
    price: "image",
    lossy: false,
    encoder: "png",
    muxer: "image2",
  },
  jpeg: {
    mime: "image/jpeg",
    extensions: ["jpg", "jpeg"],
    aliases: ["jpg"],
    kind: "image",
    uses: ["frame", "image"],
    alpha: "none",
    splittable: false,
    price: "image",
    lossy: true,
    encoder: "mjpeg",
    muxer: "image2",
  },
  webp: {
    mime: "image/webp",
    extensions: ["webp"],
    kind: "image",
    uses: ["image"],
    alpha: "always",
    splittable: false,
    price: "image",
    lossy: true,
  },
} as const satisfies Record<string, OutputFormatEntry>;

type Formats = typeof OUTPUT_FORMATS;
/** A format the service writes. */
export type OutputFormat = keyof Formats;
/** The formats a config may name for `use`. */
export type FormatFor<U extends FormatUse> = {
  [F in OutputFormat]: U extends Formats[F]["uses"][number] ? F : never;
}[OutputFormat];
/** The formats a config may name for `use`, and their other spellings. */
export type SpellingFor<U extends FormatUse> = {
  [F in FormatFor<U>]: F | (Formats[F] extends { aliases: readonly (infer A extends string)[] } ? A : never);
}[FormatFor<U>];
/** The formats of a kind. */
export type FormatOfKind<K extends FormatKind> = {
  [F in OutputFormat]: Formats[F]["kind"] extends K ? F : never;
}[OutputFormat];
/** An encoder settings key some format names (the renderer's encoders.ts has settings for each). */
export type EncoderKey = {
  [F in OutputFormat]: Formats[F] extends { encoder: infer E extends string } ? E : never;
}[OutputFormat];

/** Every format, in the table's order. */
export const OUTPUT_FORMAT_NAMES = Object.keys(OUTPUT_FORMATS) as OutputFormat[];

/** The table's entry of `format`, or undefined when the service writes no such format. */
export const outputFormat = (format: string | undefined): OutputFormatEntry | undefined =>
  format !== undefined && Object.hasOwn(OUTPUT_FORMATS, format)
    ? (OUTPUT_FORMATS as Record<string, OutputFormatEntry>)[format]
    : undefined;

/** The formats a config may name for `use`, in the table's order (non-empty, for picklists). */
export const formatsFor = <U extends FormatUse>(use: U): readonly [FormatFor<U>, ...FormatFor<U>[]] =>
  OUTPUT_FORMAT_NAMES.filter((f) => (OUTPUT_FORMATS[f].uses as readonly FormatUse[]).includes(use)) as [
    FormatFor<U>,
    ...FormatFor<U>[],
  ];

/** The formats a config may name for `use`, each followed by its other spellings (`jpeg`, `jpg`). */
export const spellingsFor = <U extends FormatUse>(use: U): readonly [SpellingFor<U>, ...SpellingFor<U>[]] =>
  formatsFor(use).flatMap((f) => [f, ...(outputFormat(f)!.aliases ?? [])]) as [
    SpellingFor<U>,
    ...SpellingFor<U>[],
  ];

/** The formats of `kind`, in the table's order. */
export const formatsOfKind = <K extends FormatKind>(kind: K): readonly FormatOfKind<K>[] =>
  OUTPUT_FORMAT_NAMES.filter((f) => OUTPUT_FORMATS[f].kind === kind) as FormatOfKind<K>[];

/** The format a config's spelling names: an alias (`jpg`) as its format's name, anything else as it is. */
export const canonicalFormat = (format: string): string =>
  OUTPUT_FORMAT_NAMES.find((f) => outputFormat(f)!.aliases?.includes(format)) ?? format;

/** Whether a render in `format` keeps an alpha channel, `asked` being the config's `alpha`. */
export const keepsAlpha = (format: string, asked: boolean | undefined): boolean => {
  const alpha = outputFormat(format)?.alpha;
  return alpha === "always" || (alpha === "on request" && asked === true);
};

/** The category of files (uploads' and outputs') a kind's belong to: an animated GIF is an image. */
export const categoryOfKind = (kind: FormatKind): "video" | "audio" | "image" =>
  kind === "animated image" ? "image" : kind;

/** Whether the format is a picture (a still, an animated GIF) rather than a video or a sound. */
export const isPictureFormat = (format: string): boolean => {
  const kind = outputFormat(format)?.kind;
  return kind === "image" || kind === "animated image";
};

/** The extension a picture of `format` (a poster, a thumbnail) is written with: `jpg` for jpeg. */
export const fileExtension = (format: OutputFormat): string => OUTPUT_FORMATS[format].extensions[0];

/** The MIME type of every extension of every format. */
export const OUTPUT_MIME_TYPES: Readonly<Record<string, string>> = Object.fromEntries(
  OUTPUT_FORMAT_NAMES.flatMap((f) => OUTPUT_FORMATS[f].extensions.map((e) => [e, OUTPUT_FORMATS[f].mime])),
);
