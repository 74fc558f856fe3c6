/**
 * valibot at the HTTP boundary: JSON bodies and query strings parsed into typed values, failures thrown
 * as ValidationFailed so they reach the client in the spec's envelope with field paths.
 */
import type { Context } from "hono";
import * as v from "valibot";
import { toFieldErrors } from "@media-render/contract/field-errors";
import { readTextBounded } from "./body.ts";
import { UnsupportedMediaType, ValidationFailed } from "./errors.ts";
import { MAX_JSON_DEPTH, tooDeep } from "./json-depth.ts";

/** Maximum JSON request body. Html layers may carry 100 KB of markup each (5 per job), so allow headroom. */
export const MAX_JSON_BYTES = 1024 * 1024;

/** Parses `input` with `schema` or throws ValidationFailed listing every issue. */
export const parseOrThrow = <S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  prefix?: string,
): v.InferOutput<S> => {
  const result = v.safeParse(schema, input);
  if (!result.success) throw new ValidationFailed(toFieldErrors(result.issues, prefix));
  return result.output;
};

/** 400 when `text` nests deeper than MAX_JSON_DEPTH (checked on the raw text, before anything parses it). */
export const refuseTooDeep = (text: string): void => {
  if (!tooDeep(text)) return;
  const message = `JSON body nested deeper than ${MAX_JSON_DEPTH} levels`;
  throw new ValidationFailed([{ field: "body", message, code: "JSON_TOO_DEEP" }], message);
};

/**
 * A request body's text as JSON: 400 when it nests deeper than MAX_JSON_DEPTH or is malformed. The one parser of
 * every JSON request body (readJson, batch bodies, the renderer's callbacks).
 */
export const parseJsonText = (text: string): unknown => {
  refuseTooDeep(text);
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationFailed(
      [{ field: "body", message: "Malformed JSON body", code: "INVALID_JSON" }],
      "Malformed JSON body",
    );
  }
};

/** Whether a Content-Type header names JSON (`application/json` or `application/*+json`). */
export const isJsonType = (type: string | undefined): boolean =>
  /^application\/(.+\+)?json\b/i.test(type ?? "");

/**
 * Reads the request body as JSON: 415 for another content type, 413 when too large, 400 when malformed or nested
 * deeper than MAX_JSON_DEPTH.
 */
export const readJson = async (c: Context): Promise<unknown> => {
  if (!isJsonType(c.req.header("content-type")))
    throw new UnsupportedMediaType("Content-Type must be application/json");
  return parseJsonText(await readTextBounded(c.req.raw, MAX_JSON_BYTES));
};

/** Reads and validates a JSON body in one step. */
export const jsonBody = async <S extends v.GenericSchema>(c: Context, schema: S): Promise<v.InferOutput<S>> =>
  parseOrThrow(schema, await readJson(c));

/** Validates the query string (all values are strings; schemas coerce). */
export const queryParams = <S extends v.GenericSchema>(c: Context, schema: S): v.InferOutput<S> =>
  parseOrThrow(schema, c.req.query());

/**
 * The query of a route that takes none (the public reads): an unknown parameter is a 400 naming it, as a misspelt
 * parameter is anywhere else, rather than being silently ignored.
 */
export const NoQuery = v.strictObject({}, "This route takes no query parameters");

/** An optional whole-number query parameter between `min` and `max` (query values arrive as strings). */
export const queryInt = (name: string, min: number, max: number, fallback: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.toNumber(`${name} must be a number`),
      v.integer(`${name} must be a whole number`),
      v.minValue(min, `${name} must be at least ${min}`),
      v.maxValue(max, `${name} must be at most ${max}`),
    ),
    String(fallback),
  );
