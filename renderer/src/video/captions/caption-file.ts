/**
 * Captions from an uploaded SubRip or WebVTT file (`captionsFile`): parsed by `media-captions` (Vidstack's
 * parser, non-strict: a malformed cue is skipped, as players do), its markup dropped, and each cue drawn at its
 * own times with autoSubtitlesStyle. A cue keeps the file's line breaks; a line wider than the caption box is
 * wrapped like transcribed captions. Words get times spread over the cue by their length, so a word-by-word
 * style still has something to follow.
 */
import { readFile } from "node:fs/promises";
import * as mediaCaptions from "media-captions";
import type { TranscriptWord } from "../../transcribe/types.ts";
import type { VideoSpec } from "../types.ts";
import { captionLayoutOptions } from "./caption-layers.ts";
import type { Captions } from "./captions.ts";
import { wrapWords, type Cue } from "./layout.ts";

interface ParsedCues {
  cues: { startTime: number; endTime: number; text: string }[];
}
/**
 * media-captions' declaration files import each other without file extensions, which the renderer's NodeNext
 * resolution does not follow, so the one function used is typed here (its signature in 1.0.4).
 */
const parseText = (
  mediaCaptions as unknown as {
    parseText: (text: string, o: { type: "srt" | "vtt"; strict: boolean }) => Promise<ParsedCues>;
  }
).parseText;

/** Cues of a captions file drawn at most (each one a text box on the job's sheet). */
export const CAPTIONS_FILE_MAX_CUES = 2000;
export const NO_CUES_NOTE = "the captions file has no cues within the video, so no captions were drawn";

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  nbsp: "\u00a0",
  lrm: "",
  rlm: "",
  quot: '"',
};

/** A cue's text without markup (`<b>`, `<v Bob>`, `<00:01.000>`, `{\an8}`), entities decoded (pure). */
export const plainCueText = (text: string): string =>
  text
    .replace(/<[^>]*>/g, "")
    .replace(/\{\\[^}]*\}/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === "#") {
        const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    });

/** The cues of a SubRip or WebVTT text (the `WEBVTT` signature decides), in file order (pure but async). */
export const parseCaptionsText = async (
  text: string,
): Promise<{ start: number; end: number; lines: string[] }[]> => {
  const type = /^\uFEFF?WEBVTT/.test(text) ? "vtt" : "srt";
  const { cues } = await parseText(text, { type, strict: false });
  return cues
    .map((c: ParsedCues["cues"][number]) => ({
      start: c.startTime,
      end: c.endTime,
      lines: plainCueText(c.text)
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    }))
    .filter((c) => c.lines.length > 0 && c.end > c.start);
};

/** Words of one line with times spread over [start, end] by their length in characters (pure). */
const timedWords = (words: string[], start: number, end: number, offset: number, total: number) => {
  let at = offset;
  return words.map((text): TranscriptWord => {
    const from = start + ((end - start) * at) / total;
    at += [...text].length + 1;
    return { text, start: from, end: start + ((end - start) * (at - 1)) / total };
  });
};

/** The captions of the file at `path` for a video of `duration` seconds. */
export const captionsFromFile = async (
  path: string,
  spec: VideoSpec,
  duration: number,
): Promise<Captions> => {
  const parsed = (await parseCaptionsText(await readFile(path, "utf8"))).filter((c) => c.start < duration);
  if (parsed.length > CAPTIONS_FILE_MAX_CUES)
    throw new Error(
      `captionsFile: the file has ${parsed.length} cues within the video; at most ${CAPTIONS_FILE_MAX_CUES} are drawn`,
    );
  const options = captionLayoutOptions(spec.subtitles?.style ?? {}, spec);
  const cues = parsed.map((c): Cue => {
    const end = Math.min(c.end, duration);
    const total = c.lines.reduce((n, l) => n + [...l].length + 1, 0);
    let offset = 0;
    const lines = c.lines.flatMap((line) => {
      const words = timedWords(line.split(/\s+/), c.start, end, offset, total);
      offset += [...line].length + 1;
      return wrapWords(words, options);
    });
    return { start: c.start, end, lines };
  });
  return {
    backend: null,
    language: spec.subtitles?.language ?? null,
    words: cues.flatMap((c) => c.lines.flat()),
    cues,
    note: cues.length === 0 ? NO_CUES_NOTE : null,
  };
};
