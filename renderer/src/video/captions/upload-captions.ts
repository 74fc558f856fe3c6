/**
 * What a render of an autoSubtitles job stores besides its video: the transcript, WebVTT and SRT files at the
 * request's caption URLs (a single render's, a join's), and a chunk's words file at `output.words` (words-file.ts),
 * which the join reads back.
 */
import type { RenderVideoRequest } from "@media-render/contract/wire";
import { uploadText } from "../delivery.ts";
import { toSrt, toTranscriptJson, toWebVtt } from "./caption-files.ts";
import type { Captions } from "./captions.ts";
import { wordsFileText, type WordsFile } from "./words-file.ts";

/** A chunk's words file when its render transcribed nothing (captions from the job's speech: the join makes them). */
const NO_WORDS: WordsFile = { backend: null, parts: [] };

/** Stores the caption files and a chunk's words file the request asks for. */
export const uploadCaptionOutputs = async (
  job: Pick<RenderVideoRequest, "output">,
  rendered: { captions: Captions | null; words?: WordsFile },
  signal?: AbortSignal,
): Promise<void> => {
  const urls = job.output.captions;
  const { captions } = rendered;
  if (urls && captions)
    await Promise.all([
      uploadText(urls.transcript, toTranscriptJson(captions), "json", signal),
      uploadText(urls.vtt, toWebVtt(captions), "vtt", signal),
      uploadText(urls.srt, toSrt(captions), "srt", signal),
    ]);
  if (job.output.words)
    await uploadText(job.output.words, wordsFileText(rendered.words ?? NO_WORDS), "json", signal);
};
