/**
 * What a job costs, in tokens: every price of the service in one place. The estimate reserved at creation
 * (estimate.ts, outputs.ts `frameTokens`, speech.ts `speechTokens`) and the final cost (the Worker's
 * src/jobs/cost.ts) are computed from these; docs/pricing.md publishes them.
 */

/** Token estimate (spec "Events"): image 2 + 1 per layer; video 10 + 2 per output second. */
export const TOKENS_IMAGE_BASE = 2;
export const TOKENS_IMAGE_PER_LAYER = 1;
export const TOKENS_VIDEO_BASE = 10;
export const TOKENS_VIDEO_PER_SECOND = 2;
/** autoSubtitles: on top of the video's cost, 5 + 1 per started second of output (transcription + captions). */
export const TOKENS_SUBTITLES_BASE = 5;
export const TOKENS_SUBTITLES_PER_SECOND = 1;

/** Audio-only outputs (mp3, wav, m4a): 3 + 1 per started second (no picture is composed or encoded). */
export const TOKENS_AUDIO_BASE = 3;
export const TOKENS_AUDIO_PER_SECOND = 1;

/** A poster costs 1 token; thumbnails 1 per started 10 frames, and 1 more for the sprite sheet and its WebVTT. */
export const TOKENS_POSTER = 1;
export const TOKENS_THUMBNAILS_PER_10 = 1;
export const TOKENS_SPRITE = 1;

/** A still (`still`, one frame of a video config as an image): 2 tokens, like a one-layer image. */
export const TOKENS_STILL = 2;

/**
 * Speech synthesis: 1 token per started SPEECH_CHARACTERS_PER_TOKEN characters of each speech layer's or track's
 * text (each text is one synthesis, so a text of one word costs a token too). 100 characters are about 7 s of speech:
 * the espeak-ng voice spends ~0.1-0.2 s of CPU on them, a tenth of what 7 s of 720p cost to encode (14 tokens).
 */
export const TOKENS_SPEECH_PER_TEXT_PART = 1;
export const SPEECH_CHARACTERS_PER_TOKEN = 100;
