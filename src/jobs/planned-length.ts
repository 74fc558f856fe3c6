/**
 * The length a video job will render, from its config and the durations of its stored input files: what the length
 * cap, the token estimate and the renderer's hard limit (RenderVideoRequest.limits) all use. A clip without its
 * own `duration` lasts as long as its first video layer plays; without `cutTo` that is its file's length, which
 * the Worker knows for every stored file. A file whose length is unknown cannot size its clip: that is refused
 * at the field, never guessed (a guess let an hours-long upload render for the price of 4 s).
 */
import * as v from "valibot";
import { limits, outputFormatOf, type VideoConfig } from "@media-render/contract/config";
import { videoJobTokens } from "@media-render/contract/config/estimate";
import { renderedSeconds } from "@media-render/contract/config/outputs";
import { applyLayerDefaults } from "@media-render/contract/config/rules";
import {
  chunksForDeadline,
  glWorkFits,
  MAX_DEADLINE_SECONDS,
  renderWork,
  videoDeadlineSeconds,
} from "@media-render/contract/deadline";
import { buildTimeline, cutLength, playableLength, type Timeline } from "@media-render/contract/timeline";
import { TimelineSchema } from "@media-render/contract/wire";
import { MAX_CHUNKS, partWindow, splittable } from "@media-render/contract/windows";
import { ValidationFailed, type FieldError } from "../lib/errors.ts";

/**
 * Seconds of a stored file by the reference a config uses for it; null when the file's length is unknown (refused
 * where it sizes a clip); undefined when it cannot be known yet (a public URL at validation, before its import):
 * then the clip counts as its cut or the default, as the grammar alone says.
 */
export type DurationOf = (reference: string) => number | null | undefined;

/** The timeline as rendered; throws ValidationFailed naming each clip whose length cannot be known. */
export const plannedTimeline = (config: VideoConfig, durationOf: DurationOf): Timeline => {
  const refused: FieldError[] = [];
  config.clips.forEach((clip, clipIndex) => {
    clip.layers.forEach((raw, i) => {
      if (raw.type === "image" || raw.type === "image-overlay") {
        // A frame of a stored video past its end: no frame to show.
        const layer = applyLayerDefaults(config.defaults, raw);
        const length = layer.frameTime === undefined ? null : durationOf(layer.path);
        if (length && layer.frameTime! >= length)
          refused.push({
            field: `config.clips[${clipIndex}].layers[${i}].frameTime`,
            message: `is ${layer.frameTime} s, at or after the end of this video (${Math.round(length * 100) / 100} s long)`,
            code: "CUT_OUTSIDE_FILE",
          });
        return;
      }
      if (raw.type !== "video") return;
      const layer = applyLayerDefaults(config.defaults, raw);
      const length = durationOf(layer.path);
      // A cut past the end of the file has no frame to show.
      if (length && (layer.cutFrom ?? 0) >= length)
        refused.push({
          field: `config.clips[${clipIndex}].layers[${i}].cutFrom`,
          message: `starts at ${layer.cutFrom} s, at or after the end of this video (${Math.round(length * 100) / 100} s long)`,
          code: "CUT_OUTSIDE_FILE",
        });
    });
    if (clip.duration !== undefined) return;
    const index = clip.layers.findIndex((l) => l.type === "video");
    if (index < 0) return;
    const layer = applyLayerDefaults(config.defaults, clip.layers[index]!) as {
      path?: string;
      cutTo?: number;
    };
    if (layer.cutTo === undefined && layer.path !== undefined && durationOf(layer.path) === null)
      refused.push({
        field: `config.clips[${clipIndex}].layers[${index}].path`,
        message:
          "the length of this video is unknown, so the clip's length is too: give the clip a duration or the layer a cutTo",
        code: "UNKNOWN_DURATION",
      });
  });
  if (refused.length) throw new ValidationFailed(refused);
  return buildTimeline(config, {
    videoLength: (layer) => {
      const seconds = layer.path === undefined ? null : durationOf(layer.path);
      return seconds == null ? cutLength(layer) : playableLength(layer, seconds);
    },
  });
};

const gigapixels = (pixels: number) => `${Math.round(pixels / 1e8) / 10} billion`;

/**
 * A video job's plan, computed once at creation and stored with it (jobs.plan): the timeline with the files' real
 * lengths, which dispatch, chunking and every render of the job use as it is; the seconds it renders; the tokens
 * reserved; and the render deadline.
 */
export const VideoPlanSchema = v.object({
  timeline: TimelineSchema,
  seconds: v.pipe(v.number(), v.minValue(0)),
  estimatedTokens: v.pipe(v.number(), v.integer(), v.minValue(0)),
  deadlineSeconds: v.pipe(v.number(), v.integer(), v.minValue(1)),
});
export type VideoPlan = v.InferOutput<typeof VideoPlanSchema>;

/**
 * The length cap (an hour, 300 s on the free plan: `cap`), the GL budget and the estimate of a video job, with real
 * file lengths; and its render deadline (packages/contract/src/deadline.ts), for the frames it composes: its plan.
 */
export const plannedVideo = (
  config: VideoConfig,
  durationOf: DurationOf,
  /** The longest output the account's plan allows (seconds) and the plan's name for the message. */
  cap: { seconds: number; plan?: string } = { seconds: limits.VIDEO_MAX_DURATION },
): VideoPlan => {
  const timeline = plannedTimeline(config, durationOf);
  // A still or a preview composes only its window of the timeline: its deadline and GL drawing are its frames'.
  const window = partWindow(config, timeline);
  const work = renderWork(config, timeline, window);
  if (timeline.duration > cap.seconds + 1e-9)
    throw new ValidationFailed([
      {
        field: "config.clips",
        message: `the video would last ${Math.round(timeline.duration * 100) / 100} s with its files' real lengths; at most ${cap.seconds} s are allowed${cap.plan ? ` on the ${cap.plan} plan (${limits.VIDEO_MAX_DURATION} s on paid plans)` : ""}`,
        code: "VALIDATION_ERROR",
      },
    ]);
  if (!glWorkFits(work))
    throw new ValidationFailed([
      {
        field: "config",
        message: `the video would draw ${gigapixels(work.glPixels)} pixels with software GL (its gl layers and transitions drawn by their shader: their frames x ${work.width} x ${work.height}); at most ${gigapixels(limits.VIDEO_MAX_GL_PIXELS)} fit in one render: use a smaller size, a lower fps, shorter clips, or fewer gl layers and shader transitions`,
        code: "GL_WORK_TOO_LARGE",
      },
    ]);
  if (!window) assertRenderable(config, timeline, work);
  return {
    timeline,
    seconds: timeline.duration,
    estimatedTokens: videoJobTokens(config, renderedSeconds(config, timeline.duration)),
    deadlineSeconds: videoDeadlineSeconds(work),
  };
};

/**
 * A whole video longer to render than the longest render (MAX_DEADLINE_SECONDS) renders as chunks, each within it
 * (src/jobs/chunks.ts): refused here when its output cannot be split or even MAX_CHUNKS chunks would not fit.
 */
const assertRenderable = (
  config: VideoConfig,
  timeline: Timeline,
  size: { width: number; height: number },
): void => {
  const needed = chunksForDeadline(config, timeline);
  if (needed === 1) return;
  const format = outputFormatOf("video", config);
  const why = !splittable(config, format)
    ? `a ${config.alpha ? "transparent video" : format} renders in one piece`
    : needed > MAX_CHUNKS
      ? `not even split into ${MAX_CHUNKS} parts`
      : null;
  if (why === null) return;
  throw new ValidationFailed([
    {
      field: "config",
      message: `the video is too long for its size to render within ${MAX_DEADLINE_SECONDS} s (${timeline.duration} s at ${size.width}x${size.height}, ${timeline.fps} fps), and ${why}: use mp4 or mov, a smaller size, a lower fps or a shorter video`,
      code: "VALIDATION_ERROR",
    },
  ]);
};
