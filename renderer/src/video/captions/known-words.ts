/**
 * Captions whose words are already known, so nothing is transcribed: the words a `speech` layer's voice said
 * (their times are where the voice put them), laid out into cues exactly like transcribed words.
 */
import type { TranscriptWord } from "../../transcribe/types.ts";
import type { VideoSpec } from "../types.ts";
import { captionLayoutOptions } from "./caption-layers.ts";
import { NO_SPEECH_NOTE, type Captions } from "./captions.ts";
import { layoutCaptions } from "./layout.ts";

/** Captions of `words` (seconds of the output, in order, within `duration`); `backend` null: none ran. */
export const captionsFromWords = (
  words: readonly TranscriptWord[],
  spec: VideoSpec,
  duration: number,
  language: string | null,
): Captions => {
  const inside = words
    .filter((w) => w.start < duration)
    .map((w) => ({ ...w, end: Math.min(w.end, duration) }));
  return {
    backend: null,
    language,
    words: inside,
    cues: layoutCaptions(inside, captionLayoutOptions(spec.subtitles?.style ?? {}, spec)),
    note: inside.length === 0 ? NO_SPEECH_NOTE : null,
  };
};
