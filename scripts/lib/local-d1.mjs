// The local D1 of `wrangler dev` (wrangler.toml's DB binding, persisted under STATE_DIR or .wrangler/state), opened
// in one workerd through wrangler's getPlatformProxy, and its migrations applied there.
//
// `wrangler d1 migrations apply --local` starts a workerd for each step (the bookkeeping table, the list, then each
// migration): 13 for our 10 migrations on a fresh state, ~9 CPU-seconds, and 2 when nothing is left to apply. This
// applies them the way Cloudflare's own test pool does (applyD1Migrations of @cloudflare/vitest-plugin, which the
// Worker suite runs): wrangler's `d1_migrations` table, each missing migration's statements, split by wrangler's own
// splitter, and its row in one batch, in file order. `wrangler d1 migrations list --local` then lists none to apply.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** wrangler's table of applied migrations (its default name: wrangler.toml sets no migrations_table). */
const TABLE = "d1_migrations";

/** The database settings of wrangler.toml's DB binding. */
const dbConfig = (wrangler, root) => {
  const config = wrangler.unstable_readConfig({ config: join(root, "wrangler.toml") });
  const db = config.d1_databases.find((d) => d.binding === "DB");
  if (!db) throw new Error("wrangler.toml has no D1 database bound as DB");
  return { config, db };
};

/**
 * Opens the local D1 `wrangler dev` uses (the same database, the same state folder: `persistTo` or .wrangler/state).
 * A config of just that database keeps the proxy from starting (and warning about) the Worker's other bindings.
 */
export const openLocalD1 = async (root, persistTo) => {
  process.env.WRANGLER_LOG ??= "error";
  const wrangler = await import("wrangler");
  const { config, db } = dbConfig(wrangler, root);
  const dir = mkdtempSync(join(tmpdir(), "mrs-d1-"));
  const configPath = join(dir, "wrangler.json");
  writeFileSync(
    configPath,
    JSON.stringify({ name: config.name, compatibility_date: config.compatibility_date, d1_databases: [db] }),
  );
  try {
    const proxy = await wrangler.getPlatformProxy({
      configPath,
      persist: { path: persistTo ? join(persistTo, "v3") : join(root, ".wrangler", "state", "v3") },
      remoteBindings: false,
    });
    const dispose = async () => {
      await proxy.dispose();
      rmSync(dir, { recursive: true, force: true });
    };
    return { DB: proxy.env.DB, migrationsDir: join(root, db.migrations_dir ?? "migrations"), dispose };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
};

/** The migrations of `dir` in the order wrangler applies them (their numbered names), each split into statements. */
const readMigrations = async (dir) => {
  const { unstable_splitSqlQuery } = await import("wrangler");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((name) => ({ name, queries: unstable_splitSqlQuery(readFileSync(join(dir, name), "utf8")) }));
};

/** Applies the migrations of `dir` that `DB` has not recorded; returns the names it applied. */
export const applyMigrations = async (DB, dir) => {
  await DB.prepare(
    `CREATE TABLE IF NOT EXISTS ${TABLE}(
      id         INTEGER PRIMARY KEY AUTOINCREMENT,
      name       TEXT UNIQUE,
      applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
    );`,
  ).run();
  const applied = new Set((await DB.prepare(`SELECT name FROM ${TABLE}`).all()).results.map((r) => r.name));
  const done = [];
  for (const { name, queries } of await readMigrations(dir)) {
    if (applied.has(name)) continue;
    try {
      await DB.batch([
        ...queries.map((q) => DB.prepare(q)),
        DB.prepare(`INSERT INTO ${TABLE} (name) VALUES (?)`).bind(name),
      ]);
    } catch (e) {
      throw new Error(`migration ${name} failed: ${e?.message ?? e}`);
    }
    done.push(name);
  }
  return done;
};
