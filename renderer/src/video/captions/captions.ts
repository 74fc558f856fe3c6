/**
 * autoSubtitles in a render: the mix is transcribed once (audio-pass.ts + a Transcriber), the words are laid
 * out as cues (layout.ts) and the cues join the spec as global title layers (caption-layers.ts), which the
 * ordinary rasteriser and graph compiler then draw in the same ffmpeg pass as everything else.
 */
import type { Timeline } from "@media-render/contract/timeline";
import type { Identity } from "../../lib/run-as.ts";
import {
  normaliseWords,
  type Transcriber,
  type TranscriptionBackend,
  type TranscriptWord,
} from "../../transcribe/types.ts";
import { compileGraph } from "../compile.ts";
import { undrawnGl } from "../graph-context.ts";
import { keyedLayers } from "../layers/index.ts";
import type { MediaInfo, RasterAsset, VideoSpec } from "../types.ts";
import { audioOnlyGraph, writeSpeechWav } from "./audio-pass.ts";
import { captionAnimation, captionLayer, captionLayoutOptions, revealTimes } from "./caption-layers.ts";
import { layoutCaptions, type Cue } from "./layout.ts";

/** What autoSubtitles produced: the words heard, the cues drawn, and why there are none when there are none. */
export interface Captions {
  /** The backend that ran; null when there was no audio to transcribe. */
  backend: TranscriptionBackend | null;
  language: string | null;
  words: TranscriptWord[];
  cues: Cue[];
  note: string | null;
}

export const NO_AUDIO_NOTE = "the video has no audio, so there is nothing to caption";
export const NO_SPEECH_NOTE = "no speech was recognised in the audio, so no captions were drawn";

/**
 * The graph of the spec's final audio mix as the transcriber hears it (audio-pass.ts), null without audio. Compiled
 * without rasters or drawn gl frames: text, html and gl layers add no inputs, so nothing waits on a browser.
 */
export const captionMixGraph = (
  spec: VideoSpec,
  timeline: Timeline,
  jobId: string,
  media: ReadonlyMap<string, MediaInfo>,
) => audioOnlyGraph(compileGraph({ spec, timeline, jobId, media, rasters: new Map(), glLayers: undrawnGl }));

/** Transcribes the spec's final audio mix and lays out its cues. */
export const transcribeMix = async (
  spec: VideoSpec,
  timeline: Timeline,
  media: ReadonlyMap<string, MediaInfo>,
  o: {
    jobId: string;
    workDir: string;
    ffmpegPath: string;
    transcriber: Transcriber;
    signal?: AbortSignal;
    user?: Identity | null;
  },
): Promise<Captions> => {
  const subtitles = spec.subtitles!;
  const audio = captionMixGraph(spec, timeline, o.jobId, media);
  if (!audio) return { backend: null, language: null, words: [], cues: [], note: NO_AUDIO_NOTE };
  const wav = await writeSpeechWav(audio, o.workDir, o.ffmpegPath, o.signal, o.user);
  const transcript = await o.transcriber.transcribe(wav, {
    language: subtitles.language,
    signal: o.signal,
  });
  const words = normaliseWords(transcript.words, timeline.duration);
  const cues = layoutCaptions(words, captionLayoutOptions(subtitles.style, spec));
  return {
    backend: transcript.backend,
    language: transcript.language,
    words,
    cues,
    note: words.length === 0 ? NO_SPEECH_NOTE : null,
  };
};

/** The spec with one global title layer per cue, and the layer key of each cue. */
export const withCaptionLayers = (
  spec: VideoSpec,
  cues: readonly Cue[],
): { spec: VideoSpec; keys: string[] } => {
  const style = spec.subtitles?.style ?? {};
  const next = {
    ...spec,
    globalLayers: [...spec.globalLayers, ...cues.map((c) => captionLayer(c, style, spec))],
  };
  const keyed = keyedLayers(next);
  return { spec: next, keys: keyed.slice(keyed.length - cues.length).map((k) => k.key) };
};

/** Retimes each caption's reveal states to the spoken words (the rasteriser spreads them evenly). */
export const timeReveals = (
  assets: Map<string, RasterAsset>,
  keys: readonly string[],
  cues: readonly Cue[],
  spec: VideoSpec,
): void => {
  const by = captionAnimation(spec.subtitles?.style ?? {}, spec) === "letter-by-letter" ? "letter" : "word";
  keys.forEach((key, i) => {
    const asset = assets.get(key);
    if (asset && asset.frames.length > 1) asset.times = revealTimes(cues[i]!, by, asset.frames.length);
  });
};
