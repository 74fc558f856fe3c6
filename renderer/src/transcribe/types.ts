/**
 * Speech transcription behind one interface (issue 19). Two backends produce the same `Transcript`:
 * `pocketsphinx` (Debian's offline recogniser, English only, run here) and `workers-ai` (Cloudflare Workers AI
 * Whisper, multilingual, reached through the Worker's signed transcription route). Renders never know which ran
 * except through `Transcript.backend`, which the job records.
 */

import type { TRANSCRIPTION_BACKENDS } from "@media-render/contract/wire";

/** The backends (the contract's list); the job records the one that ran. */
export type TranscriptionBackend = (typeof TRANSCRIPTION_BACKENDS)[number];

/** One recognised word, seconds from the start of the audio (start < end, in order). */
export interface TranscriptWord {
  text: string;
  start: number;
  end: number;
}

export interface Transcript {
  backend: TranscriptionBackend;
  /** BCP 47 language the backend heard or was told (`en` for pocketsphinx), null when unknown. */
  language: string | null;
  words: TranscriptWord[];
}

export interface TranscribeOptions {
  /** A language hint (ISO 639-1), when the config names one. */
  language?: string;
  signal?: AbortSignal;
}

/** A speech-to-text backend: reads a 16 kHz mono 16-bit PCM WAV file and returns its words with times. */
export interface Transcriber {
  readonly backend: TranscriptionBackend;
  /** How many files (parts of one mix) it transcribes at once; default 1. */
  readonly concurrency?: number;
  transcribe(wavPath: string, options?: TranscribeOptions): Promise<Transcript>;
}

/** A failed transcription: the job fails with this message (user-facing, no host paths) and is not charged. */
export class TranscriptionFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TranscriptionFailed";
  }
}

/**
 * Words cleaned for display: empty ones dropped, times clamped into [0, duration] and made monotonic
 * (a backend's rounding can make a word start before the previous one ends).
 */
export const normaliseWords = (words: readonly TranscriptWord[], duration: number): TranscriptWord[] => {
  const out: TranscriptWord[] = [];
  let last = 0;
  for (const w of words) {
    const text = w.text.trim();
    if (!text || !Number.isFinite(w.start) || !Number.isFinite(w.end)) continue;
    const start = Math.min(Math.max(w.start, last), duration);
    const end = Math.min(Math.max(w.end, start), duration);
    if (end <= start && start >= duration) continue;
    out.push({ text, start, end });
    last = end;
  }
  return out;
};

/**
 * ffmpeg audio filter that turns any mix into what the recognisers read: 16 kHz mono 16-bit PCM, with the
 * rumble below 100 Hz removed (pocketsphinx recognised the fixture's first words only after it).
 */
export const SPEECH_AUDIO_FILTER =
  "highpass=f=100,aresample=16000,aformat=sample_fmts=s16:channel_layouts=mono";
