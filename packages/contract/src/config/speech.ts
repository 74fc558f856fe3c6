/**
 * Text to speech (issue 33): a `speech` layer in a clip, or a `speech` entry of `audioTracks`. The renderer
 * synthesises the text (Workers AI in production, Debian's espeak-ng offline) into an audio file that is then
 * mixed like a `detached-audio` layer or an audio track; its word timings become the captions when
 * `autoSubtitles` is on (no transcription).
 */
import * as v from "valibot";
import { numberIn, PositiveSeconds, Seconds, strict, text, Volume } from "./common.ts";
import {
  SPEECH_MAX_JOB_CHARACTERS,
  SPEECH_MAX_RATE,
  SPEECH_MAX_TEXT_LENGTH,
  SPEECH_MIN_RATE,
} from "./limits.ts";
import { SPEECH_CHARACTERS_PER_TOKEN, TOKENS_SPEECH_PER_TEXT_PART } from "./prices.ts";
import type { RuleIssue } from "./rules.ts";

const optional = v.optional;

/** The fields a speech layer and a speech track share. */
export const speechEntries = {
  text: v.pipe(
    text(SPEECH_MAX_TEXT_LENGTH),
    v.regex(/\S/, "must contain something to say"),
    v.description(
      `What is said (at most ${SPEECH_MAX_TEXT_LENGTH} characters; all the speech of a job together at most ` +
        `${SPEECH_MAX_JOB_CHARACTERS}). Costs ${TOKENS_SPEECH_PER_TEXT_PART} token per started ` +
        `${SPEECH_CHARACTERS_PER_TOKEN} characters.`,
    ),
  ),
  voice: optional(
    v.pipe(
      v.string(),
      v.regex(
        /^[A-Za-z0-9][A-Za-z0-9+_-]{0,39}$/,
        "must be a voice name: letters, digits, +, _ and -, at most 40 characters",
      ),
      v.description(
        "The voice: an espeak-ng voice such as `en-us` or `en+f3` for the offline voice; production's Workers AI voice is chosen by `language`. Default: the language's voice.",
      ),
    ),
  ),
  language: optional(
    v.pipe(
      v.string(),
      v.regex(/^[a-z]{2}(?:-[A-Za-z]{2})?$/, "must be a language code such as en, de or en-GB"),
      v.description("The spoken language (ISO 639-1, optionally with a region). Default `en`."),
    ),
  ),
  rate: optional(
    v.pipe(
      numberIn(SPEECH_MIN_RATE, SPEECH_MAX_RATE),
      v.description(
        `Speed as a multiple of the voice's normal pace (${SPEECH_MIN_RATE}-${SPEECH_MAX_RATE}, default 1).`,
      ),
    ),
  ),
  mixVolume: optional(Volume),
};

/** A clip's speech layer: said from `start` seconds after its clip starts; it may run past the clip. */
export const speechLayerEntries = {
  type: v.literal("speech"),
  ...speechEntries,
  start: optional(Seconds),
  stop: optional(
    v.pipe(PositiveSeconds, v.description("Seconds after the clip starts where the speech is cut off.")),
  ),
};

/** A speech entry of `audioTracks`: said from `start` seconds into the output. */
export const SpeechTrackSchema = strict("speech track", {
  type: v.literal("speech"),
  ...speechEntries,
  start: optional(
    v.pipe(Seconds, v.description("Seconds into the output where the speech starts (default 0).")),
  ),
});

export type SpeechTrack = v.InferOutput<typeof SpeechTrackSchema>;

/** The parts of a video config that say something: its clips' layers and its audio tracks. */
export interface SpeechSource {
  clips: readonly { layers: readonly { type: string }[] }[];
  audioTracks?: readonly object[];
}

type Said = { path: (string | number)[]; text: string };

/** Every text a config says, where it is: the clips' speech layers in order, then the speech tracks. */
export const speechTexts = (config: SpeechSource): Said[] => {
  const out: Said[] = [];
  const take = (item: object, path: (string | number)[]) => {
    const { type, text } = item as { type?: unknown; text?: unknown };
    if (type === "speech" && typeof text === "string") out.push({ path: [...path, "text"], text });
  };
  config.clips.forEach((clip, c) => clip.layers.forEach((l, i) => take(l, ["clips", c, "layers", i])));
  config.audioTracks?.forEach((t, i) => take(t, ["audioTracks", i]));
  return out;
};

/** Tokens of a config's speech: TOKENS_SPEECH_PER_TEXT_PART per started SPEECH_CHARACTERS_PER_TOKEN of each text. */
export const speechTokens = (config: SpeechSource): number =>
  speechTexts(config).reduce(
    (sum, { text }) =>
      sum + TOKENS_SPEECH_PER_TEXT_PART * Math.ceil(text.length / SPEECH_CHARACTERS_PER_TOKEN),
    0,
  );

/** The job's cap on speech: the text that takes the total past SPEECH_MAX_JOB_CHARACTERS is refused, with the total. */
export const speechIssues = (config: SpeechSource): RuleIssue[] => {
  const said = speechTexts(config);
  const total = said.reduce((sum, { text }) => sum + text.length, 0);
  if (total <= SPEECH_MAX_JOB_CHARACTERS) return [];
  let running = 0;
  const over = said.find(({ text }) => (running += text.length) > SPEECH_MAX_JOB_CHARACTERS)!;
  return [
    {
      path: over.path,
      message:
        `the job's speech would say ${total} characters (its ${said.length} speech layers and tracks together); ` +
        `at most ${SPEECH_MAX_JOB_CHARACTERS} are allowed per job`,
    },
  ];
};
