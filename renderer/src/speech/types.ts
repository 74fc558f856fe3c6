/**
 * Text to speech behind one interface (issue 33), the mirror of `../transcribe/`: a backend turns a `speech`
 * layer's text into a WAV file and says when each word is spoken, so captions need no transcription.
 */
import type { TranscriptWord } from "../transcribe/types.ts";

/** What to say and how (a speech layer's or track's fields). */
export interface SpeechRequest {
  text: string;
  voice?: string;
  /** ISO 639-1, optionally with a region (`en`, `en-GB`). */
  language?: string;
  /** A multiple of the voice's normal pace (0.5-2). */
  rate?: number;
}

/** A synthesised utterance: the WAV written, its length, and every word with its times in the file. */
export interface Speech {
  path: string;
  duration: number;
  words: TranscriptWord[];
}

export interface Synthesizer {
  readonly backend: "espeak-ng" | "workers-ai";
  /** Writes the speech as a WAV file at `outPath`. */
  synthesize(request: SpeechRequest, outPath: string, signal?: AbortSignal): Promise<Speech>;
}

/** A failed synthesis: the job fails with this message (user-facing, no host paths) and is not charged. */
export class SpeechFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SpeechFailed";
  }
}
