/**
 * API-key authentication (spec: Authentication). The key travels in `x-api-key`; only its SHA-256 is
 * stored. Permissions are per resource (`media`, `jobs`): `read` allows GET/HEAD, `full` allows every method.
 */
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { sha256Hex } from "../contract/crypto";
import { withCaller, type CallerCtx } from "../context";
import { apiKeys } from "../db/schema";
import { Forbidden, Unauthorized } from "../lib/errors";
import {
  countRequest,
  countStatements,
  enforce,
  limiterUnavailable,
  limitsFor,
  outcomesOf,
  type Outcome,
} from "../lib/rate-limit";
import { documented } from "../docs/describe";
import { authenticateSession } from "../accounts/sessions";
import { allows, type Caller, type Permission, type Resource } from "./caller";

/** How stale `lastUsedAt` may get before a request writes it again: one write a minute, not one per request. */
export const LAST_USED_PRECISION_MS = 60_000;

interface KeyRow {
  id: string;
  user_id: string;
  permissions: string;
  scopes: string;
  expires_at: number | null;
  last_used_at: number | null;
}

/**
 * The caller of a presented key, looked up and counted against the request's rate limits in one D1 batch (one
 * round trip before the handler runs; the count is conditional on the key being valid, so a made-up key writes
 * nothing). Null when the key is unknown or expired; RateLimited past a limit. If the limiter fails the key is
 * looked up alone and the request let through (logged).
 */
const lookUpAndCount = async (c: Context<AppEnv>, presented: string): Promise<Caller | null> => {
  const ctx = c.var.ctx;
  const keyHash = await sha256Hex(presented);
  const at = ctx.now();
  const limits = limitsFor(c.req.method, c.req.path);
  const select = ctx.d1
    .prepare(
      "SELECT id, user_id, permissions, scopes, expires_at, last_used_at FROM api_keys WHERE key_hash = ?1",
    )
    .bind(keyHash);
  let row: KeyRow | undefined;
  let outcomes: Outcome[] | undefined;
  try {
    const [found, ...counts] = await ctx.d1.batch([
      select,
      ...countStatements(ctx.d1, keyHash, limits, at, {
        sql: "EXISTS (SELECT 1 FROM api_keys WHERE key_hash = ?3 AND (expires_at IS NULL OR expires_at > ?4))",
        binds: [keyHash, at],
      }),
    ]);
    row = found!.results[0] as KeyRow | undefined;
    outcomes = outcomesOf(counts, limits, at);
  } catch (e) {
    limiterUnavailable(e);
    row = (await select.first<KeyRow>()) ?? undefined;
  }
  if (!row || (row.expires_at !== null && row.expires_at <= at)) return null;
  if (outcomes) enforce(c, outcomes, at);
  if (row.last_used_at === null || at - row.last_used_at >= LAST_USED_PRECISION_MS)
    ctx.defer(
      ctx.db
        .update(apiKeys)
        .set({ lastUsedAt: at })
        .where(eq(apiKeys.id, row.id))
        .run()
        .catch(() => undefined),
    );
  return {
    userId: row.user_id,
    keyId: row.id,
    permissions: JSON.parse(row.permissions) as Permission[],
    scopes: JSON.parse(row.scopes) as string[],
  };
};

/** The caller of `x-api-key`, or null when the header is absent; 401 for a key that is not valid. */
const keyCaller = (c: Context<AppEnv>) => callerOfKey(c, c.req.header("x-api-key"));

/**
 * The caller of `Authorization: Bearer mrk_...` (an API key where MCP clients and OAuth-minded tools put it), or
 * null when the header holds something else (a session token is left to sessionCaller).
 */
const bearerKeyCaller = (c: Context<AppEnv>) => {
  const match = /^Bearer (mrk_\S*)$/.exec(c.req.header("authorization") ?? "");
  return match ? callerOfKey(c, match[1]!) : Promise.resolve(null);
};

const callerOfKey = async (c: Context<AppEnv>, presented: string | undefined): Promise<Caller | null> => {
  if (presented === undefined) return null;
  // The spec forbids surrounding whitespace; such a key is simply not a valid key.
  if (!presented || presented.trim() !== presented) throw new Unauthorized();
  const caller = await lookUpAndCount(c, presented);
  if (!caller) throw new Unauthorized();
  return caller;
};

/** The caller of `Authorization: Bearer <session token>`, or null without one; 401 for a token that is not valid. */
const sessionCaller = async (c: Context<AppEnv>): Promise<Caller | null> => {
  const header = c.req.header("authorization");
  if (header === undefined) return null;
  const match = /^Bearer ([A-Za-z0-9_-]{10,200})$/.exec(header);
  const caller = match ? await authenticateSession(c.var.ctx, match[1]!) : null;
  if (!caller) throw new Unauthorized();
  await countRequest(c, header);
  return caller;
};

/**
 * Authenticates with the first scheme that finds its credential; each scheme counts the request against the
 * credential's rate limits once valid (a key counts the same whichever header carries it).
 */
const authenticate = (...schemes: ((c: Context<AppEnv>) => Promise<Caller | null>)[]) =>
  createMiddleware<AppEnv>(async (c, next) => {
    let caller: Caller | null = null;
    for (const scheme of schemes) {
      caller = await scheme(c);
      if (caller) break;
    }
    if (!caller) throw new Unauthorized();
    c.set("caller", caller);
    c.set("ctx", withCaller(c.var.ctx, caller));
    await next();
  });

/** An API key where only the owner's session may act: 403 saying so (a missing credential stays 401). */
const keyNotEnough = async (c: Context<AppEnv>): Promise<Caller | null> => {
  if (c.req.header("x-api-key") !== undefined)
    throw new Forbidden(
      "API keys cannot do this: sign in (POST /api/v1/auth/login) and send the session token as Authorization: Bearer",
    );
  return null;
};

/** Account, key and billing writes: a session (`Authorization: Bearer`), i.e. the account's owner. */
export const requireSession = documented(authenticate(sessionCaller, keyNotEnough), {
  security: [{ session: [] }],
  errors: [401, 403, 429],
});

/** Reads that accept either credential (spec, Authentication rule 6). */
export const requireKeyOrSession = documented(authenticate(keyCaller, sessionCaller), {
  security: [{ apiKey: [] }, { session: [] }],
  errors: [401, 429],
});

/** Requires the authenticated key to hold a permission for `resource` that covers the request's method. */
export const requirePermission = (resource: Resource) =>
  documented(
    createMiddleware<AppEnv>(async (c, next) => {
      if (!allows(c.var.caller.permissions, resource, c.req.method)) throw new Forbidden();
      await next();
    }),
    { errors: [403] },
  );

/** The MCP endpoint: an API key in `x-api-key` or `Authorization: Bearer`, or a session. */
export const requireMcpCaller = authenticate(keyCaller, bearerKeyCaller, sessionCaller);

/** The caller's context in a handler behind an authentication middleware. */
export const callerCtx = (c: Context<AppEnv>): CallerCtx => {
  const ctx = c.var.ctx;
  if (!("caller" in ctx)) throw new Unauthorized();
  return ctx as CallerCtx;
};
