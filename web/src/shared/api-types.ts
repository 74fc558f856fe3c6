/**
 * The one place the web front end takes the API's types from: `paths` (every operation: path, parameters, body,
 * answer) as openapi-typescript generates it from the service's OpenAPI document, and the schemas' names.
 *
 * Today: a snapshot of the generated types of the typed-client branch (./api-schema.gen.ts), plus the operations
 * this branch adds to the API that the snapshot predates (`Added`). When the generated client is merged, this file
 * becomes `export type * from "../../../client/src/schema.ts"` with `paths` from there (regenerated, it has
 * `Added` too), and the snapshot is deleted; nothing else changes.
 */
import type { components, operations, paths as GeneratedPaths } from "./api-schema.gen";

type Schemas = components["schemas"];

export type Job = Schemas["Job"];
export type JobProgressEvent = Schemas["JobProgressEvent"];
export type MediaFile = Schemas["MediaFile"];
export type UploadedFile = Schemas["UploadedFile"];
export type Account = Schemas["Account"];
export type ApiKey = Schemas["ApiKey"];
export type Plan = Schemas["Plan"];
export type CurrentUsage = Schemas["CurrentUsage"];
export type Payment = Schemas["Payment"];
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type Template = Schemas["Template"];
export type TemplateVariable = Template["variables"][number];
export type BatchCreated = Schemas["BatchCreated"];
export type FieldError = NonNullable<NonNullable<Schemas["ErrorBody"]["details"]>["errors"]>[number];
export type Scope = ApiKey["scopes"][number];
export type EventType = WebhookEndpoint["eventTypes"][number];

/** GET /api/v1/auth/options */
export interface SignInOptions {
  termsVersion: string;
  captcha: { provider: "hcaptcha"; siteKey: string } | null;
  devOutbox: string | null;
  codeTtlSeconds: number;
}

/** The browser's session: POST and GET /api/v1/auth/session. */
export interface BrowserSession {
  user: Account;
  csrfToken: string;
  expiresAt: string;
}

type Json<T> = { content: { "application/json": { success: true; data: T; message?: string } } };
type ErrorAnswer = { content: { "application/json": Schemas["ErrorBody"] } };
type NoParameters = { query?: never; header?: never; path?: never; cookie?: never };
type Operation<Ok extends number, T> = {
  parameters: NoParameters;
  requestBody?: never;
  responses: { [S in Ok]: Json<T> } & { default: ErrorAnswer };
};
type OperationWithBody<Ok extends number, T, Body> = Omit<Operation<Ok, T>, "requestBody"> & {
  requestBody: { content: { "application/json": Body } };
};

/** Operations added by this branch (documented in the service's OpenAPI document, not yet in the snapshot). */
interface Added {
  "/api/v1/auth/options": { get: Operation<200, SignInOptions> };
  "/api/v1/auth/session": {
    get: Operation<200, BrowserSession>;
    post: OperationWithBody<
      200,
      BrowserSession,
      operations["verifyCode"]["requestBody"]["content"]["application/json"]
    >;
    delete: Operation<200, { loggedOut: true }>;
  };
  "/api/v1/jobs": { get: { parameters: { query?: { search?: string } } } };
}

export type paths = GeneratedPaths & Added;
