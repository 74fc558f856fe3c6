/** The API key creation request (spec: API key creation request), with v2 scopes, and the keys' answers. */
import * as v from "valibot";
import { SCOPE_NAMES } from "../auth/scopes.ts";
import { Timestamp } from "../lib/envelope.ts";

export const MAX_KEYS_PER_ACCOUNT = 50;

const Permission = v.strictObject({
  resource: v.picklist(["media", "jobs"], 'resource must be "media" or "jobs"'),
  action: v.picklist(["read", "full"], 'action must be "read" or "full"'),
});

export const CreateApiKeyBody = v.strictObject({
  name: v.pipe(
    v.string("name must be a string"),
    v.trim(),
    v.minLength(3, "name must be at least 3 characters"),
    v.maxLength(100, "name must be at most 100 characters"),
  ),
  /** ISO 8601 date-time in the future; absent or null: never expires. */
  expiresAt: v.optional(
    v.nullable(
      v.pipe(
        v.string("expiresAt must be an ISO 8601 date-time or null"),
        v.isoTimestamp("expiresAt must be an ISO 8601 date-time, e.g. 2027-01-01T00:00:00Z"),
        v.transform((s) => Date.parse(s)),
      ),
    ),
  ),
  permissions: v.pipe(
    v.array(Permission, "permissions must be an array"),
    v.minLength(1, "permissions must contain at least 1 item"),
    v.maxLength(4, "permissions must contain at most 4 items"),
  ),
  scopes: v.optional(
    v.pipe(
      v.array(v.picklist(SCOPE_NAMES, `each scope must be one of ${SCOPE_NAMES.join(", ")}`)),
      v.maxLength(SCOPE_NAMES.length, `scopes must contain at most ${SCOPE_NAMES.length} items`),
    ),
  ),
});
export type CreateApiKeyBody = v.InferOutput<typeof CreateApiKeyBody>;

/** An API key as its owner sees it: never the secret, never its hash. */
export const ApiKey = v.object({
  id: v.string(),
  name: v.string(),
  prefix: v.pipe(v.string(), v.description("The key's first characters, to recognise it")),
  permissions: v.array(v.object(Permission.entries)),
  scopes: v.array(v.picklist(SCOPE_NAMES)),
  expiresAt: v.nullable(Timestamp),
  lastUsedAt: v.nullable(Timestamp),
  createdAt: Timestamp,
});
export type ApiKey = v.InferOutput<typeof ApiKey>;

export const ApiKeyList = v.object({ apiKeys: v.array(ApiKey) });
export type ApiKeyList = v.InferOutput<typeof ApiKeyList>;

/** A new key: `key` is shown this once. */
export const CreatedApiKey = v.object({
  key: v.pipe(v.string(), v.description("mrk_...: store it now, it is never shown again")),
  apiKey: ApiKey,
});
export type CreatedApiKey = v.InferOutput<typeof CreatedApiKey>;
