/**
 * Workers AI transcription for the renderer (autoSubtitles' production backend): the renderer posts a job's
 * audio mix (16 kHz mono WAV) signed over the job id and the audio's SHA-256; the Worker runs Whisper through
 * its AI binding and answers the words with their times. Only a job being rendered may transcribe.
 */
import type { Ctx } from "../context.ts";
import type { TranscriptAnswer } from "@media-render/contract/wire";
import { getJobById } from "../jobs/lookup.ts";
import { InvalidState, UpstreamFailure } from "../lib/errors.ts";

/** The Workers AI model: multilingual, detects the language, word timestamps per segment. */
export const WHISPER_MODEL = "@cf/openai/whisper-large-v3-turbo";

/** What the model answers, as far as captions read it (workers-types' Ai_Cf_Openai_Whisper_Large_V3_Turbo_Output). */
export interface WhisperOutput {
  transcription_info?: { language?: string };
  segments?: { words?: { word?: string; start?: number; end?: number }[] }[];
}

/** Whisper's segments flattened into timed words (pure). */
export const whisperWords = (out: WhisperOutput): TranscriptAnswer => ({
  language: out.transcription_info?.language ?? null,
  words: (out.segments ?? []).flatMap((segment) =>
    (segment.words ?? []).flatMap((w) =>
      typeof w.word === "string" && w.word.trim() && typeof w.start === "number" && typeof w.end === "number"
        ? [{ text: w.word.trim(), start: w.start, end: w.end }]
        : [],
    ),
  ),
});

/** Bytes to base64 without building one huge argument list. */
const base64Of = (bytes: Uint8Array): string => {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
};

/** Transcribes `audio` for job `jobId` (which must be PROCESSING) with the AI binding. */
export const transcribeForJob = async (
  ctx: Ctx,
  input: { jobId: string; audio: Uint8Array; language?: string },
): Promise<TranscriptAnswer> => {
  const job = await getJobById(ctx, input.jobId);
  if (job.status !== "PROCESSING" && job.status !== "PENDING")
    throw new InvalidState(`Job ${job.id} is ${job.status.toLowerCase()}; only a running job may transcribe`);
  const ai = ctx.env.AI;
  if (!ai) throw new UpstreamFailure("Workers AI is not configured here (no AI binding)");
  let out: WhisperOutput;
  try {
    out = (await ai.run(WHISPER_MODEL, {
      audio: base64Of(input.audio),
      ...(input.language ? { language: input.language } : {}),
    })) as WhisperOutput;
  } catch {
    throw new UpstreamFailure("Workers AI could not transcribe the audio");
  }
  return whisperWords(out);
};
