/** An API key as its owner sees it: never the secret, never its hash. */
import type { apiKeys } from "../db/schema";
import { iso } from "../lib/time";

export const toApiKey = (row: typeof apiKeys.$inferSelect) => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  permissions: row.permissions,
  scopes: row.scopes,
  expiresAt: iso(row.expiresAt),
  lastUsedAt: iso(row.lastUsedAt),
  createdAt: iso(row.createdAt)!,
});
