// Local secrets for `wrangler dev` (.dev.vars): generated once, kept across runs, never committed.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
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
 * Reads .dev.vars, renames the secrets of RENAMED, adds missing ones, applies `overrides`, writes it back and returns
 * the values.
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
  // Owner only: Chromium runs as another user (render-browser) that must not read these.
  writeFileSync(
    file,
    Object.entries(vars)
      .map(([k, v]) => `${k}="${v}"`)
      .join("\n") + "\n",
    { mode: 0o600 },
  );
  chmodSync(file, 0o600);
  return vars;
};
