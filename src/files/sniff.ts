/**
 * Content type detection from magic bytes (never from the file name). The first 64 bytes suffice
 * for every format we accept.
 */
import { isoKind, isoTracksIn, type IsoTracks } from "@media-render/contract/media/iso-tracks";
import { mimeOf } from "@media-render/contract/mime";
import type { FileCategory } from "../db/schema.ts";

export interface Sniffed {
  mimeType: string;
  ext: string;
  category: FileCategory;
}

/** A detected type: its MIME type is the one table's (contract mime.ts, where output formats bring their own). */
const sniffed = (ext: string, category: FileCategory): Sniffed => ({ mimeType: mimeOf(ext), ext, category });

const ascii = (b: Uint8Array, at: number, len: number) => String.fromCharCode(...b.subarray(at, at + len));
const startsWith = (b: Uint8Array, bytes: number[], at = 0) => bytes.every((x, i) => b[at + i] === x);

const M4A: Sniffed = sniffed("m4a", "audio");
const MOV: Sniffed = sniffed("mov", "video");
const MP4: Sniffed = sniffed("mp4", "video");

const kinds: Array<[(b: Uint8Array) => boolean, Sniffed]> = [
  [(b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), sniffed("png", "image")],
  [(b) => startsWith(b, [0xff, 0xd8, 0xff]), sniffed("jpg", "image")],
  [(b) => ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a", sniffed("gif", "image")],
  [(b) => ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP", sniffed("webp", "image")],
  [(b) => ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WAVE", sniffed("wav", "audio")],
  [(b) => ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "AVI ", sniffed("avi", "video")],
  [(b) => isIsoBmff(b), M4A],
  [(b) => startsWith(b, [0x1a, 0x45, 0xdf, 0xa3]), sniffed("webm", "video")],
  [
    (b) => ascii(b, 0, 3) === "ID3" || (b[0] === 0xff && ((b[1] ?? 0) & 0xe6) === 0xe2),
    sniffed("mp3", "audio"),
  ],
  [(b) => b[0] === 0xff && ((b[1] ?? 0) & 0xf6) === 0xf0, sniffed("aac", "audio")],
  [(b) => ascii(b, 0, 4) === "OggS", sniffed("ogg", "audio")],
  [(b) => ascii(b, 0, 4) === "fLaC", sniffed("flac", "audio")],
  [(b) => startsWith(b, [0x00, 0x01, 0x00, 0x00, 0x00]) || ascii(b, 0, 4) === "true", sniffed("ttf", "font")],
  [(b) => ascii(b, 0, 4) === "OTTO", sniffed("otf", "font")],
  [(b) => ascii(b, 0, 4) === "wOFF", sniffed("woff", "font")],
  [(b) => ascii(b, 0, 4) === "wOF2", sniffed("woff2", "font")],
];

/** Whether the bytes start an ISO-BMFF file (mp4, m4a, mov, 3gp). */
export const isIsoBmff = (b: Uint8Array): boolean => ascii(b, 4, 4) === "ftyp";

const ISO_KINDS = { m4a: M4A, mov: MOV, mp4: MP4 };

/** The kind of an ISO-BMFF file by its tracks when known, else by its brand (iso-tracks.ts). */
export const isoSniffed = (head: Uint8Array, tracks: IsoTracks | null): Sniffed =>
  ISO_KINDS[isoKind(head, tracks)];

const SVG: Sniffed = sniffed("svg", "image");

/** SVG is text: accept an XML prolog or comments before the root `<svg` element. */
const isSvg = (head: Uint8Array): boolean => {
  const text = new TextDecoder()
    .decode(head)
    .replace(/^\uFEFF/, "")
    .trimStart();
  return /^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(text);
};

/**
 * GLSL is text: printable UTF-8 (no NUL or other control bytes but tab and line ends) whose first token,
 * after comments, is one a fragment shader starts with (a directive, a precision, a declaration).
 */
const GLSL_START =
  /^(#\s*(version|ifdef|ifndef|if|define|extension|pragma)\b|precision\s|uniform\s|varying\s|in\s|out\s|const\s|struct\s|(void|float|int|bool|vec[234]|mat[234]|sampler2D|highp|mediump|lowp)\s)/;
const isGlsl = (head: Uint8Array): boolean => {
  if (head.some((b) => b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d)) return false;
  // A head cut inside a multi-byte character is still text: only the last few characters may not decode.
  const text = new TextDecoder().decode(head);
  if (text.slice(0, -3).includes("\uFFFD")) return false;
  const code = text
    .replace(/^\uFEFF/, "")
    .replace(/^(\s*(\/\/[^\n]*(\n|$)|\/\*[\s\S]*?\*\/))*/, "")
    .trimStart();
  return GLSL_START.test(code);
};

const GLSL: Sniffed = sniffed("glsl", "shader");

/**
 * Captions are text too: WebVTT starts with its `WEBVTT` signature (after an optional BOM); SubRip with a cue
 * number line and then a `00:00:01,000 --> 00:00:02,000` timing line (blank lines before it allowed).
 */
const VTT: Sniffed = sniffed("vtt", "captions");
const SRT: Sniffed = sniffed("srt", "captions");
const captionsKind = (head: Uint8Array): Sniffed | null => {
  if (head.some((b) => b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d)) return null;
  const text = new TextDecoder().decode(head).replace(/^\uFEFF/, "");
  if (/^WEBVTT(?:[ \t\r\n]|$)/.test(text)) return VTT;
  const srtStart =
    /^\s*\d+[ \t]*\r?\n\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}[ \t]+-->[ \t]+\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}/;
  return srtStart.test(text) ? SRT : null;
};

/** Detects the type of a file from its first bytes (pass at least 64, ideally 512 for SVG). */
export const sniff = (head: Uint8Array): Sniffed | null => {
  for (const [test, kind] of kinds) {
    if (test(head)) return kind === M4A ? isoSniffed(head, isoTracksIn(head)) : kind;
  }
  if (isSvg(head)) return SVG;
  if (isGlsl(head)) return GLSL;
  return captionsKind(head);
};

/** Extensions a client may use for each detected type (a `.jpeg` name for JPEG content is fine). */
const ALIASES: Record<string, string[]> = {
  jpg: ["jpg", "jpeg", "jfif"],
  // Audio-only ISO-BMFF: an .m4a, or an .mp4/.mov/.3gp that carries sound alone.
  m4a: ["m4a", "m4b", "mp4", "aac", "mov", "3gp", "3ga"],
  mp4: ["mp4", "m4v", "3gp", "3g2"],
  mov: ["mov", "qt"],
  webm: ["webm", "mkv"],
  ogg: ["ogg", "oga", "opus"],
  ttf: ["ttf"],
  glsl: ["glsl", "frag", "fs", "txt"],
};

/** The extensions a file of `kind` may be named with. */
export const extensionsOf = (kind: Sniffed): string[] => ALIASES[kind.ext] ?? [kind.ext];

/** Every type the content is recognised as (GET /api/v1/files/supported-types lists them). */
export const SNIFFED_KINDS: readonly Sniffed[] = [
  ...kinds.map(([, kind]) => kind),
  MOV,
  MP4,
  SVG,
  GLSL,
  VTT,
  SRT,
];

/** Whether a file name's extension agrees with the sniffed type (no extension: agrees). */
export const nameAgrees = (name: string, kind: Sniffed): boolean => {
  const dot = name.lastIndexOf(".");
  if (dot < 0) return true;
  const ext = name.slice(dot + 1).toLowerCase();
  return extensionsOf(kind).includes(ext);
};
