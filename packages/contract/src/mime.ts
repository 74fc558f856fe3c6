/**
 * MIME types by file extension: the one table behind upload sniffing, job outputs (`outputFormat`), what the
 * renderer declares when it uploads a render, and downloads.
 */
export const MIME_TYPES = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  mp4: "video/mp4",
  mov: "video/quicktime",
  webm: "video/webm",
  avi: "video/x-msvideo",
  m4a: "audio/mp4",
  mp3: "audio/mpeg",
  wav: "audio/wav",
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
} as const;

/** The MIME type of an extension or output format (any case); `application/octet-stream` when unknown. */
export const mimeOf = (ext: string): string =>
  (MIME_TYPES as Record<string, string>)[ext.toLowerCase()] ?? "application/octet-stream";
