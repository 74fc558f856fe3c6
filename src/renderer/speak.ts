/**
 * Workers AI speech for the renderer (the production voice of `speech` layers, issue 33): the renderer posts a
 * layer's text signed over the job id and the body's SHA-256; the Worker has MeloTTS say it through its AI binding
 * and, since MeloTTS gives no word times, has Whisper hear the speech alone to time its words. Only a job being
 * rendered may speak.
 */
import type { Ctx } from "../context.ts";
import type { SpeakAnswer, SpeakRequest } from "@media-render/contract/wire";
import { getJobById } from "../jobs/lookup.ts";
import { InvalidState, UpstreamFailure } from "../lib/errors.ts";
import { WHISPER_MODEL, whisperWords, type WhisperOutput } from "./transcribe.ts";

/** Multilingual text to speech: input `{ prompt, lang }`, output `{ audio }` (base64 MP3). */
export const SPEECH_MODEL = "@cf/myshell-ai/melotts";

/** Says `text` for job `jobId` (PENDING or PROCESSING) and times its words. */
export const speakForJob = async (
  ctx: Ctx,
  input: { jobId: string } & SpeakRequest,
): Promise<SpeakAnswer> => {
  const job = await getJobById(ctx, input.jobId);
  if (job.status !== "PROCESSING" && job.status !== "PENDING")
    throw new InvalidState(`Job ${job.id} is ${job.status.toLowerCase()}; only a running job may speak`);
  const ai = ctx.env.AI;
  if (!ai) throw new UpstreamFailure("Workers AI is not configured here (no AI binding)");
  let audio: string;
  try {
    const said = (await ai.run(SPEECH_MODEL, {
      prompt: input.text,
      lang: (input.language ?? "en").slice(0, 2),
    })) as { audio?: unknown };
    if (typeof said.audio !== "string" || said.audio.length === 0) throw new Error("no audio");
    audio = said.audio;
  } catch {
    throw new UpstreamFailure("Workers AI could not say the text");
  }
  let heard: WhisperOutput;
  try {
    heard = (await ai.run(WHISPER_MODEL, {
      audio,
      ...(input.language ? { language: input.language.slice(0, 2) } : {}),
    })) as WhisperOutput;
  } catch {
    throw new UpstreamFailure("Workers AI could not time the speech's words");
  }
  return { audio, words: whisperWords(heard).words };
};
