/**
 * API-key authentication (spec: Authentication). The key travels in `x-api-key`; only its SHA-256 is
 * stored. Permissions are per resource (`media`, `jobs`): `read` allows GET/HEAD, `full` allows every method.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { sha256Hex } from "@media-render/contract/crypto";
import { withCaller, type CallerCtx } from "../context.ts";
import { Forbidden, Unauthorized } from "../lib/errors.ts";
import { enforce, limiterUnavailable, limitsFor, type Outcome } from "../lib/rate-limit.ts";
import { credentialGate, liveKey, selectKeyRow, type Admission } from "./credential-gate.ts";
import { documented } from "../lib/openapi-route.ts";
import { answeringRouteDoc } from "../lib/declared-routes.ts";
import { requiring } from "./scopes.ts";
import { authenticateSession } from "./sessions.ts";
import { allows, type Caller, type Permission, type Resource } from "./caller.ts";
import { checkCsrf, sessionCookieOf } from "./session-cookie.ts";

/**
 * The caller of a presented key: its gate (src/auth/credential-gate.ts) looks the key up and counts the request
 * against its rate limits in one RPC, answered from the gate's memory and storage. Null when the key is unknown or
 * expired (nothing is counted); RateLimited past a limit. If the gate cannot be reached the key is looked up in
 * D1 and the request let through (logged).
 */
const lookUpAndCount = async (c: Context<AppEnv>, presented: string): Promise<Caller | null> => {
  const ctx = c.var.ctx;
  const keyHash = await sha256Hex(presented);
  const limits = limitsOf(c);
  let admission: Admission;
  try {
    admission = await credentialGate(ctx.env, "key", keyHash).admitKey(
      keyHash,
      limits.map((l) => l.name),
    );
  } catch (e) {
    limiterUnavailable(e);
    admission = { key: liveKey(await selectKeyRow(ctx.d1, keyHash), ctx.now()), outcomes: [] };
  }
  const row = admission.key;
  if (!row) return null;
  if (admission.outcomes.length) enforce(c, admission.outcomes, ctx.now());
  return {
    userId: row.user_id,
    keyId: row.id,
    permissions: JSON.parse(row.permissions) as Permission[],
    scopes: JSON.parse(row.scopes) as string[],
  };
};

/**
 * The limits a request counts against: those its route declares, or those of the route it stands for
 * (`rateLimitAs`: an MCP tools/call).
 */
const limitsOf = (c: Context<AppEnv>) => limitsFor(c.var.rateLimitAs ?? answeringRouteDoc(c)?.rateLimit);

/**
 * Counts one request of an authenticated session in the session's gate (and, through it, the account's); throws
 * RateLimited past a limit. Sign-in requests are limited per address and IP instead (src/accounts/attempt-limits.ts).
 */
const countSessionRequest = async (c: Context<AppEnv>, credential: string, userId: string): Promise<void> => {
  let outcomes: Outcome[];
  try {
    const gate = credentialGate(c.env, "session", await sha256Hex(credential));
    outcomes = await gate.admit(
      limitsOf(c).map((l) => l.name),
      userId,
    );
  } catch (e) {
    limiterUnavailable(e);
    return;
  }
  enforce(c, outcomes, c.var.ctx.now());
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
  await countSessionRequest(c, header, caller.userId);
  return caller;
};

/**
 * The caller of the console's session cookie (src/auth/session-cookie.ts), or null without one; 401 for a session
 * that is not valid, 403 for a state-changing request without this origin and the session's CSRF token (checked
 * first: a forged request touches nothing). Counted in the same gate as the session used as a bearer token, and
 * through it against the account's limits like every other credential.
 */
const cookieCaller = async (c: Context<AppEnv>): Promise<Caller | null> => {
  const token = sessionCookieOf(c);
  if (token === undefined) return null;
  await checkCsrf(c, token);
  const caller = await authenticateSession(c.var.ctx, token);
  if (!caller) throw new Unauthorized();
  await countSessionRequest(c, `Bearer ${token}`, caller.userId);
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
export const requireSession = documented(authenticate(sessionCaller, keyNotEnough, cookieCaller), {
  security: [{ session: [] }, { sessionCookie: [] }],
  errors: [401, 403, 429],
});

/** Reads that accept either credential (spec, Authentication rule 6). */
export const requireKeyOrSession = documented(authenticate(keyCaller, sessionCaller, cookieCaller), {
  security: [{ apiKey: [] }, { session: [] }, { sessionCookie: [] }],
  // 403: a state change made with the session cookie without this origin's CSRF token.
  errors: [401, 403, 429],
});

/** Requires the authenticated key to hold a permission for `resource` that covers the request's method. */
export const requirePermission = (resource: Resource) =>
  requiring(
    documented(
      createMiddleware<AppEnv>(async (c, next) => {
        if (!allows(c.var.caller.permissions, resource, c.req.method)) throw new Forbidden();
        await next();
      }),
      { errors: [403] },
    ),
    { resource },
  );

/** The MCP endpoint: an API key in `x-api-key` or `Authorization: Bearer`, or a session. */
export const requireMcpCaller = authenticate(keyCaller, bearerKeyCaller, sessionCaller);

/** The caller's context in a handler behind an authentication middleware. */
export const callerCtx = (c: Context<AppEnv>): CallerCtx => {
  const ctx = c.var.ctx;
  if (!("caller" in ctx)) throw new Unauthorized();
  return ctx as CallerCtx;
};
