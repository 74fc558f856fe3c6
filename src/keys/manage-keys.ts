/** Listing and deleting the caller's API keys (a deleted key is refused at once: the lookup finds no row). */
import { and, desc, eq } from "drizzle-orm";
import type { CallerCtx } from "../context";
import { apiKeys } from "../db/schema";
import { NotFound } from "../lib/errors";
import { toApiKey } from "./serialize";

export const listApiKeys = async (ctx: CallerCtx) => {
  const rows = await ctx.db.query.apiKeys.findMany({
    where: eq(apiKeys.userId, ctx.caller.userId),
    orderBy: desc(apiKeys.createdAt),
  });
  return { apiKeys: rows.map(toApiKey) };
};

export const deleteApiKey = async (ctx: CallerCtx, id: string) => {
  const gone = await ctx.db
    .delete(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, ctx.caller.userId)))
    .returning({ id: apiKeys.id });
  if (!gone.length) throw new NotFound("API key");
  return { id, deleted: true };
};
