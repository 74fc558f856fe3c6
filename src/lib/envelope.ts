/**
 * The spec's response envelope: `{ success, data?, message? }` on success,
 * `{ success: false, error, details? }` on error. Every response of the API uses it.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export interface ErrorBody {
  success: false;
  error: string;
  details?: Record<string, unknown>;
}

export const errorBody = (error: string, details?: Record<string, unknown>): ErrorBody =>
  details === undefined ? { success: false, error } : { success: false, error, details };

/** The success envelope `{ success: true, data, message? }`. */
export const envelope = <T>(data: T, message?: string) =>
  message === undefined ? { success: true as const, data } : { success: true as const, data, message };

/** Answers with `{ success: true, data, message? }`. */
export const ok = <T>(c: Context, data: T, status: ContentfulStatusCode = 200, message?: string) =>
  c.json(envelope(data, message), status);

/** Answers a stored or fresh idempotent answer; a replay says so in `Idempotent-Replayed`. */
export const answer = (c: Context, a: { status: number; body: unknown; replayed: boolean }) => {
  if (a.replayed) c.header("Idempotent-Replayed", "true");
  return c.json(a.body as object, a.status as ContentfulStatusCode);
};
