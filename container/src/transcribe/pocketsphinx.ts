/**
 * The offline backend: Debian's `pocketsphinx_continuous` (packages `pocketsphinx`, `pocketsphinx-en-us`),
 * English only. `-time yes` prints one line per recognised token, `word start end confidence`; fillers
 * (`<s>`, `</s>`, `<sil>`, `[NOISE]`, `++...++`) are dropped and alternate pronunciations (`when(4)`) lose
 * their suffix. `-remove_noise no`: its spectral noise removal ate most words of clean synthetic speech
 * (fixture: "well when you" with it, "welcome to ... every word you hear ..." without).
 */
import { run, ProcessError } from "../lib/process.ts";
import {
  normaliseWords,
  TranscriptionFailed,
  type Transcriber,
  type TranscribeOptions,
  type Transcript,
  type TranscriptWord,
} from "./types.ts";

/** Parses `pocketsphinx_continuous -time yes` output into words (pure). */
export function parsePocketsphinx(stdout: string): TranscriptWord[] {
  const words: TranscriptWord[] = [];
  for (const line of stdout.split("\n")) {
    const m = /^(\S+)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)\s*$/.exec(line.trim());
    if (!m) continue;
    const token = m[1]!;
    if (/^(<.*>|\[.*\]|\+\+.*\+\+)$/.test(token)) continue;
    words.push({ text: token.replace(/\(\d+\)$/, ""), start: Number(m[2]), end: Number(m[3]) });
  }
  return words;
}

/** Runs pocketsphinx at `binary` (default `pocketsphinx_continuous` on PATH). */
export function pocketsphinxTranscriber(binary = "pocketsphinx_continuous"): Transcriber {
  return {
    backend: "pocketsphinx",
    async transcribe(wavPath: string, options: TranscribeOptions = {}): Promise<Transcript> {
      if (options.language !== undefined && !/^en\b/i.test(options.language))
        throw new TranscriptionFailed(
          `the offline transcriber only knows English; language "${options.language}" needs the Workers AI backend`,
        );
      let stdout: string;
      try {
        const result = await run(
          binary,
          ["-infile", wavPath, "-time", "yes", "-remove_noise", "no", "-logfn", "/dev/null"],
          { timeoutMs: 20 * 60_000, signal: options.signal },
        );
        stdout = result.stdout.toString("utf8");
      } catch (error) {
        if (error instanceof ProcessError && error.failure === "aborted") throw error;
        const why =
          error instanceof ProcessError && error.failure === "spawn-failed" ? " (not installed)" : "";
        throw new TranscriptionFailed(
          `transcription failed: the offline speech recogniser did not run${why}`,
        );
      }
      return {
        backend: "pocketsphinx",
        language: "en",
        words: normaliseWords(parsePocketsphinx(stdout), Number.POSITIVE_INFINITY),
      };
    },
  };
}
