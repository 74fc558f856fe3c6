/**
 * How a route describes itself for the OpenAPI document (`GET /api/v1/user-api/docs`): `describe` next to the
 * handler, with the same valibot schemas that validate the request, and `documented` on the authentication
 * middlewares, so every route behind them carries its security scheme and its 401/403 answers without repeating
 * them. Answers are always the spec's envelope; errors are the shared `Error` response.
 */
import { describeRoute, resolver, uniqueSymbol } from "hono-openapi";
import type { MiddlewareHandler } from "hono";
import type * as v from "valibot";

/** Tags, in the order the docs UI shows them. */
export const TAGS = {
  Jobs: "Render jobs: create, validate, list, read, cancel, live progress",
  Files: "Uploads, metadata, downloads and signed links",
  Tools: "Media tools (durations)",
  Schemas: "JSON Schemas of the job configs",
  Account: "Sign-in and the signed-in account",
  "API keys": "The owner's API keys (session only)",
  Billing: "Plans, usage, the token ledger and payments",
  Webhooks: "v2 render webhooks: signed, retried and dead-lettered deliveries of render events",
  Templates: "v2: templates with variables, batches of rows, bulk ZIP output and manifests",
  Health: "Service health",
} as const;
export type Tag = keyof typeof TAGS;

/** Security schemes of the document (`components.securitySchemes`). */
export const SECURITY_SCHEMES = {
  apiKey: {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description: "An API key (`mrk_...`) from POST /api/v1/api-keys; permissions per resource (media, jobs).",
  },
  session: {
    type: "http",
    scheme: "bearer",
    description: "A session token from POST /api/v1/auth/verify: the account's owner (30 days).",
  },
  sessionCookie: {
    type: "apiKey",
    in: "cookie",
    name: "__Host-mrs_session",
    description:
      "The console's session cookie from POST /api/v1/auth/session. Requests other than GET/HEAD also need this origin's `Origin` and the session's `x-csrf-token` (GET /api/v1/auth/session).",
  },
  signedLink: {
    type: "apiKey",
    in: "query",
    name: "signature",
    description: "A signed download link from POST /api/v1/files/{fileId}/link (with its `expires`).",
  },
} as const;

type Status = 200 | 201 | 202 | 204 | 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 503;

/** The error envelope, shared by every error answer. */
export const ERROR_RESPONSE = {
  description: "Error envelope: `success: false`, `error` (a sentence), `details` (codes, field errors)",
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["success", "error"],
        properties: {
          success: { const: false },
          error: { type: "string" },
          details: { type: "object", additionalProperties: true },
        },
      },
    },
  },
} as const;

const ERROR_TEXT: Record<number, string> = {
  400: "Invalid input (`details.errors`: field, message, code)",
  401: "Missing or invalid credential",
  402: "Not enough tokens (`details.required`, `details.available`)",
  403: "The credential lacks the permission or scope",
  404: "Not found, or not yours",
  409: "Conflict (an Idempotency-Key reused with another request, or a state that forbids it)",
  410: "Gone (expired)",
  413: "Body too large",
  415: "Wrong Content-Type",
  422: "The media could not be processed",
  429: "Rate or concurrency limit (`Retry-After`)",
  503: "Temporarily unavailable",
};

const errorRef = (status: number) => ({
  description: ERROR_TEXT[status] ?? "Error",
  $ref: "#/components/responses/Error",
});

/** A success answer: the envelope with `data` as `data` describes (a valibot schema or a JSON Schema). */
const success = (
  description: string,
  data?: v.GenericSchema | Record<string, unknown>,
  example?: unknown,
) => ({
  description,
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["success", "data"],
        properties: {
          success: { const: true },
          data: data === undefined ? { type: "object" } : isValibot(data) ? resolver(data) : data,
          message: { type: "string" },
        },
      },
      ...(example === undefined ? {} : { example: { success: true, data: example } }),
    },
  },
});

const isValibot = (s: object): s is v.GenericSchema => "~standard" in s && "kind" in s;

export interface RouteDoc {
  tag: Tag;
  summary: string;
  description?: string;
  /**
   * The body: the valibot schema the handler validates with, a JSON Schema generated from the valibot schemas
   * the handler's verb validates with (`json`), or the fields of a multipart form.
   */
  body?: v.GenericSchema | { json: Record<string, unknown> } | { multipart: Record<string, unknown> };
  /** An example request body (run by test/worker/docs.test.ts). */
  bodyExample?: unknown;
  /** Query string schema (the one the handler validates with). */
  query?: v.GenericSchema;
  /** Path parameters with a narrower schema than "a string" (others are added as strings). */
  parameters?: { name: string; in: "path"; required: true; schema: Record<string, unknown> }[];
  /** The success status and what it carries. */
  ok: {
    status: Status;
    description: string;
    data?: v.GenericSchema | Record<string, unknown>;
    example?: unknown;
  };
  /** Other answers beyond those the authentication middleware documents. */
  errors?: Status[];
  /** Not a JSON answer (a file, an event stream, a page): its media type. */
  produces?: string;
  /** No credential at all (public routes). */
  public?: boolean;
}

/** Describes one route. */
export const describe = (d: RouteDoc): MiddlewareHandler =>
  describeRoute(operation(d) as DescribeRouteOptions);

type DescribeRouteOptions = Parameters<typeof describeRoute>[0];

const operation = (d: RouteDoc) => ({
  tags: [d.tag],
  summary: d.summary,
  ...(d.description ? { description: d.description } : {}),
  ...(d.public ? { security: [] } : {}),
  ...(d.body
    ? {
        requestBody: {
          required: true,
          content:
            "multipart" in d.body
              ? { "multipart/form-data": { schema: { type: "object", properties: d.body.multipart } } }
              : {
                  "application/json": {
                    schema: "json" in d.body ? d.body.json : resolver(d.body),
                    ...(d.bodyExample === undefined ? {} : { example: d.bodyExample }),
                  },
                },
        },
      }
    : {}),
  ...(d.query || d.parameters
    ? { parameters: [...(d.parameters ?? []), ...(d.query ? queryParameters(d.query) : [])] }
    : {}),
  responses: {
    [d.ok.status]: d.produces
      ? { description: d.ok.description, content: { [d.produces]: {} } }
      : success(d.ok.description, d.ok.data, d.ok.example),
    ...Object.fromEntries((d.errors ?? []).map((s) => [s, errorRef(s)])),
  },
});

/** Query parameters from an object schema's entries (all strings on the wire). */
const queryParameters = (schema: v.GenericSchema) => {
  const entries = (schema as unknown as { entries?: Record<string, v.GenericSchema> }).entries ?? {};
  return Object.entries(entries).map(([name, entry]) => ({
    name,
    in: "query" as const,
    required: !(entry.type === "optional" || entry.type === "nullish" || entry.type === "exact_optional"),
    schema: { type: "string" as const },
    ...(descriptionOf(entry) ? { description: descriptionOf(entry) } : {}),
  }));
};

const descriptionOf = (schema: v.GenericSchema): string | undefined =>
  (schema as unknown as { pipe?: { type: string; description?: string }[] }).pipe?.find(
    (p) => p.type === "description",
  )?.description;

/**
 * An authentication middleware that documents itself: the routes behind it get `security` and the answers it
 * gives (401, and 403 where it checks permissions or refuses keys).
 */
export const documented = <M extends MiddlewareHandler>(
  middleware: M,
  doc: { security?: Record<string, string[]>[]; errors: Status[] },
): M =>
  Object.assign(middleware, {
    [uniqueSymbol]: {
      spec: {
        ...(doc.security ? { security: doc.security } : {}),
        responses: Object.fromEntries(doc.errors.map((s) => [s, errorRef(s)])),
      },
    },
  });
