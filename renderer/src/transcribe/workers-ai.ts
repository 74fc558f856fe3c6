/**
 * The production backend: Workers AI Whisper (`@cf/openai/whisper-large-v3-turbo`: multilingual, detects the
 * language, word timestamps). The model runs behind the Worker's AI binding, so the renderer POSTs the mix to the
 * Worker's transcription route (TRANSCRIBE_PATH), signed with the renderer secret over the job id and the body's
 * SHA-256, and reads back the words.
 */
import { readFile } from "node:fs/promises";
import * as v from "valibot";
import { sha256Hex } from "@media-render/contract/crypto";
import { signCallback, TRANSCRIBE_JOB_HEADER, transcribeSigningText } from "@media-render/contract/signing";
import { TranscriptAnswer } from "@media-render/contract/wire";
import {
  normaliseWords,
  TranscriptionFailed,
  type Transcriber,
  type TranscribeOptions,
  type Transcript,
} from "./types.ts";

const Envelope = v.object({
  data: v.optional(TranscriptAnswer),
  error: v.optional(v.pipe(v.string(), v.maxLength(300))),
});

/** Requests in flight at once for one render: its parts of the mix, one request each. */
const PARTS_AT_ONCE = 4;

/** Transcribes through the Worker at `url` for `jobId`. */
export const workersAiTranscriber = (url: string, jobId: string, secret: string): Transcriber => {
  return {
    backend: "workers-ai",
    concurrency: PARTS_AT_ONCE,
    async transcribe(wavPath: string, options: TranscribeOptions = {}): Promise<Transcript> {
      const body = new Uint8Array(await readFile(wavPath));
      const signed = await signCallback(secret, transcribeSigningText(jobId, await sha256Hex(body)));
      const target = new URL(url);
      if (options.language) target.searchParams.set("language", options.language);
      let res: Response;
      try {
        res = await fetch(target, {
          method: "POST",
          headers: { ...signed, "content-type": "audio/wav", [TRANSCRIBE_JOB_HEADER]: jobId },
          body,
          signal: options.signal,
        });
      } catch {
        throw new TranscriptionFailed("transcription failed: the speech service could not be reached");
      }
      // The Worker's envelope: `{ success: true, data }` or `{ success: false, error }`.
      const parsed = v.safeParse(Envelope, await res.json().catch(() => null));
      if (!res.ok || !parsed.success || !parsed.output.data) {
        const why =
          parsed.success && parsed.output.error ? `: ${parsed.output.error}` : ` (HTTP ${res.status})`;
        throw new TranscriptionFailed(`transcription failed: the speech service refused the audio${why}`);
      }
      return {
        backend: "workers-ai",
        language: parsed.output.data.language,
        words: normaliseWords(parsed.output.data.words, Number.POSITIVE_INFINITY),
      };
    },
  };
};
