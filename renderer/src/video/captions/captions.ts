/**
 * autoSubtitles in a render: the mix (audio-pass.ts) is transcribed in parts (parts.ts: cut at pauses near a fixed
 * grid, each recognised and laid out on its own, layout.ts), and the cues join the spec as global title layers
 * (caption-layers.ts), which the ordinary rasteriser and graph compiler then draw in the same ffmpeg pass as
 * everything else. A chunk of a split job transcribes only the parts its frames reach; the join merges the parts the
 * chunks heard (words-file.ts) without transcribing anything.
 */
import type { Timeline } from "@media-render/contract/timeline";
import type { FrameRange } from "@media-render/contract/windows";
import type { Identity } from "../../lib/run-as.ts";
import type { Transcriber, TranscriptionBackend, TranscriptWord } from "../../transcribe/types.ts";
import { openWav } from "../../transcribe/wav-chunks.ts";
import { compileGraph } from "../compile.ts";
import { undrawnGl } from "../graph-context.ts";
import { keyedLayers } from "../layers/index.ts";
import type { MediaInfo, RasterAsset, VideoSpec } from "../types.ts";
import { audioOnlyGraph, writeSpeechWav } from "./audio-pass.ts";
import { captionAnimation, captionLayer, captionLayoutOptions, revealTimes } from "./caption-layers.ts";
import { layoutCaptions, type Cue } from "./layout.ts";
import { drawnCues, wordTimes } from "./presets.ts";
import { cutParts, mixNeeded, partsReached, transcribeParts, type PartWords } from "./parts.ts";

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

/** Captions when the mix is silence: nothing to hear, nothing drawn. */
export const noAudioCaptions = (): Captions => ({
  backend: null,
  language: null,
  words: [],
  cues: [],
  note: NO_AUDIO_NOTE,
});

/**
 * The captions of transcribed `parts` (in order): their words, each part's cues laid out on their own (none held past
 * its part's end), and the language of the first part that has words (else the first part's). The single render's
 * parts, a chunk's or the merged parts of every chunk: the same parts give the same captions.
 */
export const captionsOfParts = (
  parts: readonly PartWords[],
  backend: TranscriptionBackend,
  spec: VideoSpec,
): Captions => {
  const options = captionLayoutOptions(spec.subtitles?.style ?? {}, spec);
  const words = parts.flatMap((p) => p.words);
  return {
    backend,
    language: (parts.find((p) => p.words.length > 0) ?? parts[0])?.language ?? null,
    words,
    cues: parts.flatMap((p) => layoutCaptions(p.words, options, p.end)),
    note: words.length === 0 ? NO_SPEECH_NOTE : null,
  };
};

/** Captions of the mix and the parts transcribed for them (a chunk's words file carries those it owns). */
export interface Transcribed {
  captions: Captions;
  parts: PartWords[];
}

/**
 * Transcribes the spec's final audio mix in parts and lays out their cues: every part, or only those the frames
 * `range` reach (a chunk's composed frames), making the mix only as far as those parts need.
 */
export const transcribeMix = async (
  spec: VideoSpec,
  timeline: Timeline,
  media: ReadonlyMap<string, MediaInfo>,
  options: {
    jobId: string;
    workDir: string;
    ffmpegPath: string;
    transcriber: Transcriber;
    range?: FrameRange;
    signal?: AbortSignal;
    user?: Identity | null;
  },
): Promise<Transcribed> => {
  const subtitles = spec.subtitles!;
  const audio = captionMixGraph(spec, timeline, options.jobId, media);
  if (!audio) return { captions: noAudioCaptions(), parts: [] };
  const { duration, fps } = timeline;
  const needed = mixNeeded(duration, fps, options.range);
  const path = await writeSpeechWav(
    audio,
    options.workDir,
    options.ffmpegPath,
    options.signal,
    options.user,
    needed.seconds,
  );
  const wav = await openWav(path);
  let parts: PartWords[];
  try {
    const cut = await cutParts(wav, needed.grid, duration, needed.seconds === undefined);
    parts = await transcribeParts(wav, partsReached(cut, fps, options.range), {
      ...{ workDir: options.workDir, transcriber: options.transcriber, signal: options.signal },
      language: subtitles.language,
    });
  } finally {
    await wav.close();
  }
  return { captions: captionsOfParts(parts, options.transcriber.backend, spec), parts };
};

/** The spec with one global title layer per cue, and the layer key of each cue. */
export const withCaptionLayers = (
  spec: VideoSpec,
  cues: readonly Cue[],
): { spec: VideoSpec; keys: string[] } => {
  const style = spec.subtitles?.style ?? {};
  const drawn = drawnCues(cues, style);
  const next = {
    ...spec,
    globalLayers: [...spec.globalLayers, ...drawn.map((c) => captionLayer(c, style, spec))],
  };
  const keyed = keyedLayers(next);
  return { spec: next, keys: keyed.slice(keyed.length - drawn.length).map((k) => k.key) };
};

/**
 * Retimes each caption's reveal states to the spoken words (the rasteriser spreads them evenly), and times a preset's
 * moving words. `cues` are the captions' cues (withCaptionLayers draws them as presets.ts drawnCues says).
 */
export const timeReveals = (
  assets: Map<string, RasterAsset>,
  keys: readonly string[],
  cues: readonly Cue[],
  spec: VideoSpec,
): void => {
  const style = spec.subtitles?.style ?? {};
  const by = captionAnimation(style, spec) === "letter-by-letter" ? "letter" : "word";
  const drawn = drawnCues(cues, style);
  keys.forEach((key, i) => {
    const asset = assets.get(key);
    if (asset && asset.frames.length > 1) asset.times = revealTimes(drawn[i]!, by, asset.frames.length);
    if (asset?.words) {
      const times = wordTimes(drawn[i]!, asset.words.words.length);
      asset.words.words.forEach((w, n) => Object.assign(w, times[n]));
    }
  });
};
