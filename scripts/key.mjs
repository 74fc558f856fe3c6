#!/usr/bin/env node
// `npm run key -- --email you@example.com --permissions jobs:full,media:full [--plan free|pro|business]
//   [--name "my key"] [--expires 2027-01-01T00:00:00Z]`
// Creates (or reuses) a local account and prints a new API key as the LAST line of output.
// Works on the local D1 of `wrangler dev` (STATE_DIR selects another persisted state, as for npm start).
import { createHash, randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";
import { ensureNodeModules, reexecOnProjectNode, root, setup } from "./setup.mjs";

ensureNodeModules();
if (!reexecOnProjectNode()) {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      permissions: { type: "string", default: "jobs:full,media:full" },
      plan: { type: "string", default: "free" },
      name: { type: "string", default: "local key" },
      expires: { type: "string" },
      "persist-to": { type: "string" },
    },
  });
  const fail = (msg) => {
    console.error(`[key] ${msg}`);
    process.exit(2);
  };
  if (!values.email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(values.email))
    fail("--email is required (an e-mail address)");
  const permissions = values.permissions.split(",").map((p) => {
    const [resource, action] = p.trim().split(":");
    if (!["media", "jobs"].includes(resource) || !["read", "full"].includes(action)) {
      fail(`bad permission "${p}": use media:read, media:full, jobs:read or jobs:full`);
    }
    return { resource, action };
  });
  let expiresAt = "NULL";
  if (values.expires) {
    const t = Date.parse(values.expires);
    if (!Number.isFinite(t) || t <= Date.now()) fail("--expires must be a future date-time");
    expiresAt = String(t);
  }
  const persistTo = values["persist-to"] ?? process.env.STATE_DIR;
  await setup({ persistTo });

  const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
  const email = values.email.toLowerCase();
  const now = Date.now();
  const id = (prefix) => `${prefix}_${randomBytes(12).toString("hex")}`;
  const key = `mrk_${randomBytes(24).toString("base64url")}`;
  const hash = createHash("sha256").update(key).digest("hex");
  const d = new Date(now);
  const periodEnd = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  const userId = id("acc");
  // Same rows as src/accounts/create-account.ts and src/keys/create-api-key.ts: the grant is a ledger row,
  // and only the key's SHA-256 is stored.
  const sql = `
INSERT INTO users (id, email, name, plan_id, token_balance, prepaid_balance, current_period_end, created_at, updated_at)
  SELECT ${q(userId)}, ${q(email)}, NULL, p.id, p.tokens_per_month, 0, ${periodEnd}, ${now}, ${now} FROM plans p
  WHERE p.id = ${q(values.plan)} AND NOT EXISTS (SELECT 1 FROM users WHERE email = ${q(email)});
INSERT INTO token_ledger (id, user_id, job_id, kind, amount, note, created_at)
  SELECT ${q(id("txn"))}, u.id, NULL, 'grant', u.token_balance, 'monthly allowance', ${now} FROM users u
  WHERE u.id = ${q(userId)};
INSERT INTO api_keys (id, user_id, name, key_hash, prefix, permissions, scopes, expires_at, created_at)
  SELECT ${q(id("key"))}, u.id, ${q(values.name)}, ${q(hash)}, ${q(key.slice(0, 12))}, ${q(JSON.stringify(permissions))}, '[]', ${expiresAt}, ${now}
  FROM users u WHERE u.email = ${q(email)};
SELECT count(*) AS keys FROM api_keys k JOIN users u ON u.id = k.user_id WHERE u.email = ${q(email)} AND k.key_hash = ${q(hash)};`;
  const out = execFileSync(
    `${root}/node_modules/.bin/wrangler`,
    [
      "d1",
      "execute",
      "DB",
      "--local",
      "--json",
      "--command",
      sql,
      ...(persistTo ? ["--persist-to", persistTo] : []),
    ],
    {
      cwd: root,
      encoding: "utf8",
      env: {
        ...process.env,
        CI: "true",
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
        WRANGLER_SEND_METRICS: "false",
      },
    },
  );
  const results = JSON.parse(out);
  const count = results.at(-1)?.results?.[0]?.keys;
  if (count !== 1) fail(`could not create the key (unknown plan "${values.plan}"?)`);
  console.log(`[key] account ${email} (plan ${values.plan}); permissions ${values.permissions}`);
  console.log(key);
}
