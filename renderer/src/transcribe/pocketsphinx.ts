/**
 * The offline backend: Debian's `pocketsphinx_continuous` (packages `pocketsphinx`, `pocketsphinx-en-us`),
 * English only. `-time yes` prints one line per recognised token, `word start end confidence`; fillers
 * (`<s>`, `</s>`, `<sil>`, `[NOISE]`, `++...++`) are dropped and alternate pronunciations (`when(4)`) lose
 * their suffix. `-remove_noise no`: its spectral noise removal ate most words of clean synthetic speech
 * (fixture: "well when you" with it, "welcome to ... every word you hear ..." without).
 */
import { availableParallelism } from "node:os";
import { run, ProcessError } from "../lib/process.ts";
import type { Identity } from "../lib/run-as.ts";
import {
  normaliseWords,
  TranscriptionFailed,
  type Transcriber,
  type TranscribeOptions,
  type Transcript,
  type TranscriptWord,
} from "./types.ts";

/** Parses `pocketsphinx_continuous -time yes` output into words (pure). */
export const parsePocketsphinx = (stdout: string): TranscriptWord[] => {
  const words: TranscriptWord[] = [];
  for (const line of stdout.split("\n")) {
    const match = /^(\S+)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)\s*$/.exec(line.trim());
    if (!match) continue;
    const token = match[1]!;
    if (/^(<.*>|\[.*\]|\+\+.*\+\+)$/.test(token)) continue;
    words.push({ text: token.replace(/\(\d+\)$/, ""), start: Number(match[2]), end: Number(match[3]) });
  }
  return words;
};

/** One recogniser run over one WAV file: its words, times from the file's start. */
const recognise = async (
  binary: string,
  wavPath: string,
  signal: AbortSignal | undefined,
  user: Identity | null,
): Promise<TranscriptWord[]> => {
  try {
    const result = await run(
      binary,
      ["-infile", wavPath, "-time", "yes", "-remove_noise", "no", "-logfn", "/dev/null"],
      { timeoutMs: 20 * 60_000, signal, user },
    );
    return parsePocketsphinx(result.stdout.toString("utf8"));
  } catch (error) {
    if (error instanceof ProcessError && error.failure === "aborted") throw error;
    const why = error instanceof ProcessError && error.failure === "spawn-failed" ? " (not installed)" : "";
    throw new TranscriptionFailed(`transcription failed: the offline speech recogniser did not run${why}`);
  }
};

/**
 * Runs pocketsphinx at `binary` (default `pocketsphinx_continuous` on PATH), as `user` (a job's tool user) when
 * given: one recogniser run per file. The recogniser uses one core, so a render hands it as many parts of the mix at
 * once as the machine has cores (`concurrency`; the parts are cut by captions/parts.ts, the same on every machine).
 */
export const pocketsphinxTranscriber = (
  binary = "pocketsphinx_continuous",
  user: Identity | null = null,
): Transcriber => {
  return {
    backend: "pocketsphinx",
    concurrency: availableParallelism(),
    async transcribe(wavPath: string, options: TranscribeOptions = {}): Promise<Transcript> {
      if (options.language !== undefined && !/^en\b/i.test(options.language))
        throw new TranscriptionFailed(
          `the offline transcriber only knows English; language "${options.language}" needs the Workers AI backend`,
        );
      const words = await recognise(binary, wavPath, options.signal, user);
      return {
        backend: "pocketsphinx",
        language: "en",
        words: normaliseWords(words, Number.POSITIVE_INFINITY),
      };
    },
  };
};
