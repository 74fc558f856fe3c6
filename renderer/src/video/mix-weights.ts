/**
 * Volumes as the audio graph applies them. A volume is a gain (1 = as recorded); editly passes `mixVolume`,
 * `clipsAudioVolume` and `backgroundAudioVolume` to ffmpeg's amix as weights, which count only relative to
 * each other (its examples use 50 beside 1). Both readings agree when a mix's weights are all at most 1, so
 * a mix whose largest weight exceeds 1 is divided by that weight: the loudest source plays as recorded and the
 * others keep editly's proportions, where gains of 50 would clip. (amix also divides by the sum of the
 * weights, which makes a mix quieter the more sources it has; the graph sums with `normalize=0` instead.)
 * Two mixes: one per clip (its `video` and `audio` layers), and the final one (the clips' audio as one
 * source, audio tracks, `detached-audio` layers, the background track). `outputVolume` stays a gain.
 */
import { scaleAnimated, valueRange, type Animated } from "@media-render/contract/keyframes";
import { soundOf } from "./layers/index.ts";
import type { ClipSpec, Layer } from "./types.ts";

/** `weights` divided by the largest of them when that exceeds 1; otherwise unchanged. */
export const relativeWeights = (weights: readonly number[]): number[] => {
  const largest = Math.max(0, ...weights);
  return largest > 1 ? weights.map((w) => w / largest) : [...weights];
};

/** A layer's weight in its mix: its volume, or the loudest its keyframes reach. */
const weightOf = (layer: Layer): number =>
  "mixVolume" in layer ? valueRange((layer.mixVolume as Animated | undefined) ?? 1).max : 1;

interface Mix {
  clips: ClipSpec[];
  clipsAudioVolume: number;
  /** Counts only with a background track (`audioFilePath`). */
  audioFilePath: string | null;
  backgroundAudioVolume: number;
  audioTracks: { mixVolume: number }[];
}

/** `mix` with each clip's layer weights and the final mix's weights made relative (see the module's comment). */
export const mixWeights = <M extends Mix>(mix: M): M => {
  const weights = new Map<Layer, number>();
  for (const clip of mix.clips) {
    const voiced = clip.layers.filter((l) => soundOf(l) === "clip" || soundOf(l) === "source");
    relativeWeights(voiced.map(weightOf)).forEach((w, i) => weights.set(voiced[i]!, w));
  }
  // A speech layer becomes a detached-audio layer once it is synthesised (speech.ts).
  const detached = mix.clips.flatMap((c) => c.layers.filter((l) => soundOf(l) === "track"));
  const hasBackground = mix.audioFilePath !== null;
  const [clipsAudioVolume, background, ...rest] = relativeWeights([
    mix.clipsAudioVolume,
    hasBackground ? mix.backgroundAudioVolume : 0,
    ...mix.audioTracks.map((t) => t.mixVolume),
    ...detached.map(weightOf),
  ]) as [number, number, ...number[]];
  detached.forEach((l, i) => weights.set(l, rest[mix.audioTracks.length + i]!));
  // Keyframed volumes keep their curve, scaled as their peak was.
  const withWeight = (layer: Layer): Layer => {
    const w = weights.get(layer);
    if (w === undefined) return layer;
    const own = "mixVolume" in layer ? (layer.mixVolume as Animated | undefined) : undefined;
    const peak = weightOf(layer);
    const mixVolume = typeof own === "object" && peak > 0 ? scaleAnimated(own, w / peak) : w;
    return { ...layer, mixVolume } as Layer;
  };
  return {
    ...mix,
    clipsAudioVolume,
    backgroundAudioVolume: hasBackground ? background : mix.backgroundAudioVolume,
    audioTracks: mix.audioTracks.map((t, i) => ({ ...t, mixVolume: rest[i]! })),
    clips: mix.clips.map((c) => ({ ...c, layers: c.layers.map(withWeight) })),
  };
};
