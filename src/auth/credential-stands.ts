/**
 * Whether the credential a request authenticated with still stands: its API key exists and has not expired, or its
 * session is neither revoked nor expired, and either way its account still exists. An answer that outlives its
 * request's authentication (a job's event stream, up to 5 minutes) asks again while it runs, so a deleted key, a
 * signed-out session or a removed account ends it. One indexed read of the credential's row.
 */
import type { CallerCtx } from "../context.ts";

export const credentialStands = async (ctx: CallerCtx): Promise<boolean> => {
  const { keyId, sessionId, userId } = ctx.caller;
  const at = ctx.now();
  const row = keyId
    ? await ctx.d1
        .prepare(
          `SELECT 1 AS live FROM api_keys k JOIN users u ON u.id = k.user_id
           WHERE k.id = ?1 AND k.user_id = ?2 AND (k.expires_at IS NULL OR k.expires_at > ?3)`,
        )
        .bind(keyId, userId, at)
        .first()
    : sessionId
      ? await ctx.d1
          .prepare(
            `SELECT 1 AS live FROM sessions s JOIN users u ON u.id = s.user_id
             WHERE s.id = ?1 AND s.user_id = ?2 AND s.revoked_at IS NULL AND s.expires_at > ?3`,
          )
          .bind(sessionId, userId, at)
          .first()
      : null;
  return row !== null;
};
