/**
 * Caption layout (pure): timed words grouped into cues of at most `maxLines` lines that fit the frame's width,
 * each on screen from its first word to shortly after its last. A pause longer than `maxGap`, a sentence end
 * or `maxDuration` closes a cue, so silence gets no caption. Words that belong together stay on one line:
 * a short function word ("the", "to", "a", ...) is kept with the word after it.
 */
import type { TranscriptWord } from "../../transcribe/types.ts";

export interface CaptionLayoutOptions {
  /** Characters that fit on one line (see `charsPerLine`). */
  maxCharsPerLine: number;
  maxLines: number;
  /** Seconds a cue may last, first word start to last word end. */
  maxDuration: number;
  /** A silence longer than this (seconds) between words closes the cue. */
  maxGap: number;
  /** Seconds a cue stays after its last word ends (never into the next cue). */
  hold: number;
  /** Words on one line at most (the style's `wordsPerLine`). */
  maxWordsPerLine?: number;
  /**
   * The drawn width in px of a line's text, measured from the caption's font files (fonts/measure.ts); with
   * `maxWidth`, lines are filled by width rather than by `maxCharsPerLine`.
   */
  measure?: (text: string) => number;
  maxWidth?: number;
  /** Characters on one line at most, spaces included (the style's `maxCharsPerLine`), besides fitting the width. */
  charLimit?: number;
}

/** One caption on screen: its lines of words, shown from `start` to `end` (seconds of the output). */
export interface Cue {
  start: number;
  end: number;
  lines: TranscriptWord[][];
}

export const DEFAULT_LAYOUT: Omit<CaptionLayoutOptions, "maxCharsPerLine"> = {
  maxLines: 2,
  maxDuration: 5,
  maxGap: 0.8,
  hold: 0.3,
};

/**
 * Characters per line for text `fontSize` px high in a box `boxWidth` px wide: an average glyph of the
 * caption fonts is about 0.6 em wide (DejaVu Sans, the default, is one of the widest).
 */
export const charsPerLine = (boxWidth: number, fontSize: number): number => {
  return Math.max(8, Math.floor(boxWidth / (fontSize * 0.6)));
};

const BINDS_TO_NEXT = new Set(
  "a an the to of in on at by for from with and or but if as my your his her its our their this that no not".split(
    " ",
  ),
);

/** Scripts written without spaces between words: each character is a place a line may break. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;

/** Words joined as drawn: a space between two words, none where both sides are CJK characters (pure). */
export const joinText = (words: readonly { text: string }[]): string =>
  words.reduce((out, w, i) => {
    if (i === 0) return w.text;
    const glued = UNSPACED.test(out.at(-1) ?? "") && UNSPACED.test([...w.text][0] ?? "");
    return `${out}${glued ? "" : " "}${w.text}`;
  }, "");

/**
 * Words of unspaced scripts split into characters (a run of other characters stays whole), each with its share
 * of the word's time, so a line of Chinese or Japanese can break between any two characters (pure).
 */
export const breakUnits = (words: readonly TranscriptWord[]): TranscriptWord[] =>
  words.flatMap((w) => {
    if (!UNSPACED.test(w.text)) return [w];
    const parts = w.text.match(
      /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef][\p{P}]*|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]+/gu,
    ) ?? [w.text];
    const total = parts.reduce((n, p) => n + [...p].length, 0);
    let at = 0;
    return parts.map((text) => {
      const start = w.start + ((w.end - w.start) * at) / total;
      at += [...text].length;
      return { text, start, end: w.start + ((w.end - w.start) * at) / total };
    });
  });

/** Whether `words` fit on one line under `options` (pure). */
const fits = (words: readonly TranscriptWord[], options: CaptionLayoutOptions): boolean => {
  if (options.maxWordsPerLine !== undefined && words.length > options.maxWordsPerLine) return false;
  if (options.charLimit !== undefined && length(words) > options.charLimit) return false;
  if (options.measure && options.maxWidth !== undefined)
    return options.measure(joinText(words)) <= options.maxWidth;
  return length(words) <= options.maxCharsPerLine;
};

/** One line's words wrapped into lines that fit (a word wider than a line gets a line of its own) (pure). */
export const wrapWords = (
  words: readonly TranscriptWord[],
  options: CaptionLayoutOptions,
): TranscriptWord[][] => {
  const lines: TranscriptWord[][] = [];
  for (const word of breakUnits(words)) {
    const line = lines.at(-1);
    if (line && fits([...line, word], options)) line.push(word);
    else lines.push([word]);
  }
  return lines;
};

const bare = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}']/gu, "");
const endsSentence = (text: string) => /[.!?…。！？]["')\]]*$/.test(text);
const length = (words: readonly TranscriptWord[]) =>
  words.reduce((n, w) => n + w.text.length, 0) + Math.max(0, words.length - 1);

/** Words split into groups that a line break must not separate (pure). */
export const wordGroups = (words: readonly TranscriptWord[], maxGap: number): TranscriptWord[][] => {
  const groups: TranscriptWord[][] = [];
  let current: TranscriptWord[] = [];
  words.forEach((word, i) => {
    current.push(word);
    const next = words[i + 1];
    const glued =
      next !== undefined &&
      BINDS_TO_NEXT.has(bare(word.text)) &&
      !endsSentence(word.text) &&
      next.start - word.end <= maxGap &&
      current.length < 3;
    if (!glued) {
      groups.push(current);
      current = [];
    }
  });
  return groups;
};

/**
 * Lays `words` (in time order) out as cues (pure); no cue is held past `until` (a transcription part's end: the next
 * part's cues are laid out on their own).
 */
export const layoutCaptions = (
  words: readonly TranscriptWord[],
  options: CaptionLayoutOptions,
  until = Number.POSITIVE_INFINITY,
): Cue[] => {
  const cues: { lines: TranscriptWord[][] }[] = [];
  let lines: TranscriptWord[][] = [];
  const close = () => {
    if (lines.length) cues.push({ lines });
    lines = [];
  };
  for (const group of wordGroups(breakUnits(words), options.maxGap)) {
    const first = lines[0]?.[0];
    const lastLine = lines.at(-1);
    const last = lastLine?.at(-1);
    if (first && last) {
      const pause = group[0]!.start - last.end > options.maxGap;
      const tooLong = group.at(-1)!.end - first.start > options.maxDuration;
      if (pause || tooLong || endsSentence(last.text)) close();
    }
    const line = lines.at(-1);
    if (line && fits([...line, ...group], options)) {
      line.push(...group);
    } else {
      if (lines.length >= options.maxLines) close();
      lines.push([...group]);
    }
  }
  close();
  return cues.map((cue, i) => {
    const start = cue.lines[0]![0]!.start;
    const lastEnd = cue.lines.at(-1)!.at(-1)!.end;
    const nextStart = cues[i + 1]?.lines[0]![0]!.start ?? until;
    return { start, end: Math.max(lastEnd, Math.min(lastEnd + options.hold, nextStart)), lines: cue.lines };
  });
};

/**
 * One cue per word (the `one-word` preset, pure): each word on screen from its start until the next word starts, or
 * `hold` seconds after it ends when the next is later (never past `until`), so exactly one word shows at a time.
 * Unspaced scripts are split into characters first (breakUnits), as lines are.
 */
export const oneWordCues = (
  words: readonly TranscriptWord[],
  hold: number,
  until = Number.POSITIVE_INFINITY,
): Cue[] => {
  const units = breakUnits(words);
  return units
    .map((w, i) => ({
      start: w.start,
      end: Math.min(w.end + hold, units[i + 1]?.start ?? until),
      lines: [[w]],
    }))
    .filter((c) => c.end > c.start);
};

/** The cue's text as drawn: words joined by spaces, lines by newlines. */
export const cueText = (cue: Cue): string => {
  return cue.lines.map(joinText).join("\n");
};
