// The steps of `npm run deploy` (scripts/deploy.mjs), one function each, in the order it runs them (docs/deploying.md):
// account, settings, d1 and r2, queues, secrets, migrations, deploy, after. Each prints one `[deploy] step <name>:`
// line per thing it looks at (with "would" in a dry run) and, in a real run, changes what it names; a step that
// cannot go on throws, and the deploy stops there.
//
// A step takes the run: `{ plan, dry, inspect, have, would }`: the plan (plan.mjs's readPlan), whether this is a dry
// run, whether the account is read (always in a real run), what it holds (inspectAccount, once read; null when it is
// not), and `would(text)`, the text with "would" before it in a dry run.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mirrorCheckout } from "../mirror.mjs";
import { ask, log, wrangler } from "./wrangler.mjs";
import { SECRETS, askHidden, keepSecret, secretValue } from "./worker-secrets.mjs";

/** The example address wrangler.toml ships with: a deploy that keeps it could not be reached by its renderer. */
const EXAMPLE_PUBLIC_URL = /\.example\.workers\.dev/;

/** Applies the D1 migrations not yet applied, to the account's database. */
const MIGRATE = ["d1", "migrations", "apply", "DB", "--remote"];

/** Whether the account has a resource: "exists", or `missing` (what is done about it) if it lacks it or is unread. */
const found = ({ have }, exists, missing) =>
  !have ? `${missing} if missing` : exists ? "exists" : `missing: ${missing}`;

/** account: wrangler is logged in (read only when the account is read). */
export const stepAccount = ({ inspect }) => {
  log(`step account: ${inspect ? "" : "would "}check the login (wrangler whoami)`);
  if (!inspect) return;
  const who = ask(["whoami"]);
  if (!who || /not authenticated/i.test(who)) {
    throw new Error("not logged in: run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN) first");
  }
  for (const line of who
    .split("\n")
    .filter((l) => /logged in|account/i.test(l))
    .slice(0, 3))
    log(`  ${line.trim()}`);
};

/** settings: PUBLIC_URL (the environment's first) and MAIL_FROM; a real run stops on the example address. */
export const stepSettings = ({ plan, dry }) => {
  const publicUrl = process.env.PUBLIC_URL || plan.vars.PUBLIC_URL;
  const example = EXAMPLE_PUBLIC_URL.test(publicUrl);
  log(
    `step settings: PUBLIC_URL ${publicUrl}${example ? " is still the example" : ""}, MAIL_FROM ${plan.vars.MAIL_FROM}`,
  );
  if (example) {
    log(
      "  set PUBLIC_URL in wrangler.toml (or the environment) to the Worker's public address: the renderer",
    );
    log("  fetches inputs, uploads outputs and posts its callbacks there");
    if (!dry) throw new Error("PUBLIC_URL is still the example");
  }
  return publicUrl;
};

/** d1 and r2: whether the database and the bucket exist; wrangler deploy creates them (their bindings have no id). */
export const stepStorage = (run) => {
  const provisioned = "wrangler deploy creates it (the binding has no id)";
  log(`step d1: database "${run.plan.database}" (binding DB): ${found(run, run.have?.d1, provisioned)}`);
  log(`step r2: bucket "${run.plan.bucket}" (binding FILES): ${found(run, run.have?.r2, provisioned)}`);
};

/** queues: each queue wrangler.toml names, created when the account lacks it. */
export const stepQueues = (run) => {
  const { plan, dry, have, would } = run;
  for (const queue of plan.queues) {
    log(
      `step queues: "${queue}": ${found(run, have?.queues.has(queue), would(`create it (wrangler queues create ${queue})`))}`,
    );
  }
  if (!dry)
    for (const queue of plan.queues.filter((name) => !have.queues.has(name)))
      wrangler(["queues", "create", queue]);
};

/**
 * secrets: each secret the account lacks gets its value (generated, from the environment, or asked for on a
 * terminal); a kept one (ADMIN_PASSWORD) is written to its owner-only file. Returns the values to upload with the
 * deploy, by name, and the secrets left unset.
 */
export const stepSecrets = async (run) => {
  const { plan, dry, have, would } = run;
  const askSecret = !dry && process.stdin.isTTY ? askHidden : null;
  const upload = {};
  const unset = [];
  for (const secret of SECRETS) {
    if (have?.secrets.has(secret.name)) {
      log(`step secrets: ${secret.name}: set already, kept`);
      continue;
    }
    const source = process.env[secret.name]
      ? `take it from $${secret.name}`
      : secret.generate
        ? (secret.how ?? "generate it")
        : `ask for it (or take $${secret.name})`;
    log(`step secrets: ${secret.name}: ${found(run, false, would(source))} (${secret.about})`);
    if (dry) continue;
    const value = await secretValue(secret, askSecret);
    if (value) upload[secret.name] = value;
    else unset.push(secret);
    if (value && secret.keep && !process.env[secret.name])
      log(
        `  ${secret.name} written to ${keepSecret(plan.worker, secret.name, value)} (owner-only; not printed)`,
      );
  }
  if (have?.secrets.has("RUNNER_SECRET")) {
    log(
      "step secrets: RUNNER_SECRET, the renderer's secret before its rename, is still set: once this deploy is up,",
    );
    log("  remove it with `wrangler secret delete RUNNER_SECRET`");
  }
  return { upload, unset };
};

/**
 * migrations: applied before the deploy when the database exists, so new code meets its schema; when it does not,
 * the deploy step applies them right after the deploy that creates it.
 */
export const stepMigrations = ({ plan, dry, have, would }) => {
  const when = !have
    ? "before the deploy if the database exists, else right after the deploy that creates it"
    : have.d1
      ? "before the deploy"
      : "right after the deploy that creates the database";
  log(
    `step migrations: ${would(`apply those of the ${plan.migrations} in migrations/ not yet applied`)}, ${when}`,
  );
  log(`  (wrangler ${MIGRATE.join(" ")})`);
  if (!dry && have.d1) wrangler(MIGRATE);
};

/**
 * Builds the bundle as `wrangler deploy` would, without uploading, from a mirror of the checkout `root` (a symlink per
 * top-level entry) in a temporary folder: wrangler writes its .wrangler/tmp beside the config it reads, and so it
 * writes there, not into the checkout.
 */
const buildBundle = (root) => {
  const mirror = mkdtempSync(join(tmpdir(), "mrs-deploy-"));
  // The bundle goes beside the mirror, not into it: a `dist` of the mirror would be the checkout's.
  const out = mkdtempSync(join(tmpdir(), "mrs-bundle-"));
  try {
    mirrorCheckout(root, mirror);
    const result = spawnSync(
      "wrangler",
      ["deploy", "--dry-run", "--outdir", out, "--containers-rollout=none", "--config", "wrangler.toml"],
      // No usage metrics either: a dry run sends nothing to Cloudflare.
      { cwd: mirror, stdio: "inherit", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
    );
    if (result.error) throw result.error;
    if (result.status !== 0) throw new Error(`wrangler deploy --dry-run exited with ${result.status}`);
  } finally {
    rmSync(mirror, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
};

/**
 * deploy: `wrangler deploy` with the secrets to `upload` in the same version (a temporary owner-only file), then the
 * migrations when the database was just created. A dry run builds the bundle from the checkout `root` instead.
 */
export const stepDeploy = ({ dry, have }, upload, root) => {
  const names = Object.keys(upload);
  if (dry) {
    const missing = !have || SECRETS.some((s) => !have.secrets.has(s.name));
    log(
      `step deploy: would run wrangler deploy${missing ? " --secrets-file <the missing secrets, a temporary file>" : ""}`,
    );
    log("  building the bundle now, uploading nothing (wrangler deploy --dry-run):");
    buildBundle(root);
    return;
  }
  log(`step deploy: wrangler deploy${names.length ? `, uploading the secrets ${names.join(", ")}` : ""}`);
  const dir = mkdtempSync(join(tmpdir(), "mrs-secrets-"));
  try {
    const file = join(dir, "secrets.json");
    writeFileSync(file, JSON.stringify(upload), { mode: 0o600 });
    wrangler(["deploy", ...(names.length ? ["--secrets-file", file] : [])]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (!have.d1) wrangler(MIGRATE);
};

/**
 * after: what is left to do by hand: each secret left `unset` that the service needs (by the Worker's own `rules`
 * for the captcha), then what only the dashboard can do, at `publicUrl`.
 */
export const stepAfter = ({ plan }, { unset, rules, publicUrl }) => {
  for (const secret of unset.filter((candidate) => !candidate.needed || candidate.needed(plan.vars, rules))) {
    log(
      `not set: ${secret.name} (${secret.about}); set it with \`wrangler secret put ${secret.name}\` or run this again`,
    );
  }
  log(
    "step after: by hand, once (docs/deploying.md): a rate-limiting rule in front of the Worker; Stripe's webhook",
  );
  log(
    `  endpoint at ${publicUrl.replace(/\/$/, "")}/api/v1/billing/webhook; the mail sender's domain in Email Service`,
  );
};
