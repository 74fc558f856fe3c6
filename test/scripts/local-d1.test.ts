/**
 * scripts/lib/local-d1.mjs: `npm start` and `npm run key` apply the D1 migrations in one workerd, keeping wrangler's
 * own bookkeeping, so `wrangler d1 migrations list --local` (and `npm run db:migrate:local`) find nothing to apply.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, openLocalD1 } from "../../scripts/lib/local-d1.mjs";

const root = process.cwd();
const state = mkdtempSync(join(tmpdir(), "mrs-d1-test-"));
const MIGRATIONS = readdirSync(join(root, "migrations"))
  .filter((f) => f.endsWith(".sql"))
  .sort();
let d1: Awaited<ReturnType<typeof openLocalD1>>;

beforeAll(async () => {
  d1 = await openLocalD1(root, state);
});
afterAll(async () => {
  await d1?.dispose();
  rmSync(state, { recursive: true, force: true });
});

describe("the local D1's migrations", () => {
  it("applies every migration once, in order, where wrangler records them, and none on a second run", async () => {
    expect(await applyMigrations(d1.DB, d1.migrationsDir)).toEqual(MIGRATIONS);
    const rows = (await d1.DB.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>())
      .results;
    expect(rows.map((r) => r.name)).toEqual(MIGRATIONS);
    // The schema is there: the seeded plans of 0001 and a table of the last migration.
    const plans = await d1.DB.prepare("SELECT count(*) AS n FROM plans").first<{ n: number }>();
    expect(plans!.n).toBeGreaterThan(0);
    await d1.DB.prepare("SELECT count(*) FROM job_chunks").first();
    expect(await applyMigrations(d1.DB, d1.migrationsDir)).toEqual([]);
  });

  it("leaves wrangler nothing to apply", async () => {
    await d1.dispose(); // wrangler opens the same files
    try {
      const out = execFileSync(
        join(root, "node_modules", ".bin", "wrangler"),
        ["d1", "migrations", "list", "DB", "--local", "--persist-to", state],
        {
          cwd: root,
          encoding: "utf8",
          env: {
            ...process.env,
            CI: "true",
            CLOUDFLARE_CF_FETCH_ENABLED: "false",
            WRANGLER_SEND_METRICS: "false",
            // openLocalD1 quiets wrangler in this process (WRANGLER_LOG=error): its answer is a log line.
            WRANGLER_LOG: "log",
          },
        },
      );
      expect(out).toContain("No migrations to apply");
    } finally {
      d1 = await openLocalD1(root, state);
    }
  });

  it("names a migration that fails, records nothing of it, and applies the ones before it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mrs-d1-bad-"));
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "0100_good.sql"), "CREATE TABLE probe_good (id INTEGER PRIMARY KEY);\n");
      writeFileSync(
        join(dir, "0101_bad.sql"),
        "CREATE TABLE probe_half (id INTEGER PRIMARY KEY);\nINSERT INTO no_such_table VALUES (1);\n",
      );
      await expect(applyMigrations(d1.DB, dir)).rejects.toThrow(
        /migration 0101_bad\.sql failed: .*no_such_table/,
      );
      const names = (
        await d1.DB.prepare("SELECT name FROM d1_migrations").all<{ name: string }>()
      ).results.map((r) => r.name);
      expect(names).toContain("0100_good.sql");
      expect(names).not.toContain("0101_bad.sql");
      // The failing migration's batch is one transaction: its first statement is gone with it.
      const half = await d1.DB.prepare("SELECT name FROM sqlite_master WHERE name = 'probe_half'").first();
      expect(half).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
