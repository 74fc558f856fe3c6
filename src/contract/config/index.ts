/**
 * Render config grammar: the one source of truth for request validation, the served JSON Schemas, token
 * estimation, resource detection and the renderers' view of a config.
 */
import * as v from "valibot";
import { toFieldErrors, type FieldError } from "../field-errors.ts";
import { estimateTokens, outputFormatOf } from "./estimate.ts";
import { HostedImageConfigSchema, ImageConfigSchema, type ImageConfig } from "./image.ts";
import { JOB_TYPES, type JobType } from "./job-type.ts";
import { detectResources, type DetectedResource } from "./resources.ts";
import { VideoConfigSchema, type VideoConfig } from "./video.ts";

export { estimateTokens, outputFormatOf } from "./estimate.ts";
export {
  HostedImageConfigSchema,
  ImageConfigSchema,
  ImageLayerSchema,
  type ImageConfig,
  type ImageLayer,
} from "./image.ts";
export { type JobType } from "./job-type.ts";
export * as limits from "./limits.ts";
export {
  detectResources,
  forEachFileReference,
  type DetectedResource,
  type FileReference,
} from "./resources.ts";
export { applyLayerDefaults } from "./rules.ts";
export { AUDIO_CURVES, TRANSITION_NAMES } from "./transitions.ts";
export { VideoConfigSchema, VideoLayerSchema, type VideoConfig } from "./video.ts";

type ValidJobConfig =
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
export interface ValidateOptions {
  /** The hosted font catalogue is on: image `catalogFont` may name families the bundle lacks. */
  catalogueOnline?: boolean;
}

export function validateJobConfig(
  type: unknown,
  config: unknown,
  options: ValidateOptions = {},
): JobConfigResult {
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
    const schema = options.catalogueOnline ? HostedImageConfigSchema : ImageConfigSchema;
    const parsed = v.safeParse(schema, config);
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
