/**
 * Listing and deleting the caller's API keys. A deleted key is refused at once: its row goes, and its gate (which
 * keeps the row it read for up to a minute) is told to forget it.
 */
import { and, desc, eq } from "drizzle-orm";
import type { CallerCtx } from "../context.ts";
import { apiKeys } from "../db/schema.ts";
import { credentialGate } from "../auth/credential-gate.ts";
import { NotFound } from "../lib/errors.ts";
import { limiterUnavailable } from "../lib/rate-limit.ts";
import type { Deleted } from "../lib/envelope.ts";
import type { ApiKeyList } from "./schemas.ts";
import { toApiKey } from "./serialize.ts";

export const listApiKeys = async (ctx: CallerCtx): Promise<ApiKeyList> => {
  const rows = await ctx.db.query.apiKeys.findMany({
    where: eq(apiKeys.userId, ctx.caller.userId),
    orderBy: desc(apiKeys.createdAt),
  });
  return { apiKeys: rows.map(toApiKey) };
};

export const deleteApiKey = async (ctx: CallerCtx, id: string): Promise<Deleted> => {
  const gone = await ctx.db
    .delete(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, ctx.caller.userId)))
    .returning({ keyHash: apiKeys.keyHash });
  if (!gone.length) throw new NotFound("API key");
  try {
    await credentialGate(ctx.env, "key", gone[0]!.keyHash).forget();
  } catch (e) {
    // The row is gone; a gate that missed this forgets the key within KEY_ROW_TTL_MS (and one that cannot be
    // reached sends requests to D1, which no longer has it).
    limiterUnavailable(e);
  }
  return { id, deleted: true };
};
