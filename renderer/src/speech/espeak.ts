/**
 * The offline voice: Debian's espeak-ng, used locally and in tests. Its command line reports no word events,
 * so each word is synthesised on its own (text on stdin, never parsed as options or markup), its silence
 * trimmed, and the words joined with pauses that follow the punctuation: every word's start and end is then a
 * sample position the voice itself wrote, exact rather than estimated. The cost is one short process a word
 * (about 50 ms each on the shared 2-core machine, four at a time) and a word-by-word delivery.
 */
import { writeFile } from "node:fs/promises";
import { ProcessError, run } from "../lib/process.ts";
import type { Identity } from "../lib/run-as.ts";
import type { TranscriptWord } from "../transcribe/types.ts";
import { readWav, voicedRange, wavBytes, type Pcm } from "./pcm.ts";
import { SpeechFailed, type Speech, type SpeechRequest, type Synthesizer } from "./types.ts";

/** espeak-ng's normal pace in words a minute (its `-s` default). */
const NORMAL_WPM = 175;
/** Seconds of silence, at rate 1, before the first word, between words, after a clause and after a sentence. */
const PAUSES = { lead: 0.05, word: 0.07, clause: 0.25, sentence: 0.45 };
const PARALLEL = 4;

/** The espeak-ng voice for a request: `voice`, else the language (`en-GB` → `en-gb`), else `en`. */
export const espeakVoice = (r: SpeechRequest): string => r.voice ?? (r.language ?? "en").toLowerCase();

/** The pause after `word` in seconds at rate 1: a sentence end, a clause end, or between words. */
export const pauseAfter = (word: string): number =>
  /[.!?…。！？]["')\]]*$/.test(word)
    ? PAUSES.sentence
    : /[,;:，、；：—–]["')\]]*$/.test(word)
      ? PAUSES.clause
      : PAUSES.word;

/** Runs `work` over `items`, at most `limit` at a time, keeping their order. */
const mapLimit = async <T, R>(
  items: readonly T[],
  limit: number,
  work: (t: T) => Promise<R>,
): Promise<R[]> => {
  const out: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
};

/** Joins separately spoken words into one utterance (pure): the samples and each word's times. */
export const joinWords = (
  tokens: readonly string[],
  clips: readonly Pcm[],
  rate: number,
): { samples: Int16Array; sampleRate: number; words: TranscriptWord[] } => {
  const sampleRate = clips[0]?.sampleRate ?? 22050;
  const gap = (s: number) => Math.round((s / rate) * sampleRate);
  const parts: Int16Array[] = [new Int16Array(gap(PAUSES.lead))];
  const words: TranscriptWord[] = [];
  let at = parts[0]!.length;
  tokens.forEach((token, i) => {
    const clip = clips[i]!;
    const range = voicedRange(clip.samples);
    if (!range) {
      // Said as nothing (a dash, a symbol): its text joins the word before it.
      const last = words.at(-1);
      if (last) last.text = `${last.text} ${token}`;
      return;
    }
    const voiced = clip.samples.subarray(range[0], range[1]);
    words.push({ text: token, start: at / sampleRate, end: (at + voiced.length) / sampleRate });
    const pause = new Int16Array(gap(pauseAfter(token)));
    parts.push(voiced, pause);
    at += voiced.length + pause.length;
  });
  const samples = new Int16Array(at);
  let offset = 0;
  for (const part of parts) {
    samples.set(part, offset);
    offset += part.length;
  }
  return { samples, sampleRate, words };
};

/** The espeak-ng backend at `espeakPath`, run as `user` (a job's tool user) when given. */
export const espeakSynthesizer = (espeakPath: string, user: Identity | null = null): Synthesizer => ({
  backend: "espeak-ng",
  async synthesize(request: SpeechRequest, outPath: string, signal?: AbortSignal): Promise<Speech> {
    const rate = request.rate ?? 1;
    const voice = espeakVoice(request);
    const tokens = request.text.split(/\s+/).filter(Boolean);
    const args = ["-v", voice, "-s", String(Math.round(NORMAL_WPM * rate)), "-z", "--stdin", "--stdout"];
    const clips = await mapLimit(tokens, PARALLEL, async (token) => {
      try {
        const { stdout } = await run(espeakPath, args, { stdin: token, signal, user, timeoutMs: 30_000 });
        return readWav(stdout);
      } catch (e) {
        if (e instanceof ProcessError && e.failure === "exited")
          throw new SpeechFailed(
            `speech: the offline voice has no voice "${voice}" (set by the entry's voice, or its language): use an espeak-ng voice such as en-us, or a language such as en or de`,
          );
        if (e instanceof ProcessError) throw e;
        throw new SpeechFailed("speech: the offline voice wrote no audio");
      }
    });
    const { samples, sampleRate, words } = joinWords(tokens, clips, rate);
    await writeFile(outPath, wavBytes(samples, sampleRate));
    return { path: outPath, duration: samples.length / sampleRate, words };
  },
});
