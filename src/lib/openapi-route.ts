/**
 * How a route describes itself: for the OpenAPI document (`GET /api/v1/user-api/docs`), for the rate limiter (the
 * limits its requests count against) and for the MCP server (the tools it is exposed as), so everything about a
 * route is said in its file (src/lib/declared-routes.ts reads it back). `describe` next to the
 * handler, with the same valibot schemas that validate the request and that type the answer (the serializer's or
 * verb's output schema), and `documented` on the authentication middlewares, so every route behind them carries
 * its security scheme and its 401/403/429 answers without repeating them. JSON answers are the spec's envelope
 * around `data`; every error is the shared error envelope (`ErrorBody`), one response per status
 * (`components.responses`). valibot schemas stay valibot here (`PendingSchema`): openapi.ts converts them when it
 * builds the document, so a route costs nothing at start-up.
 */
import { describeRoute, uniqueSymbol } from "hono-openapi";
import { findTargetHandler } from "hono/utils/handler";
import type { MiddlewareHandler } from "hono";
import * as v from "valibot";
import type { RouteRateLimit } from "./rate-limit.ts";
import type { RouteTool } from "./route-tool.ts";

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
  Destinations: "v2 storage connections: the S3-compatible buckets jobs upload their outputs to",
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

type SuccessStatus = 200 | 201 | 202 | 206 | 304;
export type ErrorStatus =
  | 400
  | 401
  | 402
  | 403
  | 404
  | 409
  | 410
  | 413
  | 415
  | 416
  | 422
  | 429
  | 500
  | 502
  | 503;

/** Each error status: its shared response (`#/components/responses/<name>`) and what it means here. */
export const ERRORS: Record<ErrorStatus, { name: string; description: string }> = {
  400: { name: "BadRequest", description: "Invalid input (`details.errors`: field, message, code)" },
  401: { name: "Unauthorized", description: "Missing or invalid credential" },
  402: {
    name: "PaymentRequired",
    description:
      "Not enough tokens (`details.required`, `details.available`; `details.owed` while the account owes tokens " +
      "of a refunded or disputed purchase), or a feature the plan lacks (`details.errors`, code PLAN_REQUIRED)",
  },
  403: { name: "Forbidden", description: "The credential lacks the permission or scope" },
  404: { name: "NotFound", description: "Not found, or not yours" },
  409: {
    name: "Conflict",
    description: "Conflict (an Idempotency-Key reused with another request, or a state that forbids it)",
  },
  410: { name: "Gone", description: "Gone (expired)" },
  413: { name: "PayloadTooLarge", description: "Body too large" },
  415: { name: "UnsupportedMediaType", description: "Wrong Content-Type" },
  416: { name: "RangeNotSatisfiable", description: "The Range is outside the file (`details.size`)" },
  422: { name: "UnprocessableMedia", description: "The media could not be processed" },
  429: {
    name: "TooManyRequests",
    description:
      "Rate or concurrency limit (`Retry-After`, `details.retryAfter`), or the daily quota of failed video renders " +
      "(`Retry-After`, `details.retryAfter`, `failedRenderSeconds`, `maxFailedRenderSeconds`)",
  },
  500: {
    name: "InternalError",
    description: "Unexpected failure (`details.requestId`; never a stack trace)",
  },
  502: { name: "BadGateway", description: "The renderer or another dependency failed" },
  503: { name: "ServiceUnavailable", description: "Temporarily unavailable" },
};

/** A non-JSON body: a file, an event stream, a ZIP, a CSV, by media type, with the JSON Schema of its form. */
type MediaTypes = Record<string, { schema: Record<string, unknown> | v.GenericSchema }>;

/** One answer of a route. */
export interface Answer {
  description: string;
  /** A JSON answer: the envelope with `data` of this (output) schema. */
  data?: v.GenericSchema;
  /** An example of `data` (checked against the schema by test/worker/docs.test.ts). */
  example?: unknown;
  /** Other media types; neither `data` nor `content`: no body (HEAD, 304). */
  content?: MediaTypes;
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
}

/** What the OpenAPI document says of a route. */
interface Operation {
  /**
   * Unique, stable and readable: the method name a generated client gives the operation. A route answering
   * several methods (GET and HEAD of a download) names each method's operation.
   */
  operationId: string | Partial<Record<"GET" | "HEAD", string>>;
  tag: Tag;
  summary: string;
  description?: string;
  /**
   * The body: the valibot schema the handler validates with, a JSON Schema generated from the valibot schemas
   * the handler's verb validates with (`json`), or the fields of a multipart form. Routes with a body answer
   * 400 (malformed), 413 (too large) and 415 (another type) without saying so.
   */
  body?: v.GenericSchema | { json: Record<string, unknown> } | { multipart: Record<string, unknown> };
  /** Other media types the body may have (the batch's CSV). */
  bodyAlso?: Record<string, { schema: Record<string, unknown> }>;
  /** The body may be left out (a default applies). */
  bodyOptional?: boolean;
  /** An example request body (run by test/worker/docs.test.ts). */
  bodyExample?: unknown;
  /** Query string schema (the one the handler validates with); its routes answer 400 for a bad value. */
  query?: v.GenericSchema;
  /** Path parameters' schemas where they are more than "a string" (others are added as strings). */
  path?: Record<string, v.GenericSchema>;
  /** `Idempotency-Key` makes a retry safe (and a key reused with another body is a 409). */
  idempotent?: boolean;
  /** The success answer. */
  ok: Answer & { status: SuccessStatus };
  /** Other non-error answers (a partial file, not modified). */
  also?: Partial<Record<SuccessStatus, Answer>>;
  /** Errors beyond those of the authentication middleware, of a body or query, of a path id (404) and 500. */
  errors?: ErrorStatus[];
}

/** Whether the route reads a credential, and then the rate limits its requests count against: one of the two. */
type Access =
  | {
      /** No credential at all (public routes): nothing is counted. */
      public: true;
      rateLimit?: never;
    }
  | {
      public?: never;
      /** The limits each request counts against (src/lib/rate-limit.ts, ROUTE_RATE_LIMITS). */
      rateLimit: RouteRateLimit;
    };

/** Everything a route says of itself (every field but the OpenAPI ones is left out of the document). */
export type RouteDoc = Operation &
  Access & {
    /**
     * The MCP tools that do what this route does, by tool name (src/mcp/tools.ts lists them), or false: an agent
     * cannot call this route.
     */
    mcp: false | Record<string, RouteTool>;
  };

const ROUTE_DOC = Symbol("route-doc");

/** Describes one route. */
export const describe = (d: RouteDoc): MiddlewareHandler =>
  Object.assign(describeRoute(operation(d) as DescribeRouteOptions), { [ROUTE_DOC]: d });

/** What the route of `handler` says of itself, if `handler` is a describe() middleware. */
export const routeDocOf = (handler: unknown): RouteDoc | undefined =>
  // A sub-app with an error handler of its own is mounted with its handlers wrapped.
  typeof handler === "function"
    ? (findTargetHandler(handler) as { [ROUTE_DOC]?: RouteDoc })[ROUTE_DOC]
    : undefined;

type DescribeRouteOptions = Parameters<typeof describeRoute>[0];

const operation = (doc: RouteDoc) => ({
  // hono-openapi calls a function with the route for each method the route answers.
  operationId:
    typeof doc.operationId === "string"
      ? doc.operationId
      : (route: { method: string }) => (doc.operationId as Record<string, string>)[route.method],
  tags: [doc.tag],
  summary: doc.summary,
  ...(doc.description ? { description: doc.description } : {}),
  ...(doc.public ? { security: [] } : {}),
  ...(doc.body ? { requestBody: requestBody(doc) } : {}),
  ...(doc.query || doc.path || doc.idempotent ? { parameters: parameters(doc) } : {}),
  responses: {
    [doc.ok.status]: response(doc.ok),
    ...Object.fromEntries(Object.entries(doc.also ?? {}).map(([s, a]) => [s, response(a)])),
    ...Object.fromEntries(errorsOf(doc).map((s) => [s, errorRef(s)])),
  },
});

const errorsOf = (doc: RouteDoc): ErrorStatus[] => [
  ...(doc.errors ?? []),
  ...(doc.body ? ([400, 413, 415] as const) : []),
  ...(doc.query || doc.idempotent ? ([400] as const) : []),
  ...(doc.idempotent ? ([409] as const) : []),
];

/** The shared response of an error status. */
export const errorRef = (status: ErrorStatus) => ({ $ref: `#/components/responses/${ERRORS[status].name}` });

const requestBody = (doc: RouteDoc) => {
  const body = doc.body!;
  const example = doc.bodyExample === undefined ? {} : { example: doc.bodyExample };
  const content =
    "multipart" in body
      ? {
          "multipart/form-data": {
            schema: { type: "object", required: ["file"], properties: body.multipart },
          },
        }
      : {
          "application/json": {
            schema: "json" in body ? body.json : new PendingSchema(body, "input"),
            ...example,
          },
        };
  return { required: !doc.bodyOptional, content: { ...content, ...doc.bodyAlso } };
};

const parameters = (doc: RouteDoc) => [
  ...Object.entries(doc.path ?? {}).map(([name, schema]) => ({
    name,
    in: "path" as const,
    required: true,
    schema: new PendingSchema(schema, "input"),
    ...described(schema),
  })),
  ...(doc.query ? queryParameters(doc.query) : []),
  ...(doc.idempotent
    ? [
        {
          name: "Idempotency-Key",
          in: "header" as const,
          required: false,
          description: "Makes a retry safe: the same key and body within 24 h answer the first result",
          schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
        },
      ]
    : []),
];

/** Query parameters from an object schema's entries (strings on the wire: the input side of the schema). */
const queryParameters = (schema: v.GenericSchema) => {
  const entries = (schema as unknown as { entries?: Record<string, v.GenericSchema> }).entries ?? {};
  return Object.entries(entries).map(([name, entry]) => ({
    name,
    in: "query" as const,
    required: !(entry.type === "optional" || entry.type === "nullish" || entry.type === "exact_optional"),
    schema: new PendingSchema(entry, "input"),
    ...described(entry),
  }));
};

/** A parameter's description goes on the parameter (too). */
const described = (schema: v.GenericSchema) => {
  const wrapped = (schema as { wrapped?: v.GenericSchema }).wrapped;
  const description = v.getDescription(wrapped ?? schema);
  return description ? { description } : {};
};

const response = (answer: Answer) => ({
  description: answer.description,
  ...(answer.headers ? { headers: answer.headers } : {}),
  ...(answer.data || answer.content
    ? {
        content: {
          ...(answer.data
            ? {
                "application/json": {
                  schema: new PendingSchema(answer.data, "output", true),
                  ...(answer.example === undefined
                    ? {}
                    : { example: { success: true, data: answer.example } }),
                },
              }
            : {}),
          ...Object.fromEntries(
            Object.entries(answer.content ?? {}).map(([type, media]) => [
              type,
              { schema: isValibot(media.schema) ? new PendingSchema(media.schema, "output") : media.schema },
            ]),
          ),
        },
      }
    : {}),
});

const isValibot = (s: object): s is v.GenericSchema => "~standard" in s && "kind" in s;

/**
 * A valibot schema in the document, converted by openapi.ts when it builds the document: the input side for
 * requests, the output side for answers (wrapped in the success envelope where `envelope`).
 */
export class PendingSchema {
  readonly schema: v.GenericSchema;
  readonly mode: "input" | "output";
  readonly envelope: boolean;

  constructor(schema: v.GenericSchema, mode: "input" | "output", envelope = false) {
    this.schema = schema;
    this.mode = mode;
    this.envelope = envelope;
  }
}

/**
 * An authentication middleware that documents itself: the routes behind it get `security` and the answers it
 * gives (401, and 403 where it checks permissions or refuses keys).
 */
export const documented = <M extends MiddlewareHandler>(
  middleware: M,
  doc: { security?: Record<string, string[]>[]; errors: ErrorStatus[] },
): M =>
  Object.assign(middleware, {
    [uniqueSymbol]: {
      spec: {
        ...(doc.security ? { security: doc.security } : {}),
        responses: Object.fromEntries(doc.errors.map((s) => [s, errorRef(s)])),
      },
    },
  });
