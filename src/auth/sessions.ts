/**
 * Sessions: the bearer credential (spec, Authentication rule 6) of account, key and billing operations. The token
 * is random (`mrs_` + 32 bytes), shown once at verify, stored as its SHA-256, valid for SESSION_TTL_MS unless
 * revoked (logout).
 */
import { and, eq, gt, isNull, lt, ne } from "drizzle-orm";
import type { Caller } from "./caller.ts";
import type { Ctx } from "../context.ts";
import { randomToken, sha256Hex } from "@media-render/contract/crypto";
import { sessions } from "../db/schema.ts";
import { newId } from "../lib/ids.ts";
import { iso } from "../lib/time.ts";

export const SESSION_TTL_MS = 30 * 24 * 3600_000;
export const SESSION_PREFIX = "mrs_";

/** Opens a session for `userId`; the token is returned once. */
export const createSession = async (ctx: Ctx, userId: string) => {
  const at = ctx.now();
  const token = `${SESSION_PREFIX}${randomToken(32)}`;
  const expiresAt = at + SESSION_TTL_MS;
  await ctx.db
    .insert(sessions)
    .values({ id: newId("ses"), userId, tokenHash: await sha256Hex(token), expiresAt, createdAt: at })
    .run();
  return { token, expiresAt: iso(expiresAt)! };
};

/** The caller a session token stands for: the account's owner, with every permission and scope. */
export const authenticateSession = async (
  ctx: Ctx,
  token: string,
): Promise<(Caller & { sessionId: string }) | null> => {
  const row = await ctx.db.query.sessions.findFirst({
    where: and(
      eq(sessions.tokenHash, await sha256Hex(token)),
      isNull(sessions.revokedAt),
      gt(sessions.expiresAt, ctx.now()),
    ),
  });
  if (!row) return null;
  return {
    userId: row.userId,
    keyId: null,
    sessionId: row.id,
    permissions: [
      { resource: "jobs", action: "full" },
      { resource: "media", action: "full" },
    ],
    scopes: [],
    owner: true,
  };
};

/** Revokes one session (logout). */
export const revokeSession = async (ctx: Ctx, sessionId: string): Promise<void> => {
  await ctx.db.update(sessions).set({ revokedAt: ctx.now() }).where(eq(sessions.id, sessionId)).run();
};

/** Revokes every session of an account (after an e-mail change). */
export const revokeAllSessions = async (ctx: Ctx, userId: string, except?: string): Promise<void> => {
  await ctx.db
    .update(sessions)
    .set({ revokedAt: ctx.now() })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        except ? ne(sessions.id, except) : undefined,
      ),
    )
    .run();
};

/** Cron: removes sessions that ended more than a day ago. */
export const pruneSessions = async (ctx: Ctx): Promise<void> => {
  await ctx.db
    .delete(sessions)
    .where(lt(sessions.expiresAt, ctx.now() - 86_400_000))
    .run();
};
