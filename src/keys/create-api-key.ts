/**
 * Creates an API key for an account. The plain key is returned once and never stored: only its SHA-256 and a
 * prefix for recognising it in listings. Used by POST /api/v1/api-keys and by `npm run key` alike.
 */
import { count, eq } from "drizzle-orm";
import type { Permission } from "../auth/caller.ts";
import type { Ctx } from "../context.ts";
import { randomToken, sha256Hex } from "@media-render/contract/crypto";
import { apiKeys } from "../db/schema.ts";
import { ValidationFailed } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { MAX_KEYS_PER_ACCOUNT, type CreatedApiKey } from "./schemas.ts";
import { toApiKey } from "./serialize.ts";

/** Every key starts with this, so leaked keys are easy to recognise (secret scanners, logs). */
export const KEY_PREFIX = "mrk_";

export const createApiKey = async (
  ctx: Ctx,
  input: {
    userId: string;
    name: string;
    permissions: Permission[];
    scopes?: string[];
    expiresAt?: number | null;
  },
): Promise<CreatedApiKey> => {
  const at = ctx.now();
  if (input.expiresAt != null && input.expiresAt <= at)
    throw new ValidationFailed([
      { field: "expiresAt", message: "expiresAt must be in the future", code: "VALIDATION_ERROR" },
    ]);
  const [held] = await ctx.db.select({ n: count() }).from(apiKeys).where(eq(apiKeys.userId, input.userId));
  if ((held?.n ?? 0) >= MAX_KEYS_PER_ACCOUNT)
    throw new ValidationFailed(
      [
        {
          field: "name",
          message: `An account holds at most ${MAX_KEYS_PER_ACCOUNT} keys: delete one first`,
          code: "TOO_MANY_KEYS",
        },
      ],
      "Too many API keys",
    );
  const key = `${KEY_PREFIX}${randomToken(24)}`;
  const unique = <T>(xs: T[]) => [...new Map(xs.map((x) => [JSON.stringify(x), x])).values()];
  const row = {
    id: newId("key"),
    userId: input.userId,
    name: input.name,
    keyHash: await sha256Hex(key),
    prefix: key.slice(0, 12),
    permissions: unique(input.permissions),
    scopes: unique(input.scopes ?? []),
    expiresAt: input.expiresAt ?? null,
    lastUsedAt: null,
    createdAt: at,
  };
  await ctx.db.insert(apiKeys).values(row).run();
  return { key, apiKey: toApiKey(row) };
};
