/**
 * The verbs of a browser's session (src/accounts/browser-routes.ts): the same sessions as bearer tokens, presented
 * in the session cookie, answered with the session's CSRF token rather than the token itself.
 */
import { eq } from "drizzle-orm";
import { csrfTokenOf } from "../auth/session-cookie.ts";
import type { CallerCtx, Ctx } from "../context.ts";
import { sessions } from "../db/schema.ts";
import { iso } from "../lib/time.ts";
import { getAccount, toAccount } from "./lookup.ts";
import type { BrowserSession } from "./schemas.ts";
import { authenticateSession, revokeSession } from "../auth/sessions.ts";
import { verifyCode, type Client } from "./sign-in.ts";

/**
 * Exchanges an e-mailed code for a session to put in the cookie; a session the browser already presented is
 * revoked (signing in again, or as someone else, leaves no second live session behind).
 */
export const openBrowserSession = async (
  ctx: Ctx,
  input: { email: string; token: string },
  client: Client,
  previousToken: string | undefined,
): Promise<{ token: string; expiresAt: number; answer: BrowserSession }> => {
  const { session, user } = await verifyCode(ctx, input, client);
  const previous = previousToken === undefined ? null : await authenticateSession(ctx, previousToken);
  if (previous) await revokeSession(ctx, previous.sessionId);
  return {
    token: session.token,
    expiresAt: Date.parse(session.expiresAt),
    answer: { user, csrfToken: await csrfTokenOf(ctx.env, session.token), expiresAt: session.expiresAt },
  };
};

/** The signed-in account of a cookie session and the session's CSRF token. */
export const readBrowserSession = async (ctx: CallerCtx, token: string): Promise<BrowserSession> => {
  const [account, row] = await Promise.all([
    getAccount(ctx, ctx.caller.userId),
    ctx.db.query.sessions.findFirst({ where: eq(sessions.id, ctx.caller.sessionId ?? "") }),
  ]);
  return {
    user: toAccount(account),
    csrfToken: await csrfTokenOf(ctx.env, token),
    expiresAt: iso(row?.expiresAt ?? ctx.now())!,
  };
};
