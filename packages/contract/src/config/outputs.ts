/**
 * What a video job writes (config reference, "Outputs"): the container `format` (video, GIF or audio only),
 * `alpha` for ProRes 4444 in mov, GIF's dithering, and editly's `outPath` whose extension names the format when
 * `format` is absent. One module so the Worker (estimate, output row) and the renderer (encoder) read one truth.
 */
import * as v from "valibot";
import { bool, documentedDefault, oneOf, strict } from "./common.ts";
import * as L from "./limits.ts";
import type { RuleIssue } from "./rules.ts";

/** Output formats of a video job: video containers, an animated GIF, and audio-only files. */
export const VIDEO_FORMATS = ["mp4", "mov", "webm", "gif", "mp3", "wav", "m4a"] as const;
export type VideoFormat = (typeof VIDEO_FORMATS)[number];

/** Formats that carry only the config's audio mix: no picture is composed or encoded. */
export const AUDIO_FORMATS = ["mp3", "wav", "m4a"] as const;
export const isAudioFormat = (format: string): format is (typeof AUDIO_FORMATS)[number] =>
  (AUDIO_FORMATS as readonly string[]).includes(format);

/** ffmpeg's paletteuse dithering modes offered for GIF (default sierra2_4a, ffmpeg's own). */
export const GIF_DITHERS = ["sierra2_4a", "floyd_steinberg", "bayer", "none"] as const;

const o = v.optional;

/** The output entries of the video config (spread into videoConfigEntries). */
export const outputEntries = {
  /**
   * With `format: "mov"`: ProRes 4444 with an alpha channel (areas no layer covers stay transparent, like webm).
   * Plain mov stays H.264. webm always keeps alpha.
   */
  alpha: o(
    v.pipe(
      bool(),
      v.description(
        'With format "mov": ProRes 4444 with an alpha channel (areas no layer covers stay transparent). Plain mov is ' +
          "H.264; webm always keeps alpha; other formats refuse it.",
      ),
    ),
  ),
  /** GIF output settings (`format: "gif"`): the dithering paletteuse applies (default sierra2_4a). */
  gif: o(
    strict("gif", {
      dither: o(
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

/** The format an `outPath` names by its extension (`./out.gif` → gif), or undefined. */
export const formatOfPath = (path: string | undefined): VideoFormat | undefined => {
  const ext = path?.match(/\.([a-z0-9]+)$/i)?.[1]?.toLowerCase();
  return (VIDEO_FORMATS as readonly string[]).includes(ext ?? "") ? (ext as VideoFormat) : undefined;
};

/** The job's output format: `format`, else the extension of editly's `outPath`, else mp4. */
export const effectiveFormat = (config: { format?: VideoFormat; outPath?: string }): VideoFormat =>
  config.format ?? formatOfPath(config.outPath) ?? "mp4";

/** A config with `format` filled from `outPath` when only that names it (so both runtimes read `format`). */
export const withOutPathFormat = <C extends { format?: VideoFormat; outPath?: string }>(config: C): C => {
  if (config.format !== undefined) return config;
  const format = formatOfPath(config.outPath);
  return format ? { ...config, format } : config;
};

/** Cross-field rules of the outputs: alpha needs mov or webm, a GIF's length cap. `duration` = output seconds. */
export const outputIssues = (
  config: { format?: VideoFormat; outPath?: string; alpha?: boolean; gif?: object },
  duration: number,
): RuleIssue[] => {
  const format = effectiveFormat(config);
  const out: RuleIssue[] = [];
  if (config.alpha === true && format !== "mov" && format !== "webm")
    out.push({
      path: ["alpha"],
      message: `alpha needs format "mov" (ProRes 4444) or "webm"; the format is ${format}`,
    });
  if (format === "gif" && duration > L.GIF_MAX_DURATION + 1e-9)
    out.push({
      path: ["clips"],
      message: `a GIF lasts at most ${L.GIF_MAX_DURATION} s; this one would last ${Math.round(duration * 100) / 100} s`,
    });
  return out;
};
