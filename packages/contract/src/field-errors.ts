/**
 * Field-level errors and warnings as the API reports them (`details.errors[{ field, message, code }]`,
 * `data.warnings[{ field, message, code }]`), as valibot schemas (one shape for handlers, serializers and the
 * API document), and the turning of valibot issues into errors. Shared by request validation in the Worker
 * and request parsing in the renderer.
 */
import * as v from "valibot";

/** One problem with one field of the input, as it appears in `details.errors` (and in validate's `errors`). */
export const FieldError = v.object({
  /** e.g. `config.layers[2].width`; absent when the problem is the whole input. */
  field: v.optional(v.string()),
  message: v.string(),
  /** e.g. `VALIDATION_ERROR`, `FILE_NOT_FOUND`. */
  code: v.optional(v.string()),
});
export type FieldError = v.InferOutput<typeof FieldError>;

/**
 * Codes of `warnings` entries. `IGNORED_PROPERTY`: the property is accepted (editly carries it) but changes
 * nothing here, so the output is what it would be without it.
 */
export const WARNING_CODES = ["IGNORED_PROPERTY"] as const;

/**
 * A note about an accepted input (`data.warnings` of job validation and creation): the job is valid and
 * renders, but a field does not do what its writer may expect.
 */
export const FieldWarning = v.object({
  /** e.g. `config.fast`. */
  field: v.string(),
  message: v.string(),
  code: v.picklist(WARNING_CODES),
});
export type FieldWarning = v.InferOutput<typeof FieldWarning>;

/** Turns a valibot issue path into `config.layers[2].width` (`prefix` goes in front). */
export const issuePath = (issue: v.BaseIssue<unknown>, prefix?: string): string | undefined =>
  fieldPath(issue.path?.map((p) => p.key) ?? [], prefix);

/** Keys from a root (`["layers", 2, "width"]`) as a field name, `layers[2].width`, `prefix` in front. */
export const fieldPath = (keys: readonly unknown[], prefix?: string): string | undefined => {
  let out = prefix ?? "";
  for (const key of keys) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || undefined;
};

/** One `VALIDATION_ERROR` entry per issue, fields prefixed with `prefix`. */
export const toFieldErrors = (issues: readonly v.BaseIssue<unknown>[], prefix?: string): FieldError[] =>
  issues.map((issue) => ({
    field: issuePath(issue, prefix),
    message: issue.message,
    code: "VALIDATION_ERROR",
  }));
