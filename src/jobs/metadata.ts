/**
 * A job's `metadata`: the caller's own JSON object (an order id, a row key), stored with the job and echoed back
 * on it, in every render event and webhook payload of it and in its event stream, so an automation can match an
 * event to its own records without keeping a table of job ids. Bounded, so a small request never buys a large
 * event body (webhook bodies are at most 64 KiB: src/webhooks/limits.ts).
 */
import type { FieldError } from "../lib/errors.ts";

/** Largest `metadata`, as UTF-8 bytes of its JSON. */
export const MAX_METADATA_BYTES = 4096;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The field errors of `metadata` (absent is fine): not a JSON object (`VALIDATION_ERROR`), or larger than
 * MAX_METADATA_BYTES (`METADATA_TOO_LARGE`).
 */
export const metadataErrors = (metadata: unknown): FieldError[] => {
  if (metadata === undefined) return [];
  if (!isObject(metadata))
    return [{ field: "metadata", message: "metadata must be a JSON object", code: "VALIDATION_ERROR" }];
  const bytes = new TextEncoder().encode(JSON.stringify(metadata)).byteLength;
  return bytes > MAX_METADATA_BYTES
    ? [
        {
          field: "metadata",
          message: `metadata is ${bytes} bytes as JSON; at most ${MAX_METADATA_BYTES}`,
          code: "METADATA_TOO_LARGE",
        },
      ]
    : [];
};
