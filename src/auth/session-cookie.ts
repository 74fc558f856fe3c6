/**
 * The browser's credential: the console's session cookie, and the CSRF defence every state-changing request made
 * with it must pass.
 *
 * - The cookie holds a session token (the same `mrs_` session as `Authorization: Bearer`, opened by
 *   POST /api/v1/auth/session) and is `__Host-` prefixed, `HttpOnly`, `Secure`, `SameSite=Strict`, `Path=/`: no
 *   script reads it, no other host or path can set it, and a cross-site page never gets it sent (RFC 6265bis).
 * - SameSite is not the only wall: a request authenticated by the cookie with a method other than GET/HEAD/OPTIONS
 *   must also (1) come from this origin (`Origin` equal to the request's own origin; browsers send it on every such
 *   request, so its absence is refused too) and (2) carry `x-csrf-token`, an HMAC of the session token under
 *   AUTH_SECRET: a token bound to this session that only a page of this origin can learn (GET
 *   /api/v1/auth/session answers it to a same-origin script; CORS lets no other origin read it). A custom header
 *   also makes a cross-origin request preflighted, which this API never approves.
 * - API keys (`x-api-key`, `Authorization: Bearer mrk_`) and bearer sessions are not ambient credentials: a page
 *   cannot make a browser attach them, so they need none of this.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { CookieOptions } from "hono/utils/cookie";
import type { AppEnv } from "../app-env.ts";
import { hmacHex, timingSafeEqual } from "@media-render/contract/crypto";
import type { Env } from "../env.ts";
import { Forbidden } from "../lib/errors.ts";

/** The cookie's name without its `__Host-` prefix (hono adds it). */
const COOKIE = "mrs_session";
/** The header that carries the CSRF token. */
export const CSRF_HEADER = "x-csrf-token";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const ATTRIBUTES: CookieOptions = {
  prefix: "host",
  path: "/",
  secure: true,
  httpOnly: true,
  sameSite: "Strict",
};

/** The session token of the request's cookie, or undefined without one. */
export const sessionCookieOf = (c: Context<AppEnv>): string | undefined => {
  const value = getCookie(c, COOKIE, "host");
  return value === undefined || value === "" ? undefined : value;
};

/** Sets the session cookie on the answer, for as long as the session lives. */
export const setSessionCookie = (c: Context<AppEnv>, token: string, expiresAt: number, now: number) =>
  setCookie(c, COOKIE, token, { ...ATTRIBUTES, maxAge: Math.max(0, Math.floor((expiresAt - now) / 1000)) });

/** Tells the browser to drop the session cookie. */
export const clearSessionCookie = (c: Context<AppEnv>) => {
  deleteCookie(c, COOKIE, ATTRIBUTES);
};

/** The CSRF token of a session: bound to its token, derivable only with AUTH_SECRET. */
export const csrfTokenOf = (env: Pick<Env, "AUTH_SECRET">, sessionToken: string): Promise<string> =>
  hmacHex(env.AUTH_SECRET, `csrf:${sessionToken}`);

/** Whether the request says it comes from a page of this origin (`Origin`, as browsers send it). */
export const fromOwnOrigin = (c: Context<AppEnv>): boolean =>
  c.req.header("origin") === new URL(c.req.url).origin;

const refused = (message: string, code: string) =>
  new Forbidden(message, { errors: [{ field: CSRF_HEADER, message, code }] });

/**
 * Throws 403 unless a request authenticated by the session cookie is safe (GET, HEAD, OPTIONS) or comes from this
 * origin with the session's CSRF token.
 */
export const checkCsrf = async (c: Context<AppEnv>, sessionToken: string): Promise<void> => {
  if (SAFE_METHODS.has(c.req.method)) return;
  if (!fromOwnOrigin(c))
    throw refused(
      "Cross-site request refused: a request made with the session cookie must come from this site",
      "CROSS_SITE_REQUEST",
    );
  const presented = c.req.header(CSRF_HEADER) ?? "";
  if (!timingSafeEqual(presented, await csrfTokenOf(c.env, sessionToken)))
    throw refused(
      `Missing or wrong ${CSRF_HEADER}: reload the page (a request made with the session cookie needs the session's CSRF token)`,
      "CSRF_TOKEN_INVALID",
    );
};
