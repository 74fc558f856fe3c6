/** An API key as its owner sees it (schemas.ts ApiKey): never the secret, never its hash. */
import type { apiKeys } from "../db/schema.ts";
import { iso } from "../lib/time.ts";
import type { ApiKey } from "./schemas.ts";

export const toApiKey = (row: typeof apiKeys.$inferSelect): ApiKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  // Stored only after CreateApiKeyBody accepted them, so they are of its kinds.
  permissions: row.permissions as ApiKey["permissions"],
  scopes: row.scopes as ApiKey["scopes"],
  expiresAt: iso(row.expiresAt),
  lastUsedAt: iso(row.lastUsedAt),
  createdAt: iso(row.createdAt)!,
});
