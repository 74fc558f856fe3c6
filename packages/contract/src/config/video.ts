/**
 * The video job config (config reference §2): clips played in sequence with transitions between them,
 * layers above all clips (`globalLayers`), and audio (background track, `audioTracks`, clip audio).
 */
import * as v from "valibot";
import {
  bool,
  HostedCatalogFont,
  catalogFontEntries,
  Color,
  documentedDefault,
  integerIn,
  list,
  numberIn,
  oneOf,
  Position,
  PositiveSeconds,
  Seconds,
  strict,
  text,
  Volume,
} from "./common.ts";
import { AudioRef, CaptionsRef, FontRef } from "./file-ref.ts";
import { ignored } from "./ignored.ts";
import { keyframeIssues } from "./keyframes.ts";
import {
  entryOf,
  layerDefaultsEntries,
  layerObjects,
  layerTypeNames,
  layerVariant,
  perJobCaps,
  type LayerTypeFacts,
} from "./layer-set.ts";
import * as limits from "./limits.ts";
import {
  applyLayerDefaults,
  defaultsIssues,
  layerIssues,
  normaliseConfigAliases,
  prefix,
  report,
  type RuleIssue,
} from "./rules.ts";
import { buildTimeline } from "../timeline.ts";
import {
  frameEntries,
  outputEntries,
  outputIssues,
  previewEntries,
  stillEntries,
  VIDEO_FORMATS,
  withOutPathFormat,
} from "./outputs.ts";
import { speechIssues, SpeechTrackSchema } from "./speech.ts";
import { TransitionSchema } from "./transitions.ts";
import { VIDEO_LAYER_TYPES, type VideoLayerType } from "./video-layer-types.ts";

const optional = v.optional;

const LAYER_OBJECTS = layerObjects(VIDEO_LAYER_TYPES);
type GlobalType = {
  [T in VideoLayerType]: (typeof VIDEO_LAYER_TYPES)[T]["global"] extends true ? T : never;
}[VideoLayerType];

/** Why `globalLayers` refuses a type, by type. */
const GLOBAL_REFUSALS: Record<string, string> = Object.fromEntries(
  layerTypeNames(VIDEO_LAYER_TYPES).flatMap((layerType) => {
    const global = VIDEO_LAYER_TYPES[layerType].global;
    return global === true ? [] : [[layerType, global]];
  }),
);

export const VideoLayerSchema = layerVariant("a video clip", Object.values(LAYER_OBJECTS), VIDEO_LAYER_TYPES);
export type VideoLayer = v.InferOutput<typeof VideoLayerSchema>;

/** Layers over the whole timeline: no video or audio layers; `start`/`stop` are absolute seconds. */
export const GlobalLayerSchema = layerVariant(
  "globalLayers",
  layerTypeNames(VIDEO_LAYER_TYPES)
    .filter((t) => VIDEO_LAYER_TYPES[t].global === true)
    .map((t) => LAYER_OBJECTS[t]) as (typeof LAYER_OBJECTS)[GlobalType][],
  VIDEO_LAYER_TYPES,
  GLOBAL_REFUSALS,
);

const LayerList = list(
  VideoLayerSchema,
  limits.VIDEO_MIN_LAYERS_PER_CLIP,
  limits.VIDEO_MAX_LAYERS_PER_CLIP,
  "layers",
);
const SingleLayer = v.pipe(
  VideoLayerSchema,
  v.transform((layer) => [layer]),
);

/**
 * A clip's layers: a list, or editly's single layer object read as a one-layer list. Chosen by the
 * input's type so a bad layer reports its own fields (served as `anyOf`, src/schemas/json-schemas.ts).
 */
export const ClipLayers = v.lazy((input: unknown) =>
  input !== null && typeof input === "object" && !Array.isArray(input) ? SingleLayer : LayerList,
);

const ClipDuration = numberIn(limits.VIDEO_MIN_CLIP_DURATION, limits.VIDEO_MAX_DURATION);

export const ClipSchema = strict("clip", {
  /** Seconds. Default: the first video layer's cut length, else `defaults.duration`, else 4. */
  duration: optional(ClipDuration),
  /** Into the next clip (ignored on the last); null = hard cut. Merged over `defaults.transition`. */
  transition: optional(v.nullable(TransitionSchema)),
  /** The clip's layers, bottom first; editly's single-layer form (one layer object) is read as [layer]. */
  layers: ClipLayers,
});

export const AudioTrackSchema = strict("audio track", {
  path: AudioRef,
  mixVolume: optional(Volume),
  /** Seconds into the output. */
  start: optional(Seconds),
  cutFrom: optional(Seconds),
  cutTo: optional(PositiveSeconds),
});

export const AutoSubtitlesStyleSchema = strict("autoSubtitlesStyle", {
  /** Default `word-by-word` for autoSubtitles and speech, `none` (each cue whole) for `captionsFile`. */
  animation: optional(oneOf(["word-by-word", "letter-by-letter", "none"])),
  /** Our addition (issue 45): short-form caption styles drawn from the word timings; not with `animation`. */
  preset: optional(
    v.pipe(
      oneOf(limits.CAPTION_PRESETS),
      v.description(
        "How the spoken words are drawn, at the frame each word is said: karaoke (each word fills with highlightColor, " +
          "left to right, as it is said), pop (each word scales in as it is said), box (a rounded box of " +
          "highlightColor behind the word being said), one-word (one word at a time, large). Not with animation.",
      ),
    ),
  ),
  textColor: optional(Color),
  fontSize: optional(numberIn(limits.VIDEO_MIN_FONT_SIZE, limits.VIDEO_MAX_FONT_SIZE)),
  fontPath: optional(FontRef),
  ...catalogFontEntries(HostedCatalogFont),
  position: optional(Position),
  outlineColor: optional(Color),
  outlineWidth: optional(numberIn(0, limits.MAX_OUTLINE_WIDTH)),
  outlineStyle: optional(oneOf(["outline", "shadow", "glow"])),
  /** Our addition (issue 33): caption styles beyond the reference's. */
  highlightColor: optional(
    v.pipe(
      Color,
      v.description(
        "The word being said is drawn in this colour (the others in textColor); with animation none every word of the cue shows and the highlight moves from word to word. " +
          "With preset karaoke the colour words fill with (default #ffd400), with box the colour of the box (default #7c3aed).",
      ),
    ),
  ),
  wordsPerLine: optional(
    v.pipe(
      integerIn(1, limits.CAPTION_MAX_WORDS_PER_LINE),
      v.description("Words on a caption line at most (default: as many as fit the width)."),
    ),
  ),
  maxLines: optional(
    v.pipe(
      integerIn(1, limits.CAPTION_MAX_LINES),
      v.description(
        `Lines a caption page shows at most (default 2, at most ${limits.CAPTION_MAX_LINES}; one-word shows one).`,
      ),
    ),
  ),
  maxCharsPerLine: optional(
    v.pipe(
      integerIn(limits.CAPTION_MIN_CHARS_PER_LINE, limits.CAPTION_MAX_CHARS_PER_LINE),
      v.description(
        `Characters on a caption line at most, spaces included (${limits.CAPTION_MIN_CHARS_PER_LINE}-${limits.CAPTION_MAX_CHARS_PER_LINE}; ` +
          "default: as many as fit the width); a longer word gets a line of its own.",
      ),
    ),
  ),
  allCaps: optional(v.pipe(bool(), v.description("Draw the captions in capital letters (default false)."))),
  backgroundColor: optional(
    v.pipe(
      Color,
      v.description("A box of this colour behind each caption (with alpha, e.g. #000000b3); default none."),
    ),
  ),
});

/** An `audioTracks` entry: a file (`path`), or text to say (`"type": "speech"`), chosen by `type`. */
export const AudioTrackEntrySchema = v.lazy((input: unknown) =>
  input !== null && typeof input === "object" && (input as { type?: unknown }).type === "speech"
    ? SpeechTrackSchema
    : AudioTrackSchema,
);

export type AutoSubtitlesStyle = v.InferOutput<typeof AutoSubtitlesStyleSchema>;

export const VideoDefaultsSchema = strict("defaults", {
  duration: optional(ClipDuration),
  transition: optional(v.nullable(TransitionSchema)),
  ...layerDefaultsEntries(VIDEO_LAYER_TYPES),
});

/** Warning text of editly's options that only its CLI or local ffmpeg use. */
const EDITLY_ONLY = {
  outPath:
    'editly\'s output file: the service stores the output and answers its URL; when "format" is absent, its extension (mp4, mov, webm, gif, mp3, wav, m4a) sets the format (else mp4)',
  log: "an editly logging option with no effect here (job progress and errors come with the job)",
  tools: "an editly option for its local ffmpeg: the renderer's tools and encoder settings are fixed",
  remote: "an editly option: http(s) paths are always fetched here (public addresses only)",
};

/**
 * editly's options of its CLI and local ffmpeg: accepted so an editly spec posts as it is, with a warning each,
 * since none changes the output here.
 */
const editlyOnlyEntries = {
  outPath: ignored(text(limits.MAX_FILE_REFERENCE_LENGTH), EDITLY_ONLY.outPath),
  enableFfmpegLog: ignored(bool(), EDITLY_ONLY.log),
  verbose: ignored(bool(), EDITLY_ONLY.log),
  logTimes: ignored(bool(), EDITLY_ONLY.log),
  keepTmp: ignored(bool(), EDITLY_ONLY.log),
  ffmpegPath: ignored(text(limits.MAX_FILE_REFERENCE_LENGTH), EDITLY_ONLY.tools),
  ffprobePath: ignored(text(limits.MAX_FILE_REFERENCE_LENGTH), EDITLY_ONLY.tools),
  customOutputArgs: ignored(list(text(1000), 0, 100, "arguments"), EDITLY_ONLY.tools),
  allowRemoteRequests: ignored(bool(), EDITLY_ONLY.remote),
};

/** Output formats (outputs.ts). */
export { VIDEO_FORMATS };

export const videoConfigEntries = {
  /** Default 1280; rounded down to an even number when rendering (geometry.ts evenDimension). */
  width: optional(
    documentedDefault(integerIn(limits.VIDEO_MIN_SIZE, limits.VIDEO_MAX_SIZE), limits.VIDEO_DEFAULTS.width),
  ),
  /** Default 720; rounded down to an even number when rendering. */
  height: optional(
    documentedDefault(integerIn(limits.VIDEO_MIN_SIZE, limits.VIDEO_MAX_SIZE), limits.VIDEO_DEFAULTS.height),
  ),
  /** Default 25. */
  fps: optional(
    documentedDefault(integerIn(limits.VIDEO_MIN_FPS, limits.VIDEO_MAX_FPS), limits.VIDEO_DEFAULTS.fps),
  ),
  /**
   * Default mp4 (or the extension of editly's `outPath`). gif: palette per video, scaled to fit 640 px and at
   * most 20 fps; mp3/wav/m4a: the audio mix only.
   */
  format: optional(
    v.pipe(
      documentedDefault(oneOf(VIDEO_FORMATS), limits.VIDEO_DEFAULTS.format),
      v.description(
        "Output file: mp4, mov (H.264; ProRes 4444 with alpha: true), webm (VP9 with alpha), gif (one palette " +
          `per video, scaled to fit ${limits.GIF_MAX_SIDE} px, at most ${limits.GIF_MAX_FPS} fps and ${limits.GIF_MAX_DURATION} s), ` +
          "mp3, wav or m4a (the audio mix only). Absent: the extension of editly's outPath, else mp4.",
      ),
    ),
  ),
  ...outputEntries,
  ...frameEntries,
  ...stillEntries,
  ...previewEntries,
  /** Quick low-resolution preview. */
  fast: optional(bool()),
  clips: list(ClipSchema, limits.VIDEO_MIN_CLIPS, limits.VIDEO_MAX_CLIPS, "clips"),
  defaults: optional(VideoDefaultsSchema),
  /** Background track over the whole video. */
  audioFilePath: optional(AudioRef),
  /** editly's weight of the background track in the mix (default 1). */
  backgroundAudioVolume: optional(Volume),
  loopAudio: optional(bool()),
  /** Keep the audio of video/audio layers (otherwise clips are silent). */
  keepSourceAudio: optional(bool()),
  clipsAudioVolume: optional(Volume),
  outputVolume: optional(Volume),
  audioTracks: optional(list(AudioTrackEntrySchema, 0, limits.VIDEO_MAX_AUDIO_TRACKS, "audio tracks")),
  audioNorm: optional(
    strict("audioNorm", {
      enable: optional(bool()),
      gaussSize: optional(integerIn(limits.AUDIO_NORM_MIN_GAUSS_SIZE, limits.AUDIO_NORM_MAX_GAUSS_SIZE)),
      maxGain: optional(numberIn(limits.AUDIO_NORM_MIN_MAX_GAIN, limits.AUDIO_NORM_MAX_MAX_GAIN)),
    }),
  ),
  globalLayers: optional(list(GlobalLayerSchema, 0, limits.VIDEO_MAX_GLOBAL_LAYERS, "layers")),
  /**
   * Transcribe the final audio mix and burn in word-timed captions (paid plans; the Worker refuses it on the
   * free plan). The transcript and WebVTT/SRT files are stored as extra job outputs.
   */
  autoSubtitles: optional(bool()),
  autoSubtitlesStyle: optional(AutoSubtitlesStyleSchema),
  /**
   * Our addition: the spoken language (ISO 639-1, e.g. `en`, `de`) when autoSubtitles should not detect it.
   * The offline backend knows English only.
   */
  autoSubtitlesLanguage: optional(
    v.pipe(v.string(), v.regex(/^[a-z]{2}$/, "must be a two-letter ISO 639-1 language code such as en")),
  ),
  /**
   * Our addition (issue 33): the background track (`audioFilePath`) and the file entries of `audioTracks` are
   * lowered by `amount` dB while a speech layer or speech track speaks, reaching it `attack` s before the first
   * word of a phrase and coming back over `release` s after its last.
   */
  ducking: optional(
    strict("ducking", {
      amount: optional(
        v.pipe(
          numberIn(0, limits.DUCKING_MAX_DB),
          v.description(`dB the music is lowered under speech (default ${limits.DUCKING_DEFAULTS.amount}).`),
        ),
      ),
      attack: optional(
        v.pipe(
          numberIn(0, limits.DUCKING_MAX_SECONDS),
          v.description(
            `Seconds the music takes to go down before speech (default ${limits.DUCKING_DEFAULTS.attack}).`,
          ),
        ),
      ),
      release: optional(
        v.pipe(
          numberIn(0, limits.DUCKING_MAX_SECONDS),
          v.description(
            `Seconds the music takes to come back after speech (default ${limits.DUCKING_DEFAULTS.release}).`,
          ),
        ),
      ),
    }),
  ),
  /**
   * Our addition: an uploaded SubRip (.srt) or WebVTT (.vtt) file whose cues are burned in at their times with
   * `autoSubtitlesStyle` (markup such as `<b>` or `<v Name>` is dropped; cue settings are ignored).
   */
  captionsFile: optional(
    v.pipe(
      CaptionsRef,
      v.description(
        "An uploaded .srt or .vtt file burned in at its cues' times, drawn with autoSubtitlesStyle; not with autoSubtitles.",
      ),
    ),
  ),
  ...editlyOnlyEntries,
};

type RawVideoConfig = v.InferOutput<ReturnType<typeof strict<typeof videoConfigEntries>>>;

/**
 * Rules over the whole config: defaults objects, layers as rendered (their defaults merged: their type's
 * `renderedRules`), audio cuts, the layer caps (html), speech, the output length.
 */
export const videoConfigIssues = (config: RawVideoConfig): RuleIssue[] => {
  const out: RuleIssue[] = [];
  const defaults = config.defaults;
  out.push(...defaultsIssues(defaults));
  if (config.autoSubtitlesStyle) {
    out.push(...prefix(["autoSubtitlesStyle"], layerIssues(config.autoSubtitlesStyle)));
    if (config.autoSubtitlesStyle.preset !== undefined && config.autoSubtitlesStyle.animation !== undefined)
      out.push({
        path: ["autoSubtitlesStyle", "animation"],
        message: `preset ${config.autoSubtitlesStyle.preset} draws the words its own way: leave out animation, or the preset`,
      });
  }
  if (config.captionsFile !== undefined && config.autoSubtitles === true)
    out.push({
      path: ["captionsFile"],
      message: "captionsFile and autoSubtitles cannot both be on: the file's captions are drawn as they are",
    });
  config.audioTracks?.forEach((track, i) =>
    out.push(...prefix(["audioTracks", i], layerIssues({ ...track }))),
  );

  const capped = perJobCaps(VIDEO_LAYER_TYPES);
  const count = (layers: readonly { type: string }[], base: (string | number)[]) =>
    layers.forEach((layer, i) => {
      const rules = entryOf<LayerTypeFacts>(VIDEO_LAYER_TYPES, layer.type)?.renderedRules;
      if (rules) out.push(...prefix([...base, i], rules(applyLayerDefaults(defaults, layer))));
      out.push(...capped(layer, [...base, i]));
    });
  config.clips.forEach((clip, i) => count(clip.layers, ["clips", i, "layers"]));
  count(config.globalLayers ?? [], ["globalLayers"]);
  out.push(...speechIssues(config));

  const total = buildTimeline(config).duration;
  out.push(...outputIssues(config, total));
  out.push(...keyframesWithinLayers(config, total));
  // A hair of tolerance: sums of decimal seconds are not exact in binary floating point.
  if (total > limits.VIDEO_MAX_DURATION + 1e-9) {
    out.push({
      path: ["clips"],
      message: `the video would last ${Math.round(total * 100) / 100} s; at most ${limits.VIDEO_MAX_DURATION} s are allowed`,
    });
  }
  return out;
};

/**
 * Keyframes past the end of their layer, where the config says how long the layer is: its `stop`, else its clip's
 * `duration` (a clip sized by its video's file is known only to the renderer), else the video's length for a
 * global layer.
 */
const keyframesWithinLayers = (config: RawVideoConfig, total: number): RuleIssue[] => {
  const out: RuleIssue[] = [];
  const check = (layers: readonly object[], end: number | undefined, base: (string | number)[]) =>
    layers.forEach((layer, i) => {
      const timedLayer = layer as { start?: number; stop?: number };
      const stop = Math.min(timedLayer.stop ?? Number.POSITIVE_INFINITY, end ?? Number.POSITIVE_INFINITY);
      if (Number.isFinite(stop))
        out.push(
          ...prefix(
            [...base, i],
            keyframeIssues(timedLayer as Record<string, unknown>, stop - (timedLayer.start ?? 0)),
          ),
        );
    });
  config.clips.forEach((clip, c) => check(clip.layers, clip.duration, ["clips", c, "layers"]));
  check(config.globalLayers ?? [], total, ["globalLayers"]);
  return out;
};

export const VideoConfigSchema = v.pipe(
  strict("the video config", videoConfigEntries),
  v.rawCheck(({ dataset, addIssue }) => {
    if (dataset.typed) report(addIssue, videoConfigIssues(dataset.value));
  }),
  v.transform((config) => withOutPathFormat(normaliseConfigAliases(config))),
  v.description(
    "Video job config. Cross-field rules beyond this schema: cutTo > cutFrom and stop > start on a layer; " +
      '"minFontSize" and "maxFontSize" go together (minimum at most the maximum) and replace "fontSize" (not both on ' +
      "one object); " +
      `at most ${limits.HTML_MAX_LAYERS_PER_JOB} html layers per job; at most ${limits.SPEECH_MAX_JOB_CHARACTERS} characters ` +
      "of speech text per job; the output (clip lengths minus transition " +
      `overlaps) lasts at most ${limits.VIDEO_MAX_DURATION} s; html/css sizes are UTF-8 bytes.`,
  ),
);
export type VideoConfig = v.InferOutput<typeof VideoConfigSchema>;
