// The Worker's secrets in production, for `npm run deploy` (scripts/deploy.mjs): each one the Worker reads, and where
// a missing one comes from (generated, the environment, or typed on a terminal without echo). No secret is ever
// printed (CI logs keep what a deploy prints): a generated ADMIN_PASSWORD goes to an owner-only file whose path is.
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline/promises";
import { Writable } from "node:stream";
import { log } from "./wrangler.mjs";

const hex = () => randomBytes(32).toString("hex");

/**
 * Every secret the Worker reads (src/env.ts), and where a missing one comes from: generated here, or the value of
 * the environment variable of the same name, else asked for on a terminal. `needed` says when the service cannot do
 * without it.
 */
export const SECRETS = [
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
export const keepSecret = (worker, name, value) => {
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
export const askHidden = async (question) => {
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

/** The value of a missing secret: generated, from the environment, or typed in (empty: left unset). */
export const secretValue = async (secret, ask) => {
  if (process.env[secret.name]) return process.env[secret.name];
  if (secret.generate) return secret.generate();
  if (!ask) return "";
  return (
    await ask(`[deploy] ${secret.name} (${secret.about}; empty to leave unset, not shown as typed): `)
  ).trim();
};
