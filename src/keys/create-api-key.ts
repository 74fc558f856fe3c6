/** Creates an API key for an account. The plain key is returned once and never stored. */
import { getDb } from "../db/client";
import { apiKeys } from "../db/schema";
import type { Permission } from "../auth/api-key";
import { randomToken, sha256Hex } from "../lib/crypto";
import { newId } from "../lib/ids";

/** Every key starts with this, so leaked keys are easy to recognise (secret scanners, logs). */
export const KEY_PREFIX = "mrk_";

export interface CreatedApiKey {
  id: string;
  key: string;
  prefix: string;
  name: string;
  permissions: Permission[];
  expiresAt: number | null;
  createdAt: number;
}

export const createApiKey = async ({
  d1,
  input,
}: {
  d1: D1Database;
  input: {
    userId: string;
    name: string;
    permissions: Permission[];
    scopes?: string[];
    expiresAt?: number | null;
  };
}): Promise<CreatedApiKey> => {
  const key = `${KEY_PREFIX}${randomToken(24)}`;
  const row = {
    id: newId("key"),
    userId: input.userId,
    name: input.name,
    keyHash: await sha256Hex(key),
    prefix: key.slice(0, 12),
    permissions: input.permissions,
    scopes: input.scopes ?? [],
    expiresAt: input.expiresAt ?? null,
    createdAt: Date.now(),
  };
  await getDb(d1).insert(apiKeys).values(row).run();
  return {
    id: row.id,
    key,
    prefix: row.prefix,
    name: row.name,
    permissions: row.permissions,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
  };
};
