#!/usr/bin/env node
// `npm run key -- --email you@example.com [--permissions jobs:full,media:full] [--scopes templates:bulk,...]
//   [--plan free|pro|business] [--name "my key"] [--expires 2027-01-01T00:00:00Z]`
// Creates (or reuses) a local account and prints a new API key as the LAST line of output; `--email` given N times
// makes N accounts' keys in one run, printed in order as the last N lines (the load bench's 50). Goes through the same
// verbs and request schema as the API (src/accounts/provision-key.ts, bundled on the fly), on the local D1 of
// `wrangler dev` (STATE_DIR or --persist-to selects another persisted state, as for npm start).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseCommandLine } from "./lib/command-line.mjs";
import { ensureNodeModules, reexecOnProjectNode, root, setup } from "./setup.mjs";

const { values } = parseCommandLine({
  name: "key",
  command: "npm run key",
  args: "--email <address> [options]",
  about:
    "Creates (or reuses) a local account and prints a new API key (mrk_...) as the last line of output, through the\n" +
    "API's own verbs on the local D1 that npm start serves (the service need not be running).",
  options: {
    email: {
      type: "string",
      value: "address",
      multiple: true,
      help: "the account's e-mail address (required); given N times, N accounts' keys, printed in order",
    },
    permissions: {
      type: "string",
      value: "list",
      help: "resource:action pairs, comma-separated",
      default: "jobs:full,media:full",
    },
    scopes: { type: "string", value: "list", help: "extra scopes, comma-separated (e.g. templates:bulk)" },
    plan: {
      type: "string",
      value: "plan",
      help: "the account's plan: free, pro or business (a new account: free)",
    },
    name: { type: "string", value: "name", help: "the key's name", default: "local key" },
    expires: {
      type: "string",
      value: "time",
      help: "when the key expires (ISO 8601, e.g. 2027-01-01T00:00:00Z)",
    },
    "persist-to": {
      type: "string",
      value: "dir",
      help: "the local state folder (default: STATE_DIR, else .wrangler/state)",
    },
  },
  env: { STATE_DIR: "the local state npm start was started with (npm start's STATE_DIR)" },
  check: (v) => (v.email?.length ? undefined : "--email is required (an e-mail address)"),
});

ensureNodeModules();
if (!reexecOnProjectNode()) {
  values.scopes ??= "";
  const fail = (msg) => {
    console.error(`[key] ${msg}`);
    process.exit(2);
  };
  const persistTo = values["persist-to"] ?? process.env.STATE_DIR;
  await setup({ persistTo, migrate: false });

  // The verbs are TypeScript written for the Worker's bundler: bundle them for Node, as wrangler does for workerd.
  const { build } = await import("esbuild");
  const out = mkdtempSync(join(tmpdir(), "mrs-key-"));
  const entry = join(out, "provision.mjs");
  await build({
    stdin: {
      contents: `export { provisionKey } from ${JSON.stringify(join(root, "src/accounts/provision-key.ts"))};
        export { createContext } from ${JSON.stringify(join(root, "src/context.ts"))};`,
      resolveDir: root,
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: entry,
    logLevel: "error",
  });
  const { provisionKey, createContext } = await import(pathToFileURL(entry).href);

  // The local D1 exactly as `wrangler dev` persists it (wrangler.toml's database, the same state folder), its
  // migrations applied in the same workerd.
  const { applyMigrations, openLocalD1 } = await import("./lib/local-d1.mjs");
  const d1 = await openLocalD1(root, persistTo);
  try {
    const { DB } = d1;
    await applyMigrations(DB, d1.migrationsDir);
    const permissions = values.permissions
      .split(",")
      .filter(Boolean)
      .map((permission) => {
        const [resource, action] = permission.trim().split(":");
        return { resource, action };
      });
    const key = {
      name: values.name,
      permissions,
      ...(values.scopes ? { scopes: values.scopes.split(",").map((s) => s.trim()) } : {}),
      ...(values.expires ? { expiresAt: values.expires } : {}),
    };
    const ctx = createContext({ DB });
    const keys = [];
    for (const email of values.email) {
      const made = await provisionKey(ctx, { email, planId: values.plan, key });
      console.log(
        `[key] ${made.created ? "created" : "existing"} account ${made.email} (plan ${made.planId}); permissions ${values.permissions}${values.scopes ? `; scopes ${values.scopes}` : ""}`,
      );
      keys.push(made.key);
    }
    for (const k of keys) console.log(k);
  } catch (e) {
    const errors = e?.errors?.map((x) => `${x.field ?? ""}: ${x.message}`).join("; ");
    fail(errors || e?.message || String(e));
  } finally {
    await d1.dispose();
    rmSync(out, { recursive: true, force: true });
  }
}
