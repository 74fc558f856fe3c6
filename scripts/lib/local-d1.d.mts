// Types of local-d1.mjs for the TypeScript callers (tests).
import type { D1Database } from "@cloudflare/workers-types";

export interface LocalD1 {
  /** wrangler.toml's DB binding on the local state. */
  DB: D1Database;
  /** wrangler.toml's migrations folder for it. */
  migrationsDir: string;
  dispose(): Promise<void>;
}
export function openLocalD1(root: string, persistTo?: string): Promise<LocalD1>;
export function applyMigrations(DB: D1Database, dir: string): Promise<string[]>;
