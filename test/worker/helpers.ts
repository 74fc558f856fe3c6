/** Test helpers: call the real Worker entry point, create accounts and keys, upload the shared fixtures. */
import { inject } from "vitest";
import { env, exports } from "cloudflare:workers";
import { createAccount } from "../../src/accounts/create-account.ts";
import { credentialGate } from "../../src/auth/credential-gate.ts";
import type { Permission } from "../../src/auth/caller.ts";
import { createContext, withCaller, type Ctx } from "../../src/context.ts";
import { createApiKey } from "../../src/keys/create-api-key.ts";
import document from "../../client/openapi.json";
import { INTERNAL_ROUTES } from "../../src/docs/internal-routes.ts";
import { openApiContract, type OpenApiDocument } from "../openapi-contract.ts";

export const BASE = "http://127.0.0.1:8787";

/** Every answer a test receives through `call`/`send` is held to the OpenAPI document (test/openapi-contract.ts). */
const contract = openApiContract(
  document as unknown as OpenApiDocument,
  INTERNAL_ROUTES.map((r) => r.prefix),
);

/**
 * Sends a request through the Worker's own fetch handler (the same path a client takes); an answer outside the
 * OpenAPI document fails the test.
 */
export const send = async (request: Request): Promise<Response> => {
  const { method, url } = request;
  return contract.check(method, url, await exports.default.fetch(request));
};

/** `send` of `init` to `path` on the Worker. */
export const call = (path: string, init: RequestInit = {}) => send(new Request(`${BASE}${path}`, init));

export const json = (method: string, body: unknown, key?: string): RequestInit => ({
  method,
  headers: { "content-type": "application/json", ...(key ? { "x-api-key": key } : {}) },
  body: JSON.stringify(body),
});

export const FULL: Permission[] = [
  { resource: "jobs", action: "full" },
  { resource: "media", action: "full" },
];

/** A verb context on the test's bindings; `at` fixes its clock. */
export const testCtx = (at?: number): Ctx => createContext(env, at === undefined ? {} : { now: () => at });

/** A verb context acting for `userId` with full permissions. */
export const asCaller = (userId: string, at?: number) =>
  withCaller(testCtx(at), { userId, keyId: null, permissions: FULL, scopes: [] });

/**
 * Changes a column of a stored key as time or an operator would (the API never edits a key), then tells the key's
 * gate, which otherwise keeps the row it read for up to KEY_ROW_TTL_MS.
 */
export const updateKey = async (
  keyId: string,
  column: "expires_at" | "scopes" | "last_used_at",
  value: number | string,
) => {
  const row = await env.DB.prepare(`UPDATE api_keys SET ${column} = ?1 WHERE id = ?2 RETURNING key_hash`)
    .bind(value, keyId)
    .first<{ key_hash: string }>();
  await credentialGate(env, "key", row!.key_hash).forget();
};

let n = 0;
/** A fresh account (unique e-mail) with an API key holding `permissions`. */
export const newAccount = async (
  opts: { permissions?: Permission[]; planId?: string; tokens?: number; expiresAt?: number } = {},
) => {
  const ctx = testCtx();
  const user = await createAccount(ctx, {
    email: `user${Date.now()}-${n++}-${Math.random().toString(36).slice(2)}@example.com`,
    planId: opts.planId,
    tokens: opts.tokens,
  });
  const key = await createApiKey(ctx, {
    userId: user.id,
    name: "test key",
    permissions: opts.permissions ?? FULL,
    expiresAt: opts.expiresAt,
  });
  return { userId: user.id, key: key.key, keyId: key.apiKey.id };
};

/** Bytes of a file of ../shared/fixtures. */
export const fixture = (name: string): Uint8Array => {
  const b64 = inject("fixtures")[name];
  if (!b64) throw new Error(`no fixture ${name}`);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
};

export const upload = async (
  key: string,
  name: string,
  bytes: Uint8Array,
  fields: Record<string, string> = {},
) => {
  const form = new FormData();
  form.set("file", new File([bytes], name));
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return call("/api/v1/files/upload", { method: "POST", headers: { "x-api-key": key }, body: form });
};

export interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data?: T;
  message?: string;
  error?: string;
  details?: Record<string, unknown> & { errors?: Array<{ field?: string; message: string; code?: string }> };
}

export const body = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as Envelope<T>;
