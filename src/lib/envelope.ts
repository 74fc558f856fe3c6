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

/** Answers with `{ success: true, data, message? }`. */
export const ok = <T>(c: Context, data: T, status: ContentfulStatusCode = 200, message?: string) =>
  c.json(message === undefined ? { success: true, data } : { success: true, data, message }, status);
