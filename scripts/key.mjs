#!/usr/bin/env node
// `npm run key -- --email you@example.com [--permissions jobs:full,media:full] [--scopes templates:bulk,...]
//   [--plan free|pro|business] [--name "my key"] [--expires 2027-01-01T00:00:00Z]`
// Creates (or reuses) a local account and prints a new API key as the LAST line of output. Goes through the same
// verbs and request schema as the API (src/accounts/provision-key.ts, bundled on the fly), on the local D1 of
// `wrangler dev` (STATE_DIR or --persist-to selects another persisted state, as for npm start).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { ensureNodeModules, reexecOnProjectNode, root, setup } from "./setup.mjs";

ensureNodeModules();
if (!reexecOnProjectNode()) {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      permissions: { type: "string", default: "jobs:full,media:full" },
      scopes: { type: "string", default: "" },
      plan: { type: "string" },
      name: { type: "string", default: "local key" },
      expires: { type: "string" },
      "persist-to": { type: "string" },
    },
  });
  const fail = (msg) => {
    console.error(`[key] ${msg}`);
    process.exit(2);
  };
  if (!values.email) fail("--email is required (an e-mail address)");
  const persistTo = values["persist-to"] ?? process.env.STATE_DIR;
  await setup({ persistTo });

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

  // The local D1 exactly as `wrangler dev` persists it: wrangler.toml's database, the same state folder. A config
  // of just that database keeps the proxy from starting (and warning about) the Worker's other bindings.
  process.env.WRANGLER_LOG ??= "error";
  const { getPlatformProxy, unstable_readConfig } = await import("wrangler");
  const config = unstable_readConfig({ config: join(root, "wrangler.toml") });
  const dbConfig = join(out, "wrangler.json");
  writeFileSync(
    dbConfig,
    JSON.stringify({
      name: config.name,
      compatibility_date: config.compatibility_date,
      d1_databases: config.d1_databases.filter((d) => d.binding === "DB"),
    }),
  );
  const proxy = await getPlatformProxy({
    configPath: dbConfig,
    persist: { path: persistTo ? join(persistTo, "v3") : join(root, ".wrangler", "state", "v3") },
    remoteBindings: false,
  });
  try {
    const DB = proxy.env.DB;
    const permissions = values.permissions
      .split(",")
      .filter(Boolean)
      .map((p) => {
        const [resource, action] = p.trim().split(":");
        return { resource, action };
      });
    const key = {
      name: values.name,
      permissions,
      ...(values.scopes ? { scopes: values.scopes.split(",").map((s) => s.trim()) } : {}),
      ...(values.expires ? { expiresAt: values.expires } : {}),
    };
    const ctx = createContext({ DB });
    const made = await provisionKey(ctx, { email: values.email, planId: values.plan, key });
    console.log(
      `[key] ${made.created ? "created" : "existing"} account ${made.email} (plan ${made.planId}); permissions ${values.permissions}${values.scopes ? `; scopes ${values.scopes}` : ""}`,
    );
    console.log(made.key);
  } catch (e) {
    const errors = e?.errors?.map((x) => `${x.field ?? ""}: ${x.message}`).join("; ");
    fail(errors || e?.message || String(e));
  } finally {
    await proxy.dispose();
    rmSync(out, { recursive: true, force: true });
  }
}
