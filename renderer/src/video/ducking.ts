/**
 * Audio ducking (issue 33): while speech layers and speech tracks speak, the background track and the file
 * audio tracks are lowered by `ducking.amount` dB. The speech's times are known (its words, speech.ts), so
 * this is volume automation over those intervals rather than a compressor listening to the mix: the music
 * starts going down `attack` s before a phrase's first word, is fully down while the phrase lasts, and comes
 * back over `release` s after its last word. Phrases closer than attack + release merge (no pumping between
 * words). One `volume` filter with a per-frame expression on each ducked stream.
 */
import { DUCKING_DEFAULTS } from "@media-render/contract/config/limits";
import type { Timeline } from "@media-render/contract/timeline";
import { spokenWords, type Utterance } from "./speech.ts";
import type { Ducking, VideoSpec } from "./types.ts";
import { ffNumber } from "./values.ts";

/** Intervals of `words` with gaps up to `bridge` s merged (pure). */
export const speechIntervals = (words: readonly { start: number; end: number }[], bridge: number) => {
  const out: [number, number][] = [];
  for (const w of [...words].sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && w.start - last[1] <= bridge) last[1] = Math.max(last[1], w.end);
    else out.push([w.start, w.end]);
  }
  return out;
};

/** The spec's ducking with the speech's intervals on `timeline`; null without `ducking` or without speech. */
export const duckingFor = (
  config: { amount?: number; attack?: number; release?: number } | undefined,
  utterances: readonly Utterance[],
  timeline: Timeline,
): Ducking | null => {
  if (!config || utterances.length === 0) return null;
  const amount = config.amount ?? DUCKING_DEFAULTS.amount;
  const attack = config.attack ?? DUCKING_DEFAULTS.attack;
  const release = config.release ?? DUCKING_DEFAULTS.release;
  const intervals = speechIntervals(spokenWords(utterances, timeline), attack + release);
  return amount > 0 && intervals.length > 0 ? { amount, attack, release, intervals } : null;
};

/**
 * The `volume` filter that ducks a stream placed on the output's timeline (pure): gain 10^(−amount/20 · e(t)),
 * e(t) the largest of each interval's envelope, a ramp up over `attack` before it and down over `release` after.
 */
export const duckFilter = (ducking: Ducking): string => {
  const attack = Math.max(ducking.attack, 0.001);
  const release = Math.max(ducking.release, 0.001);
  const envelopes = ducking.intervals.map(
    ([s, e]) =>
      `min(clip((t-${ffNumber(s - attack)})/${ffNumber(attack)},0,1),clip((${ffNumber(e + release)}-t)/${ffNumber(release)},0,1))`,
  );
  const env = envelopes.reduce((acc, x) => `max(${acc},${x})`);
  return `volume='pow(10,${ffNumber(-ducking.amount / 20)}*${env})':eval=frame`;
};

/** The spec with its ducking worked out (render.ts calls this once the timeline is known). */
export const withDucking = (
  spec: VideoSpec,
  config: Parameters<typeof duckingFor>[0],
  utterances: readonly Utterance[],
  timeline: Timeline,
): VideoSpec => ({ ...spec, ducking: duckingFor(config, utterances, timeline) });
