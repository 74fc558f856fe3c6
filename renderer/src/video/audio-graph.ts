/**
 * The audio half of the filter graph. Clip audio is cut to each clip, faded with the transition
 * curves (afade names, resolved by the contract's timeline) where clips overlap (equivalent to acrossfade's c1/c2) and placed at the clip's start;
 * audio tracks, detached audio and the background track are placed on the absolute timeline.
 * The mix is padded and trimmed to the exact video length, so audio can never drift.
 */
import type { GraphContext, LayerAudio } from "./graph-context.ts";
import type { AudioTrackSpec } from "./types.ts";
import { ffNumber } from "./values.ts";
import { duckFilter } from "./ducking.ts";
import { encoderOf } from "./outputs/encoders.ts";

const NORMALISE = "aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo";

const delayMs = (seconds: number): string => {
  return `adelay=${Math.round(seconds * 1000)}:all=1`;
};

const mix = (ctx: GraphContext, labels: string[], prefix: string): string => {
  if (labels.length === 1) return labels[0]!;
  const out = ctx.label(prefix);
  ctx.chain(
    `${labels.map((l) => `[${l}]`).join("")}amix=inputs=${labels.length}:duration=longest:normalize=0[${out}]`,
  );
  return out;
};

/** Turns one clip's layer audio into a stream placed at the clip start; null when the clip is silent. */
export const clipAudioStream = (ctx: GraphContext, clipIndex: number, parts: LayerAudio[]): string | null => {
  if (parts.length === 0) return null;
  const timing = ctx.timeline.clips[clipIndex]!;
  const placed = parts.map((part) => {
    const label = ctx.label("cap");
    ctx.chain(
      `[${part.label}]${NORMALISE},apad,atrim=0:${ffNumber(part.duration)},${delayMs(part.offset)}[${label}]`,
    );
    return label;
  });
  const mixed = mix(ctx, placed, "cmix");
  const fades: string[] = [];
  const prev = ctx.timeline.clips[clipIndex - 1]?.transition;
  if (timing.inFrames > 0 && prev) {
    fades.push(`afade=t=in:st=0:d=${ffNumber(timing.inFrames / ctx.spec.fps)}:curve=${prev.audioInCurve}`);
  }
  const transition = timing.transition;
  if (transition) {
    const seconds = transition.frames / ctx.spec.fps;
    fades.push(
      `afade=t=out:st=${ffNumber(timing.duration - seconds)}:d=${ffNumber(seconds)}:curve=${transition.audioOutCurve}`,
    );
  }
  const out = ctx.label("clipa");
  ctx.chain(
    `[${mixed}]apad,atrim=0:${ffNumber(timing.duration)}${fades.map((x) => `,${x}`).join("")},${delayMs(timing.start)}[${out}]`,
  );
  return out;
};

/** The ducking filter for a stream placed on the output's timeline, when it is ducked (ducking.ts). */
const ducked = (ctx: GraphContext, duck: boolean | undefined): string =>
  duck && ctx.spec.ducking ? `,${duckFilter(ctx.spec.ducking)}` : "";

const trackStream = (ctx: GraphContext, track: AudioTrackSpec): string | null => {
  const info = ctx.mediaInfo(track.path);
  if (!info?.hasAudio) return null;
  // A file of unknown length (0: a webm written to a stream) plays from its cut to its cutTo or its end.
  const end = info.duration > 0 ? info.duration : Number.POSITIVE_INFINITY;
  const cutTo = Math.min(track.cutTo ?? end, end);
  const length = cutTo - track.cutFrom;
  if (length <= 0) return null;
  const i = ctx.addMedia(
    info,
    ["-ss", ffNumber(track.cutFrom), ...(Number.isFinite(length) ? ["-t", ffNumber(length)] : [])],
    track.path,
  );
  const out = ctx.label("trk");
  ctx.chain(
    `[${i}:a]asetpts=PTS-STARTPTS,${NORMALISE},volume=${ffNumber(track.mixVolume)},${delayMs(track.start)}${ducked(ctx, track.duck)}[${out}]`,
  );
  return out;
};

/** dynaudnorm's g must be odd and ≥ 3; editly passes gaussSize straight through (default 5). */
export const oddGauss = (size: number): number => {
  return Math.max(3, size % 2 === 1 ? size : size + 1);
};

/** dynaudnorm's m takes 1..100: JsonCut allows 0, which ffmpeg would refuse (the grammar caps it at 100). */
export const normMaxGain = (maxGain: number): number => Math.max(1, maxGain);

/** Builds `[aout]`: clips (× clipsAudioVolume) + tracks + background, norm, output volume, exact length. */
export const finishAudio = (ctx: GraphContext, clipStreams: string[], tracks: AudioTrackSpec[]): void => {
  const { spec } = ctx;
  const total = ffNumber(ctx.timeline.duration);
  const sources: string[] = [];
  if (clipStreams.length > 0) {
    const clips = ctx.label("clips");
    ctx.chain(`[${mix(ctx, clipStreams, "allc")}]volume=${ffNumber(spec.clipsAudioVolume)}[${clips}]`);
    sources.push(clips);
  }
  for (const track of tracks) {
    const stream = trackStream(ctx, track);
    if (stream) sources.push(stream);
  }
  const bgInfo = spec.audioFilePath ? ctx.mediaInfo(spec.audioFilePath) : undefined;
  if (spec.audioFilePath && bgInfo?.hasAudio) {
    const i = ctx.addMedia(bgInfo, spec.loopAudio ? ["-stream_loop", "-1"] : [], spec.audioFilePath);
    const bg = ctx.label("bg");
    ctx.chain(
      `[${i}:a]${NORMALISE},volume=${ffNumber(spec.backgroundAudioVolume)}${ducked(ctx, true)}[${bg}]`,
    );
    sources.push(bg);
  }
  // Opus takes frames of 960 samples (20 ms at 48 kHz); ffmpeg 5.1 hands a webm's encoder the graph's own frames
  // when the picture runs at a few frames a second, and libopus then refuses them ("more samples than frame size").
  // Keyed by the spec's format, the canvas: an alpha mov's PCM is cut so too, which changes none of its samples.
  const frameSamples = encoderOf(spec.format)?.audioFrameSamples;
  const opusFrames = frameSamples ? `,asetnsamples=n=${frameSamples}:p=0` : "";
  if (sources.length === 0) {
    ctx.chain(`anullsrc=r=48000:cl=stereo,atrim=0:${total}${opusFrames}[aout]`);
    return;
  }
  const norm = spec.audioNorm.enable
    ? `,dynaudnorm=g=${oddGauss(spec.audioNorm.gaussSize)}:m=${ffNumber(normMaxGain(spec.audioNorm.maxGain))}`
    : "";
  ctx.chain(
    `[${mix(ctx, sources, "mixall")}]${NORMALISE}${norm},volume=${ffNumber(spec.outputVolume)},apad,atrim=0:${total},asetpts=PTS-STARTPTS${opusFrames}[aout]`,
  );
};
