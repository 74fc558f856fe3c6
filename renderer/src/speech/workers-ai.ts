/**
 * The production voice: Workers AI MeloTTS behind the Worker's AI binding (SPEAK_PATH), the mirror of
 * `../transcribe/workers-ai.ts`. The renderer POSTs the text signed with the renderer secret over the job id and
 * the body's SHA-256; the Worker answers the speech as MP3 and its words timed by Whisper over the speech alone.
 * The MP3 becomes the WAV the render mixes (at `rate`, by ffmpeg's atempo, the word times scaled to match).
 */
import { readFile, writeFile } from "node:fs/promises";
import * as v from "valibot";
import { sha256Hex } from "@media-render/contract/crypto";
import { signCallback, speakSigningText, TRANSCRIBE_JOB_HEADER } from "@media-render/contract/signing";
import { SpeakAnswer } from "@media-render/contract/wire";
import { run } from "../lib/process.ts";
import type { Identity } from "../lib/run-as.ts";
import { normaliseWords } from "../transcribe/types.ts";
import { readWav } from "./pcm.ts";
import { SpeechFailed, type Speech, type SpeechRequest, type Synthesizer } from "./types.ts";

const Envelope = v.object({
  data: v.optional(SpeakAnswer),
  error: v.optional(v.pipe(v.string(), v.maxLength(300))),
});

/**
 * Says text through the Worker at `url` for `jobId`; `ffmpegPath` turns the MP3 into the WAV, as `user` (the job's
 * tool user) when given.
 */
export const workersAiSynthesizer = (
  url: string,
  jobId: string,
  secret: string,
  ffmpegPath: string,
  user: Identity | null = null,
): Synthesizer => ({
  backend: "workers-ai",
  async synthesize(request: SpeechRequest, outPath: string, signal?: AbortSignal): Promise<Speech> {
    const body = JSON.stringify({ text: request.text, language: request.language });
    const signed = await signCallback(secret, speakSigningText(jobId, await sha256Hex(body)));
    let res: Response;
    try {
      res = await fetch(url, {
        method: "POST",
        headers: { ...signed, "content-type": "application/json", [TRANSCRIBE_JOB_HEADER]: jobId },
        body,
        signal,
      });
    } catch {
      throw new SpeechFailed("speech: the speech service could not be reached");
    }
    const parsed = v.safeParse(Envelope, await res.json().catch(() => null));
    if (!res.ok || !parsed.success || !parsed.output.data) {
      const why =
        parsed.success && parsed.output.error ? `: ${parsed.output.error}` : ` (HTTP ${res.status})`;
      throw new SpeechFailed(`speech: the speech service refused the text${why}`);
    }
    const rate = request.rate ?? 1;
    const mp3 = `${outPath}.mp3`;
    await writeFile(mp3, Buffer.from(parsed.output.data.audio, "base64"));
    await run(
      ffmpegPath,
      [
        ...["-hide_banner", "-nostdin", "-v", "error"],
        ...["-f", "mp3", "-protocol_whitelist", "file", "-i", mp3],
        ...[
          "-af",
          `atempo=${rate}`,
          "-ac",
          "1",
          "-ar",
          "22050",
          "-c:a",
          "pcm_s16le",
          "-f",
          "wav",
          "-y",
          outPath,
        ],
      ],
      { signal, user, timeoutMs: 60_000 },
    );
    const { samples, sampleRate } = readWav(new Uint8Array(await readFile(outPath)));
    const duration = samples.length / sampleRate;
    const words = parsed.output.data.words.map((w) => ({ ...w, start: w.start / rate, end: w.end / rate }));
    return { path: outPath, duration, words: normaliseWords(words, duration) };
  },
});
