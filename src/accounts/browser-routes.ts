/**
 * Sign-in for browsers (the console), mounted beside authRoutes at /api/v1/auth:
 * - GET /options: what a sign-in page needs (terms version, the captcha's site key, the local outbox);
 * - POST /session: the e-mailed code exchanged for the session cookie (src/auth/session-cookie.ts) instead of a
 *   token in the body: a script never holds the credential;
 * - GET /session: the signed-in account and the session's CSRF token (same-origin scripts only can read it);
 * - DELETE /session: sign out (the session is revoked on the server, the cookie dropped).
 * The session is the same as a bearer session: every route that takes a session takes the cookie.
 */
import { Hono, type Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import { callerCtx, requireSession } from "../auth/api-key.ts";
import {
  clearSessionCookie,
  fromOwnOrigin,
  sessionCookieOf,
  setSessionCookie,
} from "../auth/session-cookie.ts";
import { describe } from "../lib/openapi-route.ts";
import type { Env } from "../env.ts";
import { isDevelopment } from "../env.ts";
import { isCaptchaOn } from "../lib/captcha-on.ts";
import { ok } from "../lib/envelope.ts";
import { Forbidden, Unauthorized } from "../lib/errors.ts";
import { jsonBody, NoQuery, queryParams } from "../lib/validate.ts";
import { openBrowserSession, readBrowserSession } from "./browser-session.ts";
import { CODE_TTL_MS } from "./codes.ts";
import { logout } from "./profile.ts";
import { clientOf } from "./routes.ts";
import { BrowserSession, LoggedOut, SignInOptions, TERMS_VERSION, VerifyBody } from "./schemas.ts";

/** What the console's sign-in and sign-up pages need to know. */
export const signInOptions = (env: Env): SignInOptions => ({
  termsVersion: TERMS_VERSION,
  captcha: isCaptchaOn(env) ? { provider: "hcaptcha", siteKey: env.HCAPTCHA_SITE_KEY ?? "" } : null,
  devOutbox: isDevelopment(env) ? "/dev/outbox" : null,
  codeTtlSeconds: CODE_TTL_MS / 1000,
});

/** The session cookie of a request authenticated by it (bearer tokens and keys are not browser sessions). */
const cookieSession = (c: Context<AppEnv>): string => {
  const token = sessionCookieOf(c);
  if (token === undefined || c.req.header("authorization") !== undefined) throw new Unauthorized();
  return token;
};

export const browserAuthRoutes = new Hono<AppEnv>()
  .get(
    "/options",
    describe({
      operationId: "getSignInOptions",
      tag: "Account",
      summary: "What a sign-in page needs: terms version, captcha site key, the local outbox",
      public: true,
      query: NoQuery,
      ok: {
        status: 200,
        description: "`termsVersion`, `captcha` (null when off), `devOutbox`",
        data: SignInOptions,
      },
      mcp: false,
    }),
    (c) => {
      queryParams(c, NoQuery);
      return ok(c, signInOptions(c.env));
    },
  )
  .post(
    "/session",
    describe({
      operationId: "openBrowserSession",
      tag: "Account",
      summary: "Sign in a browser: exchange the e-mailed code for the session cookie",
      description:
        "Like POST /api/v1/auth/verify, but the session travels in an HttpOnly, Secure, SameSite=Strict cookie " +
        "(`__Host-mrs_session`) and the answer carries the session's `csrfToken` instead of the token. Only from " +
        "this origin (`Origin`). A session the browser already had is ended.",
      public: true,
      body: VerifyBody,
      ok: { status: 200, description: "The account, `csrfToken`, `expiresAt`", data: BrowserSession },
      errors: [400, 401, 403, 429],
      mcp: false,
    }),
    async (c) => {
      // A page of another site must not sign this browser in to an account of its choosing (login CSRF).
      if (!fromOwnOrigin(c)) throw new Forbidden("Cross-site sign-in refused");
      const ctx = c.var.ctx;
      const input = await jsonBody(c, VerifyBody);
      const opened = await openBrowserSession(ctx, input, clientOf(c), sessionCookieOf(c));
      setSessionCookie(c, opened.token, opened.expiresAt, ctx.now());
      return ok(c, opened.answer);
    },
  )
  .get(
    "/session",
    requireSession,
    describe({
      operationId: "getBrowserSession",
      tag: "Account",
      summary: "The browser's session: the account and the CSRF token",
      ok: { status: 200, description: "The account, `csrfToken`, `expiresAt`", data: BrowserSession },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await readBrowserSession(callerCtx(c), cookieSession(c))),
  )
  .delete(
    "/session",
    requireSession,
    describe({
      operationId: "closeBrowserSession",
      tag: "Account",
      summary: "Sign a browser out: the session is revoked and the cookie dropped",
      ok: { status: 200, description: "`loggedOut`", data: LoggedOut },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => {
      cookieSession(c);
      const answer = await logout(callerCtx(c));
      clearSessionCookie(c);
      return ok(c, answer);
    },
  );
