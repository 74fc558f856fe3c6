/** Arguments for one ffprobe run over a local file. Pure, so the exact command line is unit-tested. */
import { MEDIA_DEMUXERS } from "./demuxers.ts";

/**
 * `ffprobe` arguments that print a file's format and streams as JSON.
 * - `-format_whitelist`: only the demuxers of the media the service accepts (demuxers.ts): a playlist (HLS, concat)
 *   is refused before it is opened, whatever its name.
 * - `-protocol_whitelist file`: nothing it opens may open a network URL, or anything but a local file.
 * - `file:` prefix: a path is never taken for another protocol or for an option.
 */
export const buildFfprobeArgs = (inputPath: string): string[] => {
  return [
    "-v",
    "error",
    "-format_whitelist",
    MEDIA_DEMUXERS.join(","),
    "-protocol_whitelist",
    "file",
    "-print_format",
    "json",
    "-show_format",
    "-show_streams",
    `file:${inputPath}`,
  ];
};

/**
 * Extensions passed on to ffprobe as a hint. Some formats are only recognised by name (SVG with an XML
 * prolog, raw streams); anything else is dropped because a name like `.txt` would make ffprobe's `tty`
 * demuxer "read" any garbage as video.
 */
const HINT_EXTENSIONS = new Set([
  ...["jpg", "jpeg", "png", "gif", "webp", "bmp", "tif", "tiff", "svg", "avif", "heic"],
  ...["mp4", "m4v", "mov", "webm", "mkv", "avi", "mpg", "mpeg", "ts", "flv", "3gp", "ogv"],
  ...["mp3", "m4a", "aac", "wav", "ogg", "oga", "opus", "flac", "wma", "aiff", "aif"],
]);

/** Temp file name for an upload: "input" plus the client's extension when it is a known media one. */
export const probeInputName = (clientFilename: string | undefined): string => {
  const ext = clientFilename?.match(/\.([A-Za-z0-9]{1,5})$/)?.[1]?.toLowerCase();
  return ext !== undefined && HINT_EXTENSIONS.has(ext) ? `input.${ext}` : "input";
};
