/**
 * The messages between the Worker and the renderer, as valibot schemas both sides validate with: what the
 * Worker sends (a render request), what the renderer answers (probe result, health) and what it reports back
 * through the signed status callback (the spec's runner status payload). Paths are here too, so neither side
 * spells a route the other does not serve.
 */
import * as v from "valibot";
import { HostedCatalogFont } from "./config/common.ts";
import { THUMBNAILS_MAX_COUNT } from "./config/limits.ts";
import { normalForm } from "./config/normal-form.ts";
import { RENDER_FORMATS } from "./config/outputs.ts";
import { AUDIO_CURVES, TRANSITION_NAMES, TransitionSchema } from "./config/transitions.ts";
import { VideoConfigSchema } from "./config/video.ts";
import { MAX_FONT_FACES, MAX_HOSTED_FONTS_PER_JOB, UNICODE_RANGE_PATTERN } from "./fonts/hosted.ts";
import type { Timeline } from "./timeline.ts";

/** The renderer's routes. `health` is public; the others need a Worker signature (signing.ts). */
export const RENDERER_PATHS = {
  health: "/health",
  probe: "/probe",
  renderVideo: "/render/video",
  cancel: "/render/cancel",
} as const;

/** The Worker's route that receives the renderer's signed status reports. */
export const CALLBACK_PATH = "/api/v1/webhooks/runner/job-status";

/**
 * The Worker's route that transcribes a job's audio mix with Workers AI (production backend of autoSubtitles):
 * body = the WAV bytes, signed like a callback over the job id (`x-renderer-job`); answers `TranscriptAnswer`.
 */
export const TRANSCRIBE_PATH = "/api/v1/webhooks/runner/transcribe";

/** The speech recognisers behind autoSubtitles (see renderer/src/transcribe). */
export const TRANSCRIPTION_BACKENDS = ["pocketsphinx", "workers-ai"] as const;

/** What the transcription route answers: words with times in seconds, and the language heard. */
export const TranscriptAnswer = v.object({
  language: v.nullable(v.string()),
  words: v.array(v.object({ text: v.string(), start: v.number(), end: v.number() })),
});
export type TranscriptAnswer = v.InferOutput<typeof TranscriptAnswer>;

/**
 * The Worker's route that says a `speech` layer's text with Workers AI (production voice, issue 33): body = JSON
 * `SpeakRequest`, signed like a callback over the job id (`x-renderer-job`, speakSigningText); answers `SpeakAnswer`.
 */
export const SPEAK_PATH = "/api/v1/webhooks/runner/speak";

export const SpeakRequest = v.object({
  text: v.pipe(v.string(), v.minLength(1), v.maxLength(5000)),
  language: v.optional(v.pipe(v.string(), v.regex(/^[a-z]{2}(?:-[A-Za-z]{2})?$/))),
});
export type SpeakRequest = v.InferOutput<typeof SpeakRequest>;

/** The speech as MP3 (base64) and the words heard in it with their times (Whisper over the speech alone). */
export const SpeakAnswer = v.object({
  audio: v.pipe(v.string(), v.maxLength(16 * 1024 * 1024)),
  words: TranscriptAnswer.entries.words,
});
export type SpeakAnswer = v.InferOutput<typeof SpeakAnswer>;

/** The extra outputs of an autoSubtitles job (RenderVideoRequest.output.captions), by name. */
export const CAPTION_OUTPUTS = ["transcript", "vtt", "srt"] as const;

const HttpUrl = v.pipe(
  v.string(),
  v.maxLength(8192),
  v.url("must be a URL"),
  v.regex(/^https?:\/\//i, "must be an http(s) URL"),
);

import { MAX_CHUNKS } from "./windows.ts";
export { MAX_CHUNKS };

/** Which chunk of a split job a request renders (or a report is about). */
export const RenderChunk = v.pipe(
  v.object({
    index: v.pipe(v.number(), v.integer(), v.minValue(0)),
    count: v.pipe(v.number(), v.integer(), v.minValue(2), v.maxValue(MAX_CHUNKS)),
  }),
  v.check((c) => c.index < c.count, "index must be below count"),
);

/**
 * The job's config in the grammar's normal form (config/normal-form.ts): what the Worker's parse at creation gave
 * back and stored. The renderer accepts nothing else: a shorthand or alias here is a Worker bug, refused at the door.
 */
export const NormalisedVideoConfig = normalForm(VideoConfigSchema);

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Seconds = v.pipe(v.number(), v.minValue(0));

/** A resolved transition of the planned timeline (timeline.ts ResolvedTransition). */
const ResolvedTransitionSchema = v.object({
  name: v.picklist(TRANSITION_NAMES),
  frames: Count,
  duration: Seconds,
  audioOutCurve: v.picklist(AUDIO_CURVES),
  audioInCurve: v.picklist(AUDIO_CURVES),
  easing: TransitionSchema.entries.easing,
  params: TransitionSchema.entries.params,
});

/**
 * The planned timeline (timeline.ts): built once by the Worker at creation from the normalised config and the
 * stored files' real lengths, stored with the job, and sent with every render request of it, so every chunk,
 * still and join of a job works on the same frames.
 */
export const TimelineSchema = v.pipe(
  v.object({
    fps: v.pipe(v.number(), v.integer(), v.minValue(1)),
    clips: v.pipe(
      v.array(
        v.object({
          startFrame: Count,
          frames: v.pipe(Count, v.minValue(1)),
          start: Seconds,
          duration: Seconds,
          transition: v.nullable(ResolvedTransitionSchema),
          inFrames: Count,
        }),
      ),
      v.minLength(1),
    ),
    totalFrames: v.pipe(Count, v.minValue(1)),
    duration: Seconds,
  }),
  v.check((timeline) => {
    const last = timeline.clips.at(-1);
    return last !== undefined && last.startFrame + last.frames === timeline.totalFrames;
  }, "totalFrames must be where the last clip ends"),
) satisfies v.GenericSchema<unknown, Timeline>;

/** One face (a unicode subset) of a hosted catalogue font: its file, a key of the request's `inputs`. */
const HostedFontFace = v.object({
  ref: v.pipe(v.string(), v.minLength(1), v.maxLength(4096)),
  /** The characters it draws (CSS unicode-range); absent: all. */
  unicodeRange: v.optional(
    v.pipe(v.string(), v.maxLength(16_384), v.regex(UNICODE_RANGE_PATTERN, "must be a CSS unicode-range")),
  ),
});

/**
 * The hosted catalogue fonts of a job (`googleFont` values the bundle lacks, FONT_CATALOGUE_ONLINE), by value as the
 * config writes it: the weight and the woff2 faces the Worker's font cache holds, whose files the renderer downloads
 * like the job's other inputs and draws as it draws the bundled families.
 */
export const HostedFonts = v.pipe(
  v.record(
    HostedCatalogFont,
    v.object({
      weight: v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(900)),
      faces: v.pipe(v.array(HostedFontFace), v.minLength(1), v.maxLength(MAX_FONT_FACES)),
    }),
  ),
  v.check(
    (fonts) => Object.keys(fonts).length <= MAX_HOSTED_FONTS_PER_JOB,
    `at most ${MAX_HOSTED_FONTS_PER_JOB} fonts`,
  ),
);
export type HostedFonts = v.InferOutput<typeof HostedFonts>;

/**
 * POST /render/video. `config` is the job's config in the grammar's normal form, as the Worker stored it at
 * creation (NormalisedVideoConfig); `timeline` its planned timeline; `inputs` maps every file reference of the
 * config (storage path or public URL) to a short-lived signed URL the renderer downloads it from.
 */
export const RenderVideoRequest = v.object({
  jobId: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  config: NormalisedVideoConfig,
  /**
   * The planned timeline at the config's fps. Absent (a test, the benchmark): the renderer builds it itself from the
   * probed files. An output drawn at another rate (a GIF's or a fast preview's) is laid out again at that rate.
   */
  timeline: v.optional(TimelineSchema),
  inputs: v.record(v.pipe(v.string(), v.maxLength(4096)), HttpUrl),
  /** The hosted catalogue fonts the config names (HostedFonts); absent: it names bundled families only. */
  fonts: v.optional(HostedFonts),
  output: v.object({
    uploadUrl: HttpUrl,
    /** The job's output: a VIDEO_FORMATS entry, or png/jpeg for a still (config `still`). */
    format: v.picklist(RENDER_FORMATS),
    /** autoSubtitles: where the transcript (JSON), WebVTT and SRT files go. */
    captions: v.optional(v.object({ transcript: HttpUrl, vtt: HttpUrl, srt: HttpUrl })),
    /**
     * autoSubtitles, a chunk of a split job: where the words of the transcription parts it owns go (a small JSON file
     * beside its segment, which the join reads back: `join.words`).
     */
    words: v.optional(HttpUrl),
    /** The config's `poster`: where its image goes. */
    poster: v.optional(HttpUrl),
    /**
     * The config's `thumbnails`: one URL per frame (the renderer writes the first min(frames, its count) of them),
     * and the sprite sheet and its WebVTT index when asked.
     */
    thumbnails: v.optional(
      v.object({
        frames: v.pipe(v.array(HttpUrl), v.maxLength(THUMBNAILS_MAX_COUNT)),
        sprite: v.optional(HttpUrl),
        vtt: v.optional(HttpUrl),
      }),
    ),
  }),
  callbackUrl: HttpUrl,
  /**
   * autoSubtitles' backend: the renderer's offline pocketsphinx, or Workers AI through the Worker's transcription
   * route at `url` (TRANSCRIBE_PATH). Absent: pocketsphinx.
   */
  transcription: v.optional(
    v.variant("backend", [
      v.object({ backend: v.literal("pocketsphinx") }),
      v.object({ backend: v.literal("workers-ai"), url: HttpUrl }),
    ]),
  ),
  /** The voice of `speech` layers: the renderer's offline espeak-ng, or Workers AI at `url` (SPEAK_PATH). Absent: espeak-ng. */
  speech: v.optional(
    v.variant("backend", [
      v.object({ backend: v.literal("espeak-ng") }),
      v.object({ backend: v.literal("workers-ai"), url: HttpUrl }),
    ]),
  ),
  /**
   * What the Worker validated and charged for: the render must not last longer than `maxDurationSeconds` of output
   * (the clips sized by the stored files' real lengths) nor run longer than `deadlineSeconds` of wall time
   * (deadline.ts); past either it fails for good.
   */
  limits: v.optional(
    v.object({
      maxDurationSeconds: v.pipe(v.number(), v.minValue(0)),
      deadlineSeconds: v.pipe(v.number(), v.integer(), v.minValue(1)),
    }),
  ),
  /** Whose job it is (an opaque id): the renderer's queue holds at most a few jobs of one account (fairness). */
  accountId: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200))),
  /**
   * Which hand-over of the job this is (1, 2, ...): every report carries it back, so the Worker can ignore a
   * renderer that lost its lease (frozen, cut off) and wakes up after the job was handed to another.
   */
  attempt: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  /**
   * Accept only if a render slot is free now (else 503 busy): the Worker's first pass over the pool, so a job does
   * not wait behind another on one instance while a second instance idles.
   */
  startNow: v.optional(v.boolean()),
  /**
   * Parallel rendering (docs/parallel-rendering.md): render only chunk `index` of `count` (the timeline's frames
   * split evenly) as a video-only segment, uploaded to `output.uploadUrl`. Its reports echo `chunk`.
   */
  chunk: v.optional(RenderChunk),
  /**
   * Parallel rendering: join these segments (in order, by stream copy) with the audio mix of the whole timeline;
   * autoSubtitles: `words` has each chunk's words file (`output.words`), in the same order, merged into the caption
   * files.
   */
  join: v.optional(
    v.pipe(
      v.object({
        segments: v.pipe(v.array(HttpUrl), v.minLength(2), v.maxLength(MAX_CHUNKS)),
        words: v.optional(v.array(HttpUrl)),
      }),
      v.check((j) => !j.words || j.words.length === j.segments.length, "one words file per segment"),
    ),
  ),
});
export type RenderVideoRequest = v.InferOutput<typeof RenderVideoRequest>;
/** The request as the Worker builds it. */
export type RenderVideoRequestInput = v.InferInput<typeof RenderVideoRequest>;

/** 202 answer of POST /render/video. */
export const RenderAccepted = v.object({ accepted: v.literal(true) });

/**
 * 503 answer of POST /render/video when the renderer's bounded queue (or the account's share of it) is full,
 * sent with a `Retry-After` header (seconds): the Worker puts the job back on its queue with that delay.
 */
export const RendererBusy = v.object({
  error: v.string(),
  busy: v.literal(true),
  retryAfterSeconds: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

/**
 * POST /render/cancel: stop the job's render (waiting or running, ffmpeg and browsers killed). With `attempt`,
 * only that hand-over is stopped (a job already handed to this renderer again keeps its newer render).
 */
export const CancelRender = v.object({
  jobId: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  attempt: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  /** Only this chunk of a split job (with `attempt`, only that hand-over of it); absent: the job and all its chunks. */
  chunk: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_CHUNKS - 1))),
});
export type CancelRender = v.InferOutput<typeof CancelRender>;

/** 200 answer of POST /render/cancel: whether a render of that job was found (and stopped). */
export const CancelAnswer = v.object({ cancelled: v.boolean() });

/**
 * Every job a renderer holds (waiting or running) is reported at least this often (a `processing` callback, a
 * heartbeat when there is no progress to tell): the job's lease, renewed by the renderer.
 */
export const HEARTBEAT_INTERVAL_MS = 2_000;

/** POST /probe answer: what ffprobe (or the in-process header readers) found in one media file. */
export const ProbeResult = v.object({
  /** Display size: coded size swapped when the picture is rotated by 90 or 270 degrees. */
  width: v.nullable(v.number()),
  height: v.nullable(v.number()),
  /** Seconds, exactly ffprobe's format.duration; null for still images and when unknown. */
  duration: v.nullable(v.number()),
  formatName: v.string(),
  videoCodec: v.nullable(v.string()),
  audioCodec: v.nullable(v.string()),
  /** avg_frame_rate rounded to 3 decimals; null for stills and audio. */
  fps: v.nullable(v.number()),
  /** Clockwise degrees a player turns the coded picture for display, in [0, 360). */
  rotation: v.number(),
  /** A moving-picture stream exists (still images and embedded cover art do not count). */
  hasVideo: v.boolean(),
  hasAudio: v.boolean(),
});
export type ProbeResult = v.InferOutput<typeof ProbeResult>;

/** GET /health answer: liveness plus the tool versions read at start-up (null = tool missing). */
export const RendererHealth = v.object({
  status: v.literal("ok"),
  service: v.literal("renderer"),
  version: v.string(),
  uptimeSeconds: v.number(),
  /** Admission state: render slots, renders running, jobs waiting for a slot, room for more, renders finished. */
  capacity: v.optional(
    v.object({
      slots: v.number(),
      running: v.number(),
      waiting: v.number(),
      maxWaiting: v.number(),
      /** Renders run to their end since the renderer started. */
      finished: v.optional(v.number()),
    }),
  ),
  tools: v.object({
    ffmpeg: v.nullable(v.string()),
    ffprobe: v.nullable(v.string()),
    chromium: v.nullable(v.string()),
    /**
     * What draws gl-transitions: the native helper's GL as it names it ("llvmpipe (LLVM 15.0.6, 256 bits);
     * OpenGL ES 3.2 Mesa 22.3.6"), null when they are drawn on the WebGL page (no helper built, or
     * GL_TRANSITIONS=page), "not working: <error>" when the helper cannot start its GL. Absent from
     * renderers older than this field.
     */
    glTransitions: v.optional(v.nullable(v.string())),
  }),
});
export type RendererHealth = v.InferOutput<typeof RendererHealth>;

/** Every error answer of the renderer. */
export const RendererError = v.object({ error: v.string() });

/**
 * autoSubtitles' report: the backend that ran (null when the video had no audio), the language, how many words
 * and cues, and a note when there are no captions (no audio, no speech).
 */
export const CaptionsReport = v.object({
  backend: v.nullable(v.picklist(TRANSCRIPTION_BACKENDS)),
  language: v.nullable(v.pipe(v.string(), v.maxLength(20))),
  words: v.pipe(v.number(), v.integer(), v.minValue(0)),
  cues: v.pipe(v.number(), v.integer(), v.minValue(0)),
  note: v.nullable(v.pipe(v.string(), v.maxLength(200))),
});
export type CaptionsReport = v.InferOutput<typeof CaptionsReport>;

/** Whose fault a failed render was (StatusReport.fault). */
export const FAULTS = ["job", "infrastructure", "defect"] as const;
export type Fault = (typeof FAULTS)[number];

/** A renderer's status report (the spec's "Runner status payload"), the body of a signed callback. */
export const StatusReport = v.object({
  jobId: v.pipe(v.string(), v.minLength(1)),
  status: v.picklist(["processing", "completed", "failed", "cancelled"]),
  type: v.picklist(["image", "video"]),
  timestamp: v.pipe(v.string(), v.isoTimestamp()),
  resultUrl: v.optional(v.pipe(v.string(), v.url())),
  error: v.optional(v.string()),
  /** The request's `attempt`, echoed: a report of an older hand-over than the job's latest is ignored. */
  attempt: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  /** The request's `chunk.index`, echoed: the report is about that chunk of a split job, not the job itself. */
  chunk: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_CHUNKS - 1))),
  /**
   * On `failed`: the fault was the infrastructure's, not the job's (a killed encoder, a crashed browser, a renderer
   * shutting down). The Worker hands the job over again, a bounded number of times.
   */
  retryable: v.optional(v.boolean()),
  /**
   * On `failed`: whose fault it was. `job` (the config or its media: permanent, counted against the account's
   * failed-render quota), `infrastructure` (retryable: handed over again) or `defect` (a bug of ours: permanent, not
   * counted against the account; the error carries a reference the renderer logged with its stack). Absent: `job`
   * unless `retryable`.
   */
  fault: v.optional(v.picklist(FAULTS)),
  metadata: v.optional(
    v.object({
      processingTime: v.optional(v.number()),
      fileSize: v.optional(v.number()),
      sessionId: v.optional(v.string()),
      videoDuration: v.optional(v.number()),
      outputWidth: v.optional(v.number()),
      outputHeight: v.optional(v.number()),
      /** While processing: percent done (0..100) and the stage (downloading, rendering, encoding, ...). */
      progress: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(100))),
      stage: v.optional(v.pipe(v.string(), v.maxLength(40))),
      /** autoSubtitles on a completed job: what was heard and drawn (the files are at the job's caption paths). */
      captions: v.optional(CaptionsReport),
    }),
  ),
});
export type StatusReport = v.InferOutput<typeof StatusReport>;
