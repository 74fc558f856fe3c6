/**
 * The demuxers a user's media is read with: those of the kinds the Worker accepts (src/files/sniff.ts: PNG, JPEG,
 * GIF, WebP, SVG, animated PNG; MP4/M4V/M4A/3GP, MOV, WebM/MKV, AVI; MP3, AAC, WAV, OGG/Opus, FLAC). ffprobe may pick no other
 * (`-format_whitelist`, ffprobe-args.ts), so a playlist (HLS, concat, ...) is refused before it is opened, whatever
 * its name and whatever precedes it (an ID3 tag): ffmpeg skips one before probing. Each render input then names the
 * demuxer its probe found (`-f`, video/graph-context.ts), so ffmpeg reads it as the probe did and probes nothing.
 */
import { outputFormat } from "@media-render/contract/output-formats";

/** Those of pictures, still or animated (GIF, animated PNG: read from their start, never seeked into). */
const PICTURE_DEMUXERS: readonly string[] = [
  ...["image2", "png_pipe", "apng", "jpeg_pipe", "webp_pipe", "svg_pipe", "gif", "gif_pipe"],
];

export const MEDIA_DEMUXERS: readonly string[] = [
  ...PICTURE_DEMUXERS,
  ...["mov", "matroska", "avi", "mp3", "aac", "wav", "ogg", "flac"],
];

/** Whether a file read by `demuxer` is a picture (an animated one has frames that last, and is small). */
export const isPictureDemuxer = (demuxer: string): boolean => PICTURE_DEMUXERS.includes(demuxer);

/** The demuxer `-f` names for a file ffprobe read as `formatName` ("mov,mp4,m4a,3gp,3g2,mj2" is "mov"). */
export const demuxerOf = (formatName: string): string => formatName.split(",")[0] ?? formatName;

/** A still picture's demuxer when the header reader read it (ffprobe reads a .jpg or .svg with it too). */
export const STILL_DEMUXER = "image2";
/** An MP4 or QuickTime file's when the header reader read its `moov`. */
export const MP4_DEMUXER = "mov";

/** The demuxer that reads what ffmpeg's `muxer` wrote: the ISO family's is `mov`, WebM's `matroska`. */
export const demuxerOfMuxer = (muxer: string): string =>
  ({ mp4: "mov", mov: "mov", ipod: "mov", webm: "matroska" })[muxer] ?? muxer;

/** The demuxer of a file the renderer wrote in `format` (a render's output, read again for its frames). */
export const demuxerOfOutput = (format: string): string =>
  demuxerOfMuxer(outputFormat(format)?.muxer ?? STILL_DEMUXER);
