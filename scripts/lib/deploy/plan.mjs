// What `npm run deploy` (scripts/deploy.mjs) reads before it changes anything: the resources wrangler.toml names and
// its production variables (the plan), and what the Cloudflare account already has of them.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ask } from "./wrangler.mjs";

/** The resources `root`/wrangler.toml names, and its production variables. */
export const readPlan = async (root) => {
  // Quiet while reading the config only: the wrangler commands run later inherit this environment.
  const level = process.env.WRANGLER_LOG;
  process.env.WRANGLER_LOG = "error";
  const { unstable_readConfig } = await import("wrangler");
  const config = unstable_readConfig({ config: join(root, "wrangler.toml") });
  if (level === undefined) delete process.env.WRANGLER_LOG;
  else process.env.WRANGLER_LOG = level;
  const db = config.d1_databases.find((d) => d.binding === "DB");
  const queues = new Set();
  for (const producer of config.queues.producers ?? []) queues.add(producer.queue);
  for (const consumer of config.queues.consumers ?? []) {
    queues.add(consumer.queue);
    if (consumer.dead_letter_queue) queues.add(consumer.dead_letter_queue);
  }
  return {
    worker: config.name,
    database: db.database_name,
    bucket: config.r2_buckets.find((b) => b.binding === "FILES").bucket_name,
    queues: [...queues],
    vars: config.vars,
    migrations: readdirSync(join(root, db.migrations_dir ?? "migrations")).filter((f) => f.endsWith(".sql"))
      .length,
  };
};

/** What the account already has, read with wrangler's read-only commands. */
export const inspectAccount = (plan) => {
  const names = (out) => {
    try {
      return new Set(JSON.parse(out ?? "[]").map((s) => s.name));
    } catch {
      return new Set();
    }
  };
  return {
    d1: ask(["d1", "info", plan.database, "--json"]) !== null,
    r2: ask(["r2", "bucket", "info", plan.bucket]) !== null,
    queues: new Set(plan.queues.filter((q) => ask(["queues", "info", q]) !== null)),
    // Before the first deploy there is no Worker to list secrets of: none is set.
    secrets: names(ask(["secret", "list", "--format", "json"])),
  };
};
