/**
 * autoSubtitles in parts (the contract's caption-parts.ts, docs/auto-subtitles.md): the speech WAV of the mix is cut
 * at its quietest moment near every grid point, each part is recognised on its own (as many at once as the
 * transcriber takes) and its words stay inside it. The cuts depend only on the mix's samples, which every render of a
 * job makes alike, so a chunk that transcribes only the parts its frames reach finds the parts the single render
 * finds and hears the same words in them; each part belongs to the one chunk its first frame is in, whose words file
 * brings it to the join (words-file.ts).
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { CAPTION_CUT_SEARCH_SECONDS, captionGrid, captionSpan } from "@media-render/contract/caption-parts";
import { Defect } from "@media-render/contract/faults";
import type { FrameRange, FrameWindow } from "@media-render/contract/windows";
import { normaliseWords, type Transcriber, type TranscriptWord } from "../../transcribe/types.ts";
import type { WavFile } from "../../transcribe/wav-chunks.ts";

/** One part of the mix and what was heard in it: seconds of the output, its words' times too. */
export interface PartWords {
  index: number;
  start: number;
  end: number;
  language: string | null;
  words: TranscriptWord[];
}

/** A part of the speech WAV: its samples `from` to `to - 1`, and its span in seconds of the output. */
export interface MixPart {
  index: number;
  from: number;
  to: number;
  start: number;
  end: number;
}

/**
 * What of the mix a render of `range` (its composed frames; absent: all of them) must make to find its parts: the grid
 * points up to the first whose cut is certainly past its caption span, and the mix's seconds that reach that cut's
 * whole search (undefined: the whole mix). A chunk makes the mix up to there, not its end.
 */
export const mixNeeded = (
  duration: number,
  fps: number,
  range?: FrameRange,
): { grid: number[]; seconds?: number } => {
  const grid = captionGrid(duration);
  if (!range) return { grid };
  const span = captionSpan(range, fps);
  const last = grid.findIndex((g) => g - CAPTION_CUT_SEARCH_SECONDS >= span.end);
  if (last < 0) return { grid };
  // The search reads a quiet window (0.2 s) past its end; a little more for ffmpeg's rounding of -t.
  return { grid: grid.slice(0, last + 1), seconds: grid[last]! + CAPTION_CUT_SEARCH_SECONDS + 0.25 };
};

/**
 * The parts of `wav` cut near the `grid` points: with `whole`, every part (the last one ends at `duration`);
 * otherwise those that end at a cut (the mix past the last cut was not made).
 */
export const cutParts = async (
  wav: WavFile,
  grid: readonly number[],
  duration: number,
  whole: boolean,
): Promise<MixPart[]> => {
  const rate = wav.sampleRate;
  const bounds = [0];
  for (const seconds of grid)
    bounds.push(await wav.quietNear(Math.round(seconds * rate), CAPTION_CUT_SEARCH_SECONDS));
  const parts: MixPart[] = [];
  for (let index = 0; index < bounds.length; index++) {
    const last = index + 1 === bounds.length;
    if (last && !whole) break;
    const from = bounds[index]!;
    const to = last ? Math.max(from, wav.length) : bounds[index + 1]!;
    parts.push({ index, from, to, start: from / rate, end: last ? duration : to / rate });
  }
  return parts;
};

/** The parts whose cues a render of `range` draws (caption-parts.ts captionSpan); all of them without a range. */
export const partsReached = <P extends { start: number; end: number }>(
  parts: readonly P[],
  fps: number,
  range?: FrameRange,
): P[] => {
  if (!range) return [...parts];
  const span = captionSpan(range, fps);
  return parts.filter((p) => p.start < span.end && p.end > span.start);
};

/**
 * Recognises `parts` of `wav`, `transcriber.concurrency` at once, each from a WAV of its own: its words in the
 * output's time, kept inside the part.
 */
export const transcribeParts = async (
  wav: WavFile,
  parts: readonly MixPart[],
  options: { workDir: string; transcriber: Transcriber; language?: string; signal?: AbortSignal },
): Promise<PartWords[]> => {
  const heard: PartWords[] = [];
  let next = 0;
  let failed = false;
  const worker = async () => {
    // After one part fails (the render fails with it), no other part is started.
    while (next < parts.length && !failed) {
      const i = next++;
      const part = parts[i]!;
      const path = join(options.workDir, `speech.part${part.index}.wav`);
      await wav.writePart(part.from, part.to, path);
      const transcript = await options.transcriber.transcribe(path, {
        language: options.language,
        signal: options.signal,
      });
      await rm(path, { force: true });
      const shifted = transcript.words.map((w) => ({
        text: w.text,
        start: part.start + Math.max(0, w.start),
        end: part.start + Math.max(0, w.end),
      }));
      heard[i] = { ...pick(part), language: transcript.language, words: normaliseWords(shifted, part.end) };
    }
  };
  const at = Math.max(1, Math.min(parts.length, options.transcriber.concurrency ?? 1));
  await Promise.all(
    Array.from({ length: at }, () =>
      worker().catch((error: unknown) => {
        failed = true;
        throw error;
      }),
    ),
  );
  return heard;
};

const pick = (p: MixPart) => ({ index: p.index, start: p.start, end: p.end });

/**
 * The parts a chunk owns: those that start in its window (in the frame that shows their first moment), so each part
 * belongs to exactly one chunk, which transcribes it anyway (its window reaches it).
 */
export const ownedParts = (parts: readonly PartWords[], window: FrameWindow, fps: number): PartWords[] =>
  parts.filter((part) => {
    const frame = Math.floor(part.start * fps);
    return frame >= window.start && frame < window.end;
  });

/**
 * The parts of every chunk's words file as one list in order, checked to cover the timeline exactly once (a part
 * missing or twice, or ending elsewhere than the next begins, is our bug: the chunks cut the same mix).
 */
export const mergeParts = (files: readonly (readonly PartWords[])[], duration: number): PartWords[] => {
  const parts = files.flat().sort((a, b) => a.index - b.index);
  parts.forEach((part, i) => {
    const start = i === 0 ? 0 : parts[i - 1]!.end;
    if (part.index !== i || part.start !== start || part.end < part.start)
      throw new Defect(`the chunks' transcription parts do not fit together at part ${i}`);
  });
  if (parts.length === 0 || parts.at(-1)!.end !== duration)
    throw new Defect("the chunks' transcription parts do not reach the end of the video");
  return parts;
};
