/**
 * File references (`path`, `fontPath`, `audioFilePath`, `audioTracks[].path`): an internal storage path
 * (the `storageUrl` of an upload, starting with `/`) or a public http(s) URL whose path ends in an
 * extension the slot accepts. The rule is one regular expression per slot so the served JSON Schema
 * carries exactly the same `pattern`.
 */
import * as v from "valibot";
import { categoryOfKind, OUTPUT_FORMAT_NAMES, OUTPUT_FORMATS } from "../output-formats.ts";
import { anyCase } from "./any-case.ts";
import { MAX_FILE_REFERENCE_LENGTH } from "./limits.ts";

export type FileKind = "image" | "video" | "audio" | "font" | "shader" | "captions";

/**
 * `listed`, then every extension of the formats the service writes that fit `kind`'s slot and are not listed: a
 * job's output can be the input of the next (output-formats.ts). The listed order is the messages' order.
 */
const withOutputs = (kind: FileKind, listed: readonly string[]): readonly string[] => [
  ...new Set([
    ...listed,
    ...OUTPUT_FORMAT_NAMES.filter((f) => categoryOfKind(OUTPUT_FORMATS[f].kind) === kind).flatMap(
      (f) => OUTPUT_FORMATS[f].extensions,
    ),
  ]),
];

/** Extensions accepted per kind of slot (lower case; matching ignores case). */
export const FILE_EXTENSIONS: Record<FileKind, readonly string[]> = {
  image: withOutputs("image", ["png", "jpg", "jpeg", "gif", "webp", "svg"]),
  video: withOutputs("video", ["mp4", "webm", "mov", "avi"]),
  audio: withOutputs("audio", ["mp3", "wav", "m4a", "aac"]),
  font: ["ttf", "otf", "woff", "woff2"],
  /** GLSL fragment shader text (a `gl` layer's `fragmentPath`). */
  shader: ["glsl", "frag", "fs"],
  /** SubRip or WebVTT captions (`captionsFile`), burned in with `autoSubtitlesStyle`. */
  captions: ["srt", "vtt"],
};

/** `/…` without `//` (protocol-relative), whitespace, backslashes or `..` segments. */
const STORAGE = String.raw`\/(?!\/)(?!(?:[^\s]*\/)?\.\.(?:\/|$))[^\s\\]+`;

const urlPattern = (exts: readonly string[]): string =>
  String.raw`[hH][tT][tT][pP][sS]?:\/\/[^\/\s?#]+\/[^\s?#]*\.(?:${exts.map(anyCase).join("|")})(?:[?#]\S*)?`;

const patternFor = (kind: FileKind): RegExp =>
  new RegExp(`^(?:${STORAGE}|${urlPattern(FILE_EXTENSIONS[kind])})$`);

// Only judges what looks like a URL, so a value the pattern already rejected gets one message, not two.
const parsesAsUrl = (reference: string): boolean => {
  if (!/^https?:\/\//i.test(reference)) return true;
  try {
    new URL(reference);
    return true;
  } catch {
    return false;
  }
};

const describe = (kind: FileKind): string =>
  `must be a storage path starting with "/" or an http(s) URL ending in ${FILE_EXTENSIONS[kind].map((e) => `.${e}`).join(", ")}`;

/** The kind of every file reference slot made by `fileRef`, by its schema. */
const SLOT_KINDS = new WeakMap<object, FileKind>();

/** The schema of a file reference slot of the given kind. */
export const fileRef = (kind: FileKind) => {
  const slot = v.pipe(
    v.string(describe(kind)),
    v.maxLength(MAX_FILE_REFERENCE_LENGTH, `must be at most ${MAX_FILE_REFERENCE_LENGTH} characters`),
    v.regex(patternFor(kind), describe(kind)),
    v.check(parsesAsUrl, "must be a valid URL"),
  );
  SLOT_KINDS.set(slot, kind);
  return slot;
};

/**
 * The kind of file a property's schema references (`path: VideoRef` is a video), optional or not; undefined for a
 * property that is no file reference. How a layer type's files are read off its entries (layer-set.ts).
 */
export const slotKind = (schema: v.GenericSchema): FileKind | undefined =>
  SLOT_KINDS.get(
    schema.type === "optional" ? (schema as v.OptionalSchema<v.GenericSchema, unknown>).wrapped : schema,
  );

export const ImageRef = fileRef("image");
export const VideoRef = fileRef("video");
export const AudioRef = fileRef("audio");
export const FontRef = fileRef("font");
export const ShaderRef = fileRef("shader");
export const CaptionsRef = fileRef("captions");

const BY_EXTENSION = new Map<string, FileKind>(
  (Object.entries(FILE_EXTENSIONS) as [FileKind, readonly string[]][]).flatMap(([kind, exts]) =>
    exts.map((e) => [e, kind] as const),
  ),
);

/**
 * What a reference points at, judged by the file itself (its extension, or the category folder of a
 * storage path such as `/font/2024-01-15/u/x`), not by the slot it sits in; `unknown` when neither says.
 */
export const kindOfReference = (ref: string): FileKind | "unknown" => {
  let path = ref;
  if (!ref.startsWith("/")) {
    try {
      path = new URL(ref).pathname;
    } catch {
      return "unknown";
    }
  }
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  const byExt = ext ? BY_EXTENSION.get(ext) : undefined;
  if (byExt) return byExt;
  const folder = /^\/(image|video|audio|font|shader)\//.exec(ref)?.[1] as FileKind | undefined;
  return folder ?? "unknown";
};
