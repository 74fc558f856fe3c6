/**
 * API-key authentication (spec: Authentication). The key travels in `x-api-key`; only its SHA-256 is
 * stored. Permissions are per resource (`media`, `jobs`): `read` allows GET/HEAD, `full` allows every method.
 */
import { and, eq } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { getDb } from "../db/client";
import { apiKeys } from "../db/schema";
import type { AppEnv } from "../env";
import { sha256Hex } from "../lib/crypto";
import { Forbidden, Unauthorized } from "../lib/errors";

export type Resource = "media" | "jobs";
export type Action = "read" | "full";
export interface Permission {
  resource: Resource;
  action: Action;
}

export interface AuthContext {
  userId: string;
  keyId: string;
  permissions: Permission[];
  scopes: string[];
}

const READ_METHODS = new Set(["GET", "HEAD"]);

/** Whether `permissions` allow `method` on `resource`. */
export const allows = (permissions: readonly Permission[], resource: Resource, method: string): boolean =>
  permissions.some(
    (p) =>
      p.resource === resource && (p.action === "full" || (p.action === "read" && READ_METHODS.has(method))),
  );

/** Looks a presented key up; null when unknown or expired. */
export const authenticateKey = async (
  d1: D1Database,
  presented: string,
  at: number,
): Promise<AuthContext | null> => {
  const row = await getDb(d1).query.apiKeys.findFirst({
    where: eq(apiKeys.keyHash, await sha256Hex(presented)),
  });
  if (!row || (row.expiresAt !== null && row.expiresAt <= at)) return null;
  return {
    userId: row.userId,
    keyId: row.id,
    permissions: row.permissions as Permission[],
    scopes: row.scopes,
  };
};

/** Resolves the caller from `x-api-key` (401 otherwise) and stores it as `c.var.auth`. */
export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const presented = c.req.header("x-api-key");
  // The spec forbids surrounding whitespace; such a key is simply not a valid key.
  if (!presented || presented.trim() !== presented) throw new Unauthorized();
  const at = Date.now();
  const auth = await authenticateKey(c.env.DB, presented, at);
  if (!auth) throw new Unauthorized();
  c.set("auth", auth);
  c.executionCtx.waitUntil(
    getDb(c.env.DB)
      .update(apiKeys)
      .set({ lastUsedAt: at })
      .where(and(eq(apiKeys.id, auth.keyId)))
      .run()
      .catch(() => undefined),
  );
  await next();
});

/** Requires the authenticated key to hold a permission for `resource` that covers the request's method. */
export const requirePermission = (resource: Resource) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (!allows(c.var.auth.permissions, resource, c.req.method)) throw new Forbidden();
    await next();
  });
