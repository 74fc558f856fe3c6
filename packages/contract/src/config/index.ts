/**
 * Render config grammar: the one source of truth for request validation, the served JSON Schemas, token
 * estimation, resource detection and the renderers' view of a config.
 */
import * as v from "valibot";
import { fieldPath, toFieldErrors, type FieldError, type FieldWarning } from "../field-errors.ts";
import { catalogFontIssue } from "../fonts/catalog.ts";
import {
  catalogFontFields,
  hostedFontFields,
  MAX_HOSTED_FONTS_PER_JOB,
  type FontField,
} from "../fonts/hosted.ts";
import { HostedCatalogFont } from "./common.ts";
import { estimateTokens, outputFormatOf } from "./estimate.ts";
import { HostedImageConfigSchema, ImageConfigSchema, type ImageConfig } from "./image.ts";
import { JOB_TYPES, type JobType } from "./job-type.ts";
import { detectResources, type DetectedResource } from "./resources.ts";
import { VideoConfigSchema, type VideoConfig } from "./video.ts";
import { configWarnings } from "./warnings.ts";

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
export * as prices from "./prices.ts";
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
      warnings: FieldWarning[];
    }
  | {
      valid: true;
      type: "video";
      config: VideoConfig;
      estimatedTokens: number;
      resources: DetectedResource[];
      outputFormat: string;
      warnings: FieldWarning[];
    };

/** A refused config: its errors, and the warnings it would carry once they are fixed. */
export type JobConfigResult =
  | ValidJobConfig
  | { valid: false; errors: FieldError[]; warnings: FieldWarning[] };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export interface ValidateOptions {
  /** The hosted font catalogue is on: `googleFont` may name families the bundle lacks. */
  catalogueOnline?: boolean;
}

/**
 * Checks a job request's `type` and `config`, in this order: the type (`INVALID_JOB_TYPE` on field
 * `type`), that the config is an object (`INVALID_CONFIG_TYPE` on field `config`), then the grammar
 * (`VALIDATION_ERROR`, one entry per problem, fields like `config.layers[2].width`). `warnings` name the
 * properties accepted with no effect (`IGNORED_PROPERTY`, warnings.ts).
 */
export const validateJobConfig = (
  type: unknown,
  config: unknown,
  options: ValidateOptions = {},
): JobConfigResult => {
  if (typeof type !== "string" || !(JOB_TYPES as readonly string[]).includes(type)) {
    return {
      valid: false,
      errors: [{ field: "type", message: 'type must be "image" or "video"', code: "INVALID_JOB_TYPE" }],
      warnings: [],
    };
  }
  if (!isObject(config)) {
    return {
      valid: false,
      errors: [{ field: "config", message: "config must be an object", code: "INVALID_CONFIG_TYPE" }],
      warnings: [],
    };
  }
  const jobType = type as JobType;
  const warnings = configWarnings(jobType, config);
  if (jobType === "image") {
    const schema = options.catalogueOnline ? HostedImageConfigSchema : ImageConfigSchema;
    const parsed = v.safeParse(schema, config);
    if (!parsed.success) return { valid: false, errors: toFieldErrors(parsed.issues, "config"), warnings };
    return {
      valid: true,
      type: "image",
      config: parsed.output,
      estimatedTokens: estimateTokens("image", parsed.output),
      resources: detectResources("image", parsed.output),
      outputFormat: outputFormatOf("image", parsed.output),
      warnings,
    };
  }
  const parsed = v.safeParse(VideoConfigSchema, config);
  const fontErrors = videoFontErrors(config, options.catalogueOnline ?? false);
  if (!parsed.success || fontErrors.length) {
    const errors = parsed.success ? [] : toFieldErrors(parsed.issues, "config");
    const named = new Set(errors.map((e) => e.field));
    return { valid: false, errors: [...errors, ...fontErrors.filter((e) => !named.has(e.field))], warnings };
  }
  return {
    valid: true,
    type: "video",
    config: parsed.output,
    estimatedTokens: estimateTokens("video", parsed.output),
    resources: detectResources("video", parsed.output),
    outputFormat: outputFormatOf("video", parsed.output),
    warnings,
  };
};

/**
 * The video grammar takes any `googleFont` of the right form (one grammar for both settings, and the renderer's):
 * here, at the field as written, a font the bundle lacks while the hosted catalogue is off (the bundle's families or
 * weights listed), and past MAX_HOSTED_FONTS_PER_JOB distinct fonts outside the bundle while it is on. Whether the
 * hosted catalogue has a font is its answer when the job is handed to a renderer, as for image jobs.
 */
const videoFontErrors = (config: Record<string, unknown>, online: boolean): FieldError[] => {
  const wellFormed = catalogFontFields(config).filter((f) => v.is(HostedCatalogFont, f.value));
  const error = (font: FontField, message: string): FieldError => ({
    field: fieldPath(font.path, "config"),
    message,
    code: "VALIDATION_ERROR",
  });
  if (!online)
    return wellFormed.flatMap((font) => {
      const issue = catalogFontIssue(font.value, false);
      return issue ? [error(font, issue)] : [];
    });
  return hostedFontFields(wellFormed)
    .slice(MAX_HOSTED_FONTS_PER_JOB)
    .map((font) =>
      error(
        font,
        `a video job may use at most ${MAX_HOSTED_FONTS_PER_JOB} catalogue fonts outside the bundled families; "${font.value}" is one more`,
      ),
    );
};
