/**
 * `speech` layers and speech audio tracks in a render (issue 33): each is synthesised into a WAV in the job's
 * directory (one Synthesizer call each, in order), then stands in the spec as what it sounds like: a layer as a
 * `detached-audio` layer at the same `start` (cut at `stop`), a track as an audio track. Everything after this
 * (probing, mix weights, the audio graph) treats them as the audio files they now are. The words the voice
 * said, placed on the output's timeline, are the captions of `autoSubtitles` (no transcription).
 */
import { join } from "node:path";
import type { Timeline } from "@media-render/contract/timeline";
import { SpeechFailed, type Synthesizer } from "../speech/types.ts";
import type { TranscriptWord } from "../transcribe/types.ts";
import type { Layer, VideoSpec } from "./types.ts";

/** One synthesised utterance: where it plays (a clip's offset, or the output's for a track) and its words. */
export interface Utterance {
  /** The clip index, or -1 for an audio track (times from the output's start). */
  clip: number;
  start: number;
  /** Seconds after `start` where it is cut off (a layer's `stop`), or null. */
  length: number | null;
  words: TranscriptWord[];
}

export interface Voiced {
  spec: VideoSpec;
  /** The WAV files written (probed like downloaded inputs). */
  paths: string[];
  utterances: Utterance[];
}

/** The spec with its speech synthesised (see the module's comment); unchanged when it has none. */
export const synthesizeSpeech = async (
  spec: VideoSpec,
  workDir: string,
  synthesizer: Synthesizer,
  signal?: AbortSignal,
): Promise<Voiced> => {
  const paths: string[] = [];
  const utterances: Utterance[] = [];
  // A voice's refusal names the entry it was given (`clips[0].layers[2]: ...`), so its author knows what to change.
  const say = async (request: Parameters<Synthesizer["synthesize"]>[0], field: string) => {
    const path = join(workDir, `speech-${paths.length}.wav`);
    paths.push(path);
    return synthesizer.synthesize(request, path, signal).catch((e: unknown) => {
      throw e instanceof SpeechFailed
        ? new SpeechFailed(`${field}: ${e.message.replace(/^speech: /, "")}`)
        : e;
    });
  };
  const clips: VideoSpec["clips"] = [];
  for (const [c, clip] of spec.clips.entries()) {
    const layers: Layer[] = [];
    for (const [i, layer] of clip.layers.entries()) {
      if (layer.type !== "speech") {
        layers.push(layer);
        continue;
      }
      const { text, voice, language, rate, mixVolume, start = 0, stop } = layer;
      const speech = await say({ text, voice, language, rate }, `clips[${c}].layers[${i}]`);
      const length = stop === undefined ? null : Math.max(0, stop - start);
      utterances.push({ clip: c, start, length, words: speech.words });
      layers.push({
        type: "detached-audio",
        path: speech.path,
        mixVolume,
        start,
        ...(length === null ? {} : { cutTo: Math.max(0.01, length) }),
      });
    }
    clips.push({ ...clip, layers });
  }
  const audioTracks = [...spec.audioTracks];
  for (const track of spec.speechTracks) {
    const { text, voice, language, rate, mixVolume = 1, start = 0 } = track;
    const speech = await say({ text, voice, language, rate }, `audioTracks[${track.index}]`);
    utterances.push({ clip: -1, start, length: null, words: speech.words });
    audioTracks.push({
      path: speech.path,
      mixVolume,
      start,
      cutFrom: 0,
      cutTo: null,
    });
  }
  if (paths.length === 0) return { spec, paths, utterances };
  return { spec: { ...spec, clips, audioTracks, speechTracks: [] }, paths, utterances };
};

/** Every spoken word on the output's timeline, in time order, cut where its utterance is cut. */
export const spokenWords = (utterances: readonly Utterance[], timeline: Timeline): TranscriptWord[] =>
  utterances
    .flatMap((utterance) => {
      const offset = (utterance.clip < 0 ? 0 : timeline.clips[utterance.clip]!.start) + utterance.start;
      return utterance.words
        .filter((w) => utterance.length === null || w.start < utterance.length)
        .map((w) => ({
          text: w.text,
          start: offset + w.start,
          end: offset + (utterance.length === null ? w.end : Math.min(w.end, utterance.length)),
        }));
    })
    .sort((a, b) => a.start - b.start);
