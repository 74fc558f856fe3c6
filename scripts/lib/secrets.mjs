// Local secrets for `wrangler dev` (.dev.vars): generated once, kept across runs, never committed.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const parse = (text) =>
  Object.fromEntries(
    text
      .split("\n")
      .map((l) => l.match(/^([A-Z0-9_]+)\s*=\s*"?(.*?)"?\s*$/))
      .filter(Boolean)
      .map((m) => [m[1], m[2]]),
  );

/** Secrets renamed since a .dev.vars may have been written: old name -> new name, the value kept. */
const RENAMED = { RUNNER_SECRET: "RENDERER_SECRET" };

/**
 * Writes `vars` as `dir`/.dev.vars, owner only (Chromium runs as another user, render-browser, that must not read
 * them), when its content differs. The new file replaces the old one whole (a rename), and an unchanged one is not
 * touched: wrangler dev and the Worker test pool read this file while other processes of the same checkout run
 * (`npm run key`, `npm start`), and must never see it half written.
 */
export const writeDevVars = (dir, vars) => {
  const file = join(dir, ".dev.vars");
  const text =
    Object.entries(vars)
      .map(([k, v]) => `${k}="${v}"`)
      .join("\n") + "\n";
  if (existsSync(file) && readFileSync(file, "utf8") === text) return;
  const next = `${file}.${process.pid}.tmp`;
  writeFileSync(next, text, { mode: 0o600 });
  chmodSync(next, 0o600);
  renameSync(next, file);
};

/**
 * Reads .dev.vars, renames the secrets of RENAMED, adds missing ones, applies `overrides`, writes it back when that
 * changed it and returns the values.
 */
export const ensureDevVars = (root, overrides = {}) => {
  const file = join(root, ".dev.vars");
  const vars = existsSync(file) ? parse(readFileSync(file, "utf8")) : {};
  for (const [old, name] of Object.entries(RENAMED)) {
    if (vars[old]) vars[name] ||= vars[old];
    delete vars[old];
  }
  for (const name of ["RENDERER_SECRET", "STORAGE_SIGNING_SECRET", "AUTH_SECRET", "DATA_ENCRYPTION_KEY"])
    vars[name] ||= randomBytes(32).toString("hex");
  // The local stand-in checkout signs its provider events with this, as Stripe signs real ones.
  vars.STRIPE_WEBHOOK_SECRET ||= `whsec_${randomBytes(24).toString("base64")}`;
  Object.assign(vars, overrides);
  writeDevVars(root, vars);
  return vars;
};
