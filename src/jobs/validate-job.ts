/**
 * POST /api/v1/jobs/validate: what creating this job would say, without creating it or spending anything.
 * Always a result (never an error status) for a processed request: type and config shape first
 * (INVALID_JOB_TYPE, INVALID_CONFIG_TYPE), then the grammar (VALIDATION_ERROR), then the caller's stored
 * files (FILE_NOT_FOUND at the referencing field) and public URLs the SSRF guard refuses. Valid: the
 * estimate that creation would reserve and every referenced file with its size when it is one of the
 * caller's uploads. Invalid: 0 tokens, no resources. Either way `warnings` names the properties accepted with no
 * effect (an editly option such as `outPath`, code IGNORED_PROPERTY).
 * Public URLs are not fetched here (validation must be cheap and side-effect free), so they carry no size. A
 * `webhookUrl` and `metadata` given with the config are checked as creation checks them.
 */
import { validateJobConfig } from "@media-render/contract/config";
import { catalogueOnline } from "../fonts/online.ts";
import type { CallerCtx } from "../context.ts";
import type { FieldWarning } from "@media-render/contract/field-errors";
import { ValidationFailed, type FieldError } from "../lib/errors.ts";
import { remoteReferenceErrors } from "./import-inputs.ts";
import { videoLengthCap } from "./plan-features.ts";
import { plannedVideo } from "./planned-length.ts";
import { fileReferences, isStoragePath, lookupStoredFiles, missingFileErrors } from "./resolve-inputs.ts";
import type { JobValidation } from "./schemas.ts";
import { callbackUrlErrors } from "../webhooks/job-callbacks.ts";
import { metadataErrors } from "./metadata.ts";

const invalid = (errors: FieldError[], warnings: FieldWarning[]): JobValidation => ({
  isValid: false,
  errors,
  warnings,
  estimatedTokens: 0,
  detectedResources: [],
});

export const validateJob = async (
  ctx: CallerCtx,
  input: { type?: unknown; config?: unknown; webhookUrl?: unknown; metadata?: unknown },
): Promise<JobValidation> => {
  const checked = validateJobConfig(input.type, input.config, { catalogueOnline: catalogueOnline(ctx.env) });
  const { warnings } = checked;
  // A job's webhookUrl and metadata are checked as creation checks them (the URL's name resolved, never fetched).
  const extra = [...metadataErrors(input.metadata), ...(await callbackUrlErrors(ctx, input.webhookUrl))];
  if (!checked.valid || extra.length)
    return invalid([...(checked.valid ? [] : checked.errors), ...extra], warnings);
  const refs = fileReferences(checked.type, checked.config);
  const stored = await lookupStoredFiles(ctx, refs);
  const refused = [...missingFileErrors(refs, stored), ...remoteReferenceErrors(refs)];
  if (refused.length) return invalid(refused, warnings);
  let estimatedTokens = checked.estimatedTokens;
  if (checked.type === "video") {
    // Stored files by their real lengths; public URLs are not fetched here, so theirs is not known yet.
    const durationOf = (ref: string) =>
      isStoragePath(ref) ? (stored.get(ref)?.duration ?? null) : undefined;
    try {
      estimatedTokens = plannedVideo(checked.config, durationOf, await videoLengthCap(ctx)).estimatedTokens;
    } catch (e) {
      if (e instanceof ValidationFailed) return invalid(e.errors, warnings);
      throw e;
    }
  }
  return {
    isValid: true,
    errors: [],
    warnings,
    estimatedTokens,
    detectedResources: checked.resources.map((resource) => {
      const size = stored.get(resource.url)?.size;
      return size === undefined ? resource : { ...resource, size };
    }),
  };
};
