/** scripts/lib/secrets.mjs: the local secrets of `wrangler dev` (.dev.vars), generated once and kept. */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureDevVars } from "../../../../scripts/lib/secrets.mjs";

const SECRETS = ["RENDERER_SECRET", "STORAGE_SIGNING_SECRET", "AUTH_SECRET", "DATA_ENCRYPTION_KEY"];

describe("ensureDevVars", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "dev-vars-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const file = () => join(root, ".dev.vars");

  it("writes every secret once, readable by its owner only, and keeps them on the next run", () => {
    const first = ensureDevVars(root);
    for (const name of SECRETS) expect(first[name]).toMatch(/^[0-9a-f]{64}$/);
    expect(first.STRIPE_WEBHOOK_SECRET).toMatch(/^whsec_/);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(ensureDevVars(root)).toEqual(first);
  });

  it("leaves an unchanged file alone and replaces a changed one whole, so a reader never sees half of it", () => {
    ensureDevVars(root);
    const before = statSync(file());
    ensureDevVars(root); // nothing to change: not written
    expect(statSync(file()).mtimeMs).toBe(before.mtimeMs);
    expect(statSync(file()).ino).toBe(before.ino);
    const changed = ensureDevVars(root, { PUBLIC_URL: "http://127.0.0.1:1" });
    expect(statSync(file()).ino).not.toBe(before.ino); // a new file renamed over the old one
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(ensureDevVars(root)).toEqual(changed);
  });

  it("renames a RUNNER_SECRET written before the rename to RENDERER_SECRET, keeping its value", () => {
    writeFileSync(file(), 'RUNNER_SECRET="old-runner-secret"\nAUTH_SECRET="kept"\n');
    const vars = ensureDevVars(root);
    expect(vars.RENDERER_SECRET).toBe("old-runner-secret");
    expect(vars.AUTH_SECRET).toBe("kept");
    expect(vars).not.toHaveProperty("RUNNER_SECRET");
    const text = readFileSync(file(), "utf8");
    expect(text).toContain('RENDERER_SECRET="old-runner-secret"');
    expect(text).not.toContain("RUNNER_SECRET");
  });

  it("keeps a RENDERER_SECRET already there over a leftover RUNNER_SECRET", () => {
    writeFileSync(file(), 'RENDERER_SECRET="current"\nRUNNER_SECRET="leftover"\n');
    const vars = ensureDevVars(root);
    expect(vars.RENDERER_SECRET).toBe("current");
    expect(readFileSync(file(), "utf8")).not.toContain("RUNNER_SECRET");
  });
});
