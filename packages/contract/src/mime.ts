/**
 * MIME types by file extension: the one table behind upload sniffing, job outputs (`outputFormat`), what the
 * renderer declares when it uploads a render, and downloads. The formats the service writes bring their own
 * (output-formats.ts); the rest are what it only reads.
 */
import { OUTPUT_MIME_TYPES } from "./output-formats.ts";

export const MIME_TYPES: Readonly<Record<string, string>> = {
  ...OUTPUT_MIME_TYPES,
  svg: "image/svg+xml",
  avi: "video/x-msvideo",
  aac: "audio/aac",
  ogg: "audio/ogg",
  flac: "audio/flac",
  ttf: "font/ttf",
  otf: "font/otf",
  woff: "font/woff",
  woff2: "font/woff2",
  // GLSL fragment shaders (gl layers' fragmentPath): text.
  glsl: "text/x-glsl",
  // autoSubtitles outputs: captions for players, and the transcript with word times.
  vtt: "text/vtt",
  srt: "application/x-subrip",
  json: "application/json",
};

/** The MIME type of an extension or output format (any case); `application/octet-stream` when unknown. */
export const mimeOf = (ext: string): string =>
  (Object.hasOwn(MIME_TYPES, ext.toLowerCase()) ? MIME_TYPES[ext.toLowerCase()] : undefined) ??
  "application/octet-stream";
