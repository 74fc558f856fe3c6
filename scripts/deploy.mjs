#!/usr/bin/env node
// `npm run deploy [-- --dry-run [--inspect]]`: deploys the service to the Cloudflare account wrangler is logged in
// to, in one guided run that is safe to repeat (docs/deploying.md):
// account -> settings -> D1 and R2 (left to wrangler deploy's own provisioning of bindings without ids) -> queues
// (created when missing) -> secrets (generated or asked for when missing, uploaded with the deploy) -> D1 migrations
// (`--remote`; before the deploy, or right after it when the deploy has just provisioned the database) -> deploy.
// --dry-run prints every step and calls nothing that changes the account; it builds the bundle with
// `wrangler deploy --dry-run` from a mirror of the checkout in a temporary folder, so nothing in the checkout changes
// (not even .wrangler/). Cloudflare is not called at all unless --inspect asks to read what the account already has.
// Every call goes to the `wrangler` first on PATH (npm puts the project's own first).
// No secret is ever printed (CI logs keep what a deploy prints) nor echoed as it is typed: a generated ADMIN_PASSWORD
// goes to an owner-only file whose path is printed.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline/promises";
import { Writable } from "node:stream";
import { parseCommandLine } from "./lib/command-line.mjs";
import { mirrorCheckout } from "./lib/mirror.mjs";
import { reexecOnProjectNode, root } from "./setup.mjs";

/** The example address wrangler.toml ships with: a deploy that keeps it could not be reached by its renderer. */
const EXAMPLE_PUBLIC_URL = /\.example\.workers\.dev/;

const hex = () => randomBytes(32).toString("hex");

/**
 * Every secret the Worker reads (src/env.ts), and where a missing one comes from: generated here, or the value of
 * the environment variable of the same name, else asked for on a terminal. `needed` says when the service cannot do
 * without it.
 */
const SECRETS = [
  { name: "RENDERER_SECRET", generate: hex, about: "HMAC key shared with the renderer" },
  { name: "STORAGE_SIGNING_SECRET", generate: hex, about: "HMAC key of signed storage URLs" },
  { name: "AUTH_SECRET", generate: hex, about: "HMAC key of the stored sign-in codes" },
  {
    name: "DATA_ENCRYPTION_KEY",
    generate: hex,
    about: "seals the webhook signing secrets and storage connection keys stored in D1",
  },
  {
    name: "ADMIN_USER",
    generate: () => "admin",
    how: 'set it to "admin"',
    about: "basic auth of the operational routes",
  },
  {
    name: "ADMIN_PASSWORD",
    generate: () => randomBytes(24).toString("base64url"),
    how: "generate it into an owner-only file",
    keep: true,
    about: "basic auth of the operational routes",
  },
  { name: "STRIPE_SECRET_KEY", about: "Stripe API key (sk_live_...): payments fail without it" },
  { name: "STRIPE_WEBHOOK_SECRET", about: "signing secret of Stripe's webhook endpoint (whsec_...)" },
  {
    name: "HCAPTCHA_SECRET",
    about: "hCaptcha secret: sign-in fails without it while the captcha is on",
    needed: (vars, { isCaptchaOn }) => isCaptchaOn(vars),
  },
];

/**
 * Where a generated secret the operator needs (ADMIN_PASSWORD) is kept: an owner-only file in the user's
 * configuration folder ($XDG_CONFIG_HOME, else ~/.config), never printed. Returns its path.
 */
const keepSecret = (worker, name, value) => {
  const dir = join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "media-render");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${worker}.${name}`);
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  // The mode applies to a new file only: an older one of this name is made owner-only too.
  chmodSync(file, 0o600);
  return file;
};

/**
 * Asks `question` on the terminal without echoing what is typed: readline reads the keys in raw mode and writes its
 * echo to a stream that drops it. The interface is made (raw mode on) before the question is shown, so no key is
 * echoed by the terminal itself either. Ctrl+C stops the deploy.
 */
const askHidden = async (question) => {
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: process.stdin, output: silent, terminal: true });
  rl.on("SIGINT", () => {
    rl.close();
    process.stdout.write("\n");
    log("stopped: interrupted");
    process.exit(130);
  });
  try {
    process.stdout.write(question);
    return await rl.question("");
  } finally {
    rl.close();
    process.stdout.write("\n");
  }
};

const log = (line) => console.log(`[deploy] ${line}`);

/** Runs wrangler with the terminal attached (its prompts and progress reach the user); throws on failure. */
const wrangler = (args, { input } = {}) => {
  const r = spawnSync("wrangler", args, { stdio: [input ? "pipe" : "inherit", "inherit", "inherit"], input });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`wrangler ${args.join(" ")} exited with ${r.status}`);
};

/** Runs a read-only wrangler command quietly: its output when it succeeded, null when it did not. */
const ask = (args) => {
  const r = spawnSync("wrangler", args, { encoding: "utf8", env: { ...process.env, WRANGLER_LOG: "error" } });
  if (r.error) throw r.error;
  return r.status === 0 ? r.stdout : null;
};

/** What the account already has, read with wrangler's read-only commands. */
const inspectAccount = (plan) => {
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

/** The resources wrangler.toml names, and its production variables. */
const readPlan = async () => {
  // Quiet while reading the config only: the wrangler commands run later inherit this environment.
  const level = process.env.WRANGLER_LOG;
  process.env.WRANGLER_LOG = "error";
  const { unstable_readConfig } = await import("wrangler");
  const config = unstable_readConfig({ config: join(root, "wrangler.toml") });
  if (level === undefined) delete process.env.WRANGLER_LOG;
  else process.env.WRANGLER_LOG = level;
  const db = config.d1_databases.find((d) => d.binding === "DB");
  const queues = new Set();
  for (const p of config.queues.producers ?? []) queues.add(p.queue);
  for (const c of config.queues.consumers ?? []) {
    queues.add(c.queue);
    if (c.dead_letter_queue) queues.add(c.dead_letter_queue);
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

/**
 * Builds the bundle as `wrangler deploy` would, without uploading, from a mirror of the checkout (a symlink per
 * top-level entry) in a temporary folder: wrangler writes its .wrangler/tmp beside the config it reads, and so it
 * writes there, not into the checkout.
 */
const buildBundle = () => {
  const mirror = mkdtempSync(join(tmpdir(), "mrs-deploy-"));
  // The bundle goes beside the mirror, not into it: a `dist` of the mirror would be the checkout's.
  const out = mkdtempSync(join(tmpdir(), "mrs-bundle-"));
  try {
    mirrorCheckout(root, mirror);
    const r = spawnSync(
      "wrangler",
      ["deploy", "--dry-run", "--outdir", out, "--containers-rollout=none", "--config", "wrangler.toml"],
      // No usage metrics either: a dry run sends nothing to Cloudflare.
      { cwd: mirror, stdio: "inherit", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
    );
    if (r.error) throw r.error;
    if (r.status !== 0) throw new Error(`wrangler deploy --dry-run exited with ${r.status}`);
  } finally {
    rmSync(mirror, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
};

/** The value of a missing secret: generated, from the environment, or typed in (empty: left unset). */
const secretValue = async (secret, ask) => {
  if (process.env[secret.name]) return process.env[secret.name];
  if (secret.generate) return secret.generate();
  if (!ask) return "";
  return (
    await ask(`[deploy] ${secret.name} (${secret.about}; empty to leave unset, not shown as typed): `)
  ).trim();
};

const { values } = parseCommandLine({
  name: "deploy",
  command: "npm run deploy",
  args: "[--dry-run [--inspect]]",
  about:
    "Deploys the service to the Cloudflare account wrangler is logged in to, in one run that is safe to repeat\n" +
    "(docs/deploying.md): account, settings, D1 and R2, queues, secrets, D1 migrations, the Worker.",
  options: {
    "dry-run": {
      type: "boolean",
      help: "print every step and build the bundle; change nothing, call Cloudflare not at all",
      default: false,
    },
    inspect: {
      type: "boolean",
      help: "with --dry-run: read what the account already has (a real run always does)",
      default: false,
    },
  },
  env: {
    PUBLIC_URL: "the Worker's public address (else wrangler.toml's)",
    "STRIPE_SECRET_KEY, ...": "a secret's value when the account lacks it (else generated or asked for)",
  },
});

const main = async () => {
  const dry = values["dry-run"];
  const plan = await readPlan();
  // The Worker's own rule for when the captcha is on (it fails closed), read here after the project's Node took over.
  const rules = await import("../src/lib/captcha-on.ts");
  // A real run always reads the account first: that is what makes a second run change nothing.
  const inspect = !dry || values.inspect;
  const would = (text) => (dry ? `would ${text}` : text);
  log(
    !dry
      ? `deploying the Worker "${plan.worker}"`
      : inspect
        ? "dry run: the account is read, nothing is created, set, migrated or uploaded"
        : "dry run: Cloudflare is not called (--inspect reads the account); nothing is created, set or uploaded",
  );

  log(`step account: ${inspect ? "" : "would "}check the login (wrangler whoami)`);
  if (inspect) {
    const who = ask(["whoami"]);
    if (!who || /not authenticated/i.test(who)) {
      throw new Error("not logged in: run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN) first");
    }
    for (const line of who
      .split("\n")
      .filter((l) => /logged in|account/i.test(l))
      .slice(0, 3))
      log(`  ${line.trim()}`);
  }

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

  const have = inspect ? inspectAccount(plan) : null;
  const found = (exists, missing) =>
    !have ? `${missing} if missing` : exists ? "exists" : `missing: ${missing}`;
  const provisioned = "wrangler deploy creates it (the binding has no id)";
  log(`step d1: database "${plan.database}" (binding DB): ${found(have?.d1, provisioned)}`);
  log(`step r2: bucket "${plan.bucket}" (binding FILES): ${found(have?.r2, provisioned)}`);

  for (const q of plan.queues) {
    log(
      `step queues: "${q}": ${found(have?.queues.has(q), would(`create it (wrangler queues create ${q})`))}`,
    );
  }
  if (!dry)
    for (const q of plan.queues.filter((name) => !have.queues.has(name))) wrangler(["queues", "create", q]);

  const askSecret = !dry && process.stdin.isTTY ? askHidden : null;
  const upload = {};
  const unset = [];
  for (const s of SECRETS) {
    if (have?.secrets.has(s.name)) {
      log(`step secrets: ${s.name}: set already, kept`);
      continue;
    }
    const source = process.env[s.name]
      ? `take it from $${s.name}`
      : s.generate
        ? (s.how ?? "generate it")
        : `ask for it (or take $${s.name})`;
    log(`step secrets: ${s.name}: ${found(false, would(source))} (${s.about})`);
    if (dry) continue;
    const value = await secretValue(s, askSecret);
    if (value) upload[s.name] = value;
    else unset.push(s);
    if (value && s.keep && !process.env[s.name])
      log(`  ${s.name} written to ${keepSecret(plan.worker, s.name, value)} (owner-only; not printed)`);
  }
  if (have?.secrets.has("RUNNER_SECRET")) {
    log(
      "step secrets: RUNNER_SECRET, the renderer's secret before its rename, is still set: once this deploy is up,",
    );
    log("  remove it with `wrangler secret delete RUNNER_SECRET`");
  }

  const migrate = ["d1", "migrations", "apply", "DB", "--remote"];
  const when = !have
    ? "before the deploy if the database exists, else right after the deploy that creates it"
    : have.d1
      ? "before the deploy"
      : "right after the deploy that creates the database";
  log(
    `step migrations: ${would(`apply those of the ${plan.migrations} in migrations/ not yet applied`)}, ${when}`,
  );
  log(`  (wrangler ${migrate.join(" ")})`);
  if (!dry && have.d1) wrangler(migrate);

  const names = Object.keys(upload);
  if (dry) {
    const missing = !have || SECRETS.some((s) => !have.secrets.has(s.name));
    log(
      `step deploy: would run wrangler deploy${missing ? " --secrets-file <the missing secrets, a temporary file>" : ""}`,
    );
    log("  building the bundle now, uploading nothing (wrangler deploy --dry-run):");
    buildBundle();
  } else {
    log(`step deploy: wrangler deploy${names.length ? `, uploading the secrets ${names.join(", ")}` : ""}`);
    const dir = mkdtempSync(join(tmpdir(), "mrs-secrets-"));
    try {
      const file = join(dir, "secrets.json");
      writeFileSync(file, JSON.stringify(upload), { mode: 0o600 });
      wrangler(["deploy", ...(names.length ? ["--secrets-file", file] : [])]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    if (!have.d1) wrangler(migrate);
  }

  for (const s of unset.filter((x) => !x.needed || x.needed(plan.vars, rules))) {
    log(`not set: ${s.name} (${s.about}); set it with \`wrangler secret put ${s.name}\` or run this again`);
  }
  log(
    "step after: by hand, once (docs/deploying.md): a rate-limiting rule in front of the Worker; Stripe's webhook",
  );
  log(
    `  endpoint at ${publicUrl.replace(/\/$/, "")}/api/v1/billing/webhook; the mail sender's domain in Email Service`,
  );
  log(dry ? "dry run done: nothing was changed" : "deployed");
};

if (!reexecOnProjectNode()) {
  try {
    await main();
  } catch (e) {
    log(`stopped: ${e.message}`);
    process.exit(1);
  }
}
