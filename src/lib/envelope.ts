/**
 * The spec's response envelope: `{ success, data?, message? }` on success,
 * `{ success: false, error, details? }` on error. Every response of the API uses it.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import * as v from "valibot";
import { FieldError } from "@media-render/contract/field-errors";

/** A moment as every answer shows it: ISO 8601 in UTC (`2026-11-21T10:00:00.000Z`). */
export const Timestamp = v.pipe(v.string(), v.isoTimestamp());

/** An entry of `details.errors`: a field error, with its row where a template batch's row caused it. */
const DetailError = v.object({
  ...FieldError.entries,
  row: v.optional(
    v.pipe(v.number(), v.integer(), v.description("The batch row (1-based, a CSV header excluded)")),
  ),
});

const Seconds = v.pipe(v.number(), v.integer(), v.minValue(1));
const Tokens = v.pipe(v.number(), v.integer(), v.minValue(0));

/** The error envelope: every error answer, whatever its status. */
export const ErrorBody = v.object({
  success: v.literal(false),
  error: v.pipe(v.string(), v.description("What went wrong, in a sentence")),
  details: v.optional(
    v.pipe(
      v.objectWithRest(
        {
          errors: v.optional(v.array(DetailError)),
          required: v.optional(v.pipe(Tokens, v.description("402: the tokens the request needs"))),
          available: v.optional(v.pipe(Tokens, v.description("402: the tokens the account may spend now"))),
          owed: v.optional(
            v.pipe(Tokens, v.description("402: tokens of a refunded or disputed purchase still owed")),
          ),
          retryAfter: v.optional(v.pipe(Seconds, v.description("429: seconds to wait (as `Retry-After`)"))),
          failedRenderSeconds: v.optional(
            v.pipe(
              Tokens,
              v.description("429: renderer seconds the account's failed video jobs used in 24 h"),
            ),
          ),
          maxFailedRenderSeconds: v.optional(
            v.pipe(Tokens, v.description("429: the most failed video jobs may use in 24 h")),
          ),
          requestId: v.optional(v.pipe(v.string(), v.description("500: the request, for support"))),
        },
        v.unknown(),
      ),
      v.description(
        "`errors` (field, message, code) for invalid input; otherwise what the status needs " +
          "(`required`/`available`/`owed` tokens, `retryAfter` seconds, `requestId` of a 500...)",
      ),
    ),
  ),
});
export type ErrorBody = v.InferOutput<typeof ErrorBody>;

export const errorBody = (error: string, details?: Record<string, unknown>): ErrorBody =>
  details === undefined
    ? { success: false, error }
    : { success: false, error, details: details as NonNullable<ErrorBody["details"]> };

/** The answer of a delete: which record went. */
export const Deleted = v.object({ id: v.string(), deleted: v.literal(true) });
export type Deleted = v.InferOutput<typeof Deleted>;

/** The success envelope `{ success: true, data, message? }`. */
export const envelope = <T>(data: T, message?: string) =>
  message === undefined ? { success: true as const, data } : { success: true as const, data, message };

/** Answers with `{ success: true, data, message? }`. */
export const ok = <T>(c: Context, data: T, status: ContentfulStatusCode = 200, message?: string) =>
  c.json(envelope(data, message), status);

/** Answers a stored or fresh idempotent answer; a replay says so in `Idempotent-Replayed`. */
export const answer = (c: Context, reply: { status: number; body: unknown; replayed: boolean }) => {
  if (reply.replayed) c.header("Idempotent-Replayed", "true");
  return c.json(reply.body as object, reply.status as ContentfulStatusCode);
};
