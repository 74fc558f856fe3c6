/**
 * Maps every thrown error to the spec's envelope. Unknown errors are logged with the request id and
 * answered with a generic 500 (never a stack trace).
 */
import type { ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../app-env.ts";
import { errorBody } from "./envelope.ts";
import {
  ConcurrencyLimit,
  Conflict,
  DomainError,
  FailedRenderQuota,
  Forbidden,
  Gone,
  InsufficientTokens,
  InvalidState,
  NotFound,
  PayloadTooLarge,
  PlanRequired,
  RateLimited,
  Unauthorized,
  UnprocessableMedia,
  UnsupportedMediaType,
  UpstreamFailure,
  ValidationFailed,
} from "./errors.ts";

const STATUS: ReadonlyArray<[new (...args: never[]) => DomainError, ContentfulStatusCode]> = [
  [ValidationFailed, 400],
  [InvalidState, 400],
  [Unauthorized, 401],
  [InsufficientTokens, 402],
  [PlanRequired, 402],
  [Forbidden, 403],
  [NotFound, 404],
  [Conflict, 409],
  [Gone, 410],
  [PayloadTooLarge, 413],
  [UnsupportedMediaType, 415],
  [UnprocessableMedia, 422],
  [RateLimited, 429],
  [ConcurrencyLimit, 429],
  [FailedRenderQuota, 429],
  [UpstreamFailure, 502],
];

export const statusOf = (error: DomainError): ContentfulStatusCode =>
  STATUS.find(([cls]) => error instanceof cls)?.[1] ?? 500;

export const onError: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof DomainError) {
    const status = statusOf(err);
    if (err instanceof RateLimited || err instanceof FailedRenderQuota)
      c.header("Retry-After", String(err.details?.retryAfter ?? 60));
    return c.json(errorBody(err.message, err.details), status);
  }
  if (err instanceof HTTPException) {
    // Raised by Hono middleware (e.g. bodyLimit): keep its status, use our envelope.
    const status = err.status as ContentfulStatusCode;
    const message = status === 413 ? "Request body too large" : err.message || "Request failed";
    return c.json(errorBody(message), status);
  }
  console.error(
    JSON.stringify({
      level: "error",
      requestId: c.get("requestId"),
      error: String(err),
      stack: (err as Error)?.stack,
    }),
  );
  return c.json(errorBody("Internal server error", { requestId: c.get("requestId") }), 500);
};

export const notFound: NotFoundHandler<AppEnv> = (c) =>
  c.json(errorBody("Not found", { path: new URL(c.req.url).pathname, method: c.req.method }), 404);
