/**
 * The parse of a SubRip or WebVTT text into cues (pure, but CPU-bound on what a user uploaded): run on a worker thread
 * by caption-file.ts (caption-parse-worker.ts), never on the renderer's main thread. media-captions (Vidstack's
 * parser, non-strict: a malformed cue is skipped, as players do); markup dropped, entities decoded.
 */
import * as mediaCaptions from "media-captions";

interface ParsedCues {
  cues: { startTime: number; endTime: number; text: string }[];
}
/**
 * media-captions' declaration files import each other without file extensions, which the renderer's NodeNext
 * resolution does not follow, so the one function used is typed here (its signature in 1.0.4).
 */
const parseText = (
  mediaCaptions as unknown as {
    parseText: (text: string, options: { type: "srt" | "vtt"; strict: boolean }) => Promise<ParsedCues>;
  }
).parseText;

/** One cue: its times in seconds and its lines of plain text. */
export interface ParsedCue {
  start: number;
  end: number;
  lines: string[];
}

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
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (match, e: string) => {
      if (e[0] === "#") {
        const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : match;
      }
      return ENTITIES[e.toLowerCase()] ?? match;
    });

/** The cues of a SubRip or WebVTT text (the `WEBVTT` signature decides), in file order (pure but async). */
export const parseCaptionsText = async (text: string): Promise<ParsedCue[]> => {
  const type = /^\uFEFF?WEBVTT/.test(text) ? "vtt" : "srt";
  const { cues } = await parseText(text, { type, strict: false });
  return cues
    .map((cue: ParsedCues["cues"][number]) => ({
      start: cue.startTime,
      end: cue.endTime,
      lines: plainCueText(cue.text)
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    }))
    .filter((c) => c.lines.length > 0 && c.end > c.start);
};
