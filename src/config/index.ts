/**
 * Render config grammar: the one source of truth for request validation, the served JSON Schemas, token
 * estimation, resource detection and the renderers' view of a config.
 */
import * as v from "valibot";
import type { FieldError } from "../lib/errors";
import { toFieldErrors } from "../lib/validate";
import { estimateTokens, outputFormatOf } from "./estimate";
import { ImageConfigSchema, type ImageConfig } from "./image";
import { JOB_TYPES, type JobType } from "./job-type";
import { detectResources, type DetectedResource } from "./resources";
import { VideoConfigSchema, type VideoConfig } from "./video";

export { estimateTokens, outputFormatOf } from "./estimate";
export { FILE_EXTENSIONS, kindOfReference, type FileKind } from "./file-ref";
export {
  IMAGE_FORMATS,
  ImageConfigSchema,
  ImageLayerSchema,
  type ImageConfig,
  type ImageLayer,
} from "./image";
export { JOB_TYPES, type JobType } from "./job-type";
export * as limits from "./limits";
export {
  detectResources,
  forEachFileReference,
  type DetectedResource,
  type FileReference,
} from "./resources";
export { applyLayerDefaults } from "./rules";
export { clipDuration, timeline, type ClipTiming, type ResolvedTransition, type Timeline } from "./timeline";
export { AUDIO_CURVES, TRANSITION_NAMES, type Transition, type TransitionName } from "./transitions";
export {
  evenDimension,
  GlobalLayerSchema,
  VIDEO_FORMATS,
  VideoConfigSchema,
  VideoLayerSchema,
  type Clip,
  type GlobalLayer,
  type VideoConfig,
  type VideoLayer,
} from "./video";

export type ValidJobConfig =
  | {
      valid: true;
      type: "image";
      config: ImageConfig;
      estimatedTokens: number;
      resources: DetectedResource[];
      outputFormat: string;
    }
  | {
      valid: true;
      type: "video";
      config: VideoConfig;
      estimatedTokens: number;
      resources: DetectedResource[];
      outputFormat: string;
    };

export type JobConfigResult = ValidJobConfig | { valid: false; errors: FieldError[] };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Checks a job request's `type` and `config`, in this order: the type (`INVALID_JOB_TYPE` on field
 * `type`), that the config is an object (`INVALID_CONFIG_TYPE` on field `config`), then the grammar
 * (`VALIDATION_ERROR`, one entry per problem, fields like `config.layers[2].width`).
 */
export function validateJobConfig(type: unknown, config: unknown): JobConfigResult {
  if (typeof type !== "string" || !(JOB_TYPES as readonly string[]).includes(type)) {
    return {
      valid: false,
      errors: [{ field: "type", message: 'type must be "image" or "video"', code: "INVALID_JOB_TYPE" }],
    };
  }
  if (!isObject(config)) {
    return {
      valid: false,
      errors: [{ field: "config", message: "config must be an object", code: "INVALID_CONFIG_TYPE" }],
    };
  }
  const jobType = type as JobType;
  if (jobType === "image") {
    const parsed = v.safeParse(ImageConfigSchema, config);
    if (!parsed.success) return { valid: false, errors: toFieldErrors(parsed.issues, "config") };
    return {
      valid: true,
      type: "image",
      config: parsed.output,
      estimatedTokens: estimateTokens("image", parsed.output),
      resources: detectResources("image", parsed.output),
      outputFormat: outputFormatOf("image", parsed.output),
    };
  }
  const parsed = v.safeParse(VideoConfigSchema, config);
  if (!parsed.success) return { valid: false, errors: toFieldErrors(parsed.issues, "config") };
  return {
    valid: true,
    type: "video",
    config: parsed.output,
    estimatedTokens: estimateTokens("video", parsed.output),
    resources: detectResources("video", parsed.output),
    outputFormat: outputFormatOf("video", parsed.output),
  };
}
