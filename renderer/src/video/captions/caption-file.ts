/**
 * Captions from an uploaded SubRip or WebVTT file (`captionsFile`): held to its limits, parsed on a worker thread
 * (caption-parse.ts: `media-captions`, non-strict), and each cue drawn at its own times with autoSubtitlesStyle. A
 * cue keeps the file's line breaks; a line wider than the caption box is wrapped like transcribed captions. Words get
 * times spread over the cue by their length, so a word-by-word style still has something to follow.
 */
import { open } from "node:fs/promises";
import { CAPTIONS_FILE_MAX_BYTES, CAPTIONS_FILE_MAX_CUES } from "@media-render/contract/config/limits";
import { countCueTimings } from "@media-render/contract/media/caption-cues";
import { runWorkerTask } from "../../lib/worker-task.ts";
import type { TranscriptWord } from "../../transcribe/types.ts";
import type { VideoSpec } from "../types.ts";
import { captionLayoutOptions } from "./caption-layers.ts";
import type { ParsedCue } from "./caption-parse.ts";
import type { Captions } from "./captions.ts";
import { wrapWords, type Cue } from "./layout.ts";

export const NO_CUES_NOTE = "the captions file has no cues within the video, so no captions were drawn";

/**
 * How long parsing one captions file may take on its worker thread, start-up included, and the heap it may use:
 * a file at the limits (1 MiB, 2,000 cues) takes ~0.1 s and a few MB; the rest is room for a loaded machine.
 */
const PARSE_SECONDS = 10;
const PARSE_HEAP_MB = 64;

/**
 * The cues of the captions file at `path`, in file order. Its size and its cue count (timing lines) are held to the
 * contract's limits before it is parsed (the upload refused such a file already; this is the renderer's own check),
 * and the parse runs on a worker thread under a time limit and a heap ceiling: the renderer's event loop, which sends
 * every held job's heartbeat, is never the one parsing.
 */
export const readCaptionsFile = async (path: string, signal?: AbortSignal): Promise<ParsedCue[]> => {
  const file = await open(path, "r");
  let bytes: Buffer;
  try {
    const { size } = await file.stat();
    if (size > CAPTIONS_FILE_MAX_BYTES)
      throw new Error(
        `captionsFile: the file is ${size} bytes; a captions file may be at most ${CAPTIONS_FILE_MAX_BYTES} bytes (1 MiB)`,
      );
    bytes = await file.readFile();
  } finally {
    await file.close();
  }
  const cues = countCueTimings(bytes);
  if (cues > CAPTIONS_FILE_MAX_CUES)
    throw new Error(
      `captionsFile: the file has ${cues} cues; a captions file may have at most ${CAPTIONS_FILE_MAX_CUES}`,
    );
  return runWorkerTask<ParsedCue[]>(
    new URL("./caption-parse-worker.ts", import.meta.url),
    bytes.toString("utf8"),
    { what: "captionsFile: reading the file", timeMs: PARSE_SECONDS * 1000, heapMb: PARSE_HEAP_MB, signal },
  );
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
  signal?: AbortSignal,
): Promise<Captions> => {
  const parsed = (await readCaptionsFile(path, signal)).filter((c) => c.start < duration);
  const options = captionLayoutOptions(spec.subtitles?.style ?? {}, spec);
  const cues = parsed.map((cue): Cue => {
    const end = Math.min(cue.end, duration);
    const total = cue.lines.reduce((n, l) => n + [...l].length + 1, 0);
    let offset = 0;
    const lines = cue.lines.flatMap((line) => {
      const words = timedWords(line.split(/\s+/), cue.start, end, offset, total);
      offset += [...line].length + 1;
      return wrapWords(words, options);
    });
    return { start: cue.start, end, lines };
  });
  return {
    backend: null,
    language: spec.subtitles?.language ?? null,
    words: cues.flatMap((c) => c.lines.flat()),
    cues,
    note: cues.length === 0 ? NO_CUES_NOTE : null,
  };
};
