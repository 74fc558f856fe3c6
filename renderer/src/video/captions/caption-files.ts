/**
 * The files an autoSubtitles job stores besides its video (pure): WebVTT and SRT with one cue per caption (the
 * same lines and times as burned in), and the transcript as JSON with every word's times, so players can show
 * soft captions and users can reuse the words.
 */
import type { Captions } from "./captions.ts";
import { cueText } from "./layout.ts";

/** `hh:mm:ss.mmm` (WebVTT) or `hh:mm:ss,mmm` (SRT). */
export const timestamp = (seconds: number, separator: "." | ","): string => {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  const hh = Math.floor(ms / 3_600_000);
  const mm = Math.floor(ms / 60_000) % 60;
  const ss = Math.floor(ms / 1000) % 60;
  return `${pad(hh)}:${pad(mm)}:${pad(ss)}${separator}${pad(ms % 1000, 3)}`;
};

/** Cue text safe in both formats: no blank lines (they end a cue), no `-->`, `<`/`&` escaped for WebVTT. */
const vttText = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/-->/g, "--&gt;")
    .replace(/\n\s*\n/g, "\n");

/** WebVTT (W3C): the header, a NOTE when there are no captions, then the cues. */
export const toWebVtt = (captions: Captions): string => {
  const head = captions.note ? `WEBVTT\n\nNOTE ${captions.note}\n` : "WEBVTT\n";
  const cues = captions.cues.map(
    (cue, i) =>
      `${i + 1}\n${timestamp(cue.start, ".")} --> ${timestamp(cue.end, ".")}\n${vttText(cueText(cue))}\n`,
  );
  return [head, ...cues].join("\n");
};

/** SubRip: numbered cues, comma before the milliseconds; empty when there are no captions. */
export const toSrt = (captions: Captions): string => {
  return captions.cues
    .map(
      (cue, i) =>
        `${i + 1}\n${timestamp(cue.start, ",")} --> ${timestamp(cue.end, ",")}\n${cueText(cue).replace(/\n\s*\n/g, "\n")}\n`,
    )
    .join("\n");
};

/** The transcript: backend, language, note, the full text, every word and every cue with times. */
export const toTranscriptJson = (captions: Captions): string => {
  const round = (s: number) => Math.round(s * 1000) / 1000;
  return JSON.stringify(
    {
      backend: captions.backend,
      language: captions.language,
      note: captions.note,
      text: captions.words.map((w) => w.text).join(" "),
      words: captions.words.map((w) => ({ text: w.text, start: round(w.start), end: round(w.end) })),
      cues: captions.cues.map((c) => ({ start: round(c.start), end: round(c.end), text: cueText(c) })),
    },
    null,
    2,
  );
};
