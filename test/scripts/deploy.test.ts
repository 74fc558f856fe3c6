/**
 * scripts/deploy.mjs (`npm run deploy`). The dry run is run as a user runs it, with the real wrangler building the
 * bundle. What a Cloudflare account holds cannot be reached from here, so the account is a stand-in: a fake
 * `wrangler` first on PATH that answers wrangler's read-only commands from a JSON state, records every call and
 * applies the changing ones (queues create, deploy --secrets-file, d1 migrations apply) to that state. It checks the
 * script's decisions (what it creates, uploads and migrates, in which order, and that a second run changes nothing),
 * not wrangler's or Cloudflare's behaviour.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const realWrangler = join(root, "node_modules", ".bin", "wrangler");
const QUEUES = ["render-image", "render-video", "deliver-outputs", "render-image-dlq", "render-video-dlq"];
const GENERATED = ["RENDERER_SECRET", "STORAGE_SIGNING_SECRET", "AUTH_SECRET", "DATA_ENCRYPTION_KEY"];
const ALL_SECRETS = [
  ...GENERATED,
  "ADMIN_USER",
  "ADMIN_PASSWORD",
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "HCAPTCHA_SECRET",
];
const STEPS = ["account", "settings", "d1", "r2", "queues", "secrets", "migrations", "deploy", "after"];

interface Account {
  loggedIn: boolean;
  worker: boolean;
  d1: boolean;
  r2: boolean;
  queues: string[];
  secrets: string[];
  /** The values uploaded, by name (what the account would hold). */
  values?: Record<string, string>;
  calls: string[][];
}

/** The stand-in wrangler: read-only commands answer from the state, changing ones change it, all are recorded. */
const FAKE = `
import { readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
const file = process.env.FAKE_ACCOUNT;
const s = JSON.parse(readFileSync(file, "utf8"));
const args = process.argv.slice(2);
s.calls.push(args);
const save = () => writeFileSync(file, JSON.stringify(s));
const done = (code, out = "") => { save(); if (out) process.stdout.write(out + "\\n"); process.exit(code); };
const [a, b, c] = args;
if (a === "deploy" && args.includes("--dry-run")) {
  save();
  if (!process.env.REAL_WRANGLER) done(0);
  const r = spawnSync(process.env.REAL_WRANGLER, args, { stdio: "inherit" });
  process.exit(r.status ?? 1);
}
if (a === "whoami") done(0, s.loggedIn ? "You are logged in with an API Token." : "You are not authenticated.");
if (!s.loggedIn) done(1);
if (a === "d1" && b === "info") done(s.d1 ? 0 : 1, "{}");
if (a === "r2" && b === "bucket" && c === "info") done(s.r2 ? 0 : 1);
if (a === "queues" && b === "info") done(s.queues.includes(c) ? 0 : 1);
if (a === "queues" && b === "create") { s.queues.push(c); done(0); }
if (a === "secret" && b === "list") done(s.worker ? 0 : 1, JSON.stringify(s.secrets.map((name) => ({ name, type: "secret_text" }))));
if (a === "d1" && b === "migrations" && args.includes("--remote")) done(s.d1 ? 0 : 1);
if (a === "deploy") {
  const i = args.indexOf("--secrets-file");
  if (i >= 0) {
    const uploaded = JSON.parse(readFileSync(args[i + 1], "utf8"));
    s.secrets.push(...Object.keys(uploaded));
    s.values = { ...s.values, ...uploaded };
  }
  s.worker = s.d1 = s.r2 = true;
  done(0);
}
done(2, "fake wrangler: unexpected command " + args.join(" "));
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "deploy-test-"));
  writeFileSync(join(dir, "fake.mjs"), FAKE);
  writeFileSync(
    join(dir, "wrangler"),
    `#!/bin/sh\nexec "${process.execPath}" "${join(dir, "fake.mjs")}" "$@"\n`,
  );
  chmodSync(join(dir, "wrangler"), 0o755);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const account = (init: Partial<Account> = {}): Account => {
  const state: Account = {
    loggedIn: true,
    worker: false,
    d1: false,
    r2: false,
    queues: [],
    secrets: [],
    calls: [],
  };
  writeFileSync(join(dir, "account.json"), JSON.stringify({ ...state, ...init }));
  return state;
};
const readAccount = (): Account => JSON.parse(readFileSync(join(dir, "account.json"), "utf8"));

/** The environment the script runs in: the stand-in wrangler first on PATH, the config folder in the test's. */
const deployEnv = (env: Record<string, string>) => ({
  ...process.env,
  PATH: [dir, join(root, "node_modules", ".bin"), process.env.PATH].join(delimiter),
  FAKE_ACCOUNT: join(dir, "account.json"),
  XDG_CONFIG_HOME: join(dir, "config"),
  ...env,
});

/** Runs the script as `npm run deploy -- ...` does, the stand-in wrangler first on PATH. */
const deploy = (args: string[], env: Record<string, string> = {}) => {
  const r = spawnSync(process.execPath, [join(root, "scripts", "deploy.mjs"), ...args], {
    cwd: root,
    encoding: "utf8",
    timeout: 240_000,
    env: deployEnv(env),
  });
  return {
    status: r.status,
    out: `${r.stdout}${r.stderr}`,
    lines: r.stdout.split("\n").filter((l) => l.startsWith("[deploy]")),
  };
};
/** The uploaded values that are secret (ADMIN_USER is "admin", named in the output on purpose). */
const secretsOf = (values: Record<string, string>) =>
  Object.entries(values).filter(([name]) => name !== "ADMIN_USER");

const changing = (calls: string[][]) =>
  calls.filter(
    (c) =>
      (c[0] === "deploy" && !c.includes("--dry-run")) ||
      (c[0] === "queues" && c[1] === "create") ||
      (c[0] === "d1" && c[1] === "migrations"),
  );

/** What git sees in the checkout, ignored entries included, and the folders wrangler would write. */
const checkout = () => {
  const listed = execFileSync("git", ["status", "--porcelain", "--ignored"], {
    cwd: root,
    encoding: "utf8",
  });
  return { listed, wrangler: existsSync(join(root, ".wrangler")), dist: existsSync(join(root, "dist")) };
};

describe("npm run deploy -- --dry-run", () => {
  it("names every step, builds the bundle with the real wrangler, calls nothing else and leaves the checkout as it was", () => {
    account({ loggedIn: false });
    const before = checkout();
    const { status, out, lines } = deploy(["--dry-run"], { REAL_WRANGLER: realWrangler });
    expect(status, out).toBe(0);
    for (const step of STEPS)
      expect(
        lines.some((l) => l.startsWith(`[deploy] step ${step}:`)),
        step,
      ).toBe(true);
    for (const q of QUEUES) expect(out).toContain(`would create it (wrangler queues create ${q}) if missing`);
    for (const name of ALL_SECRETS)
      expect(out).toMatch(new RegExp(`step secrets: ${name}: would (generate|ask|set)`));
    expect(out).toContain("wrangler d1 migrations apply DB --remote");
    // The bundle was really built: wrangler's own dry-run report of the bindings.
    expect(out).toContain("--dry-run: exiting now.");
    expect(out).toMatch(/env\.DB \(media-render\)\s+D1 Database/);
    expect(lines.at(-1)).toBe("[deploy] dry run done: nothing was changed");
    // Without --inspect, the only wrangler run is the bundle's build: no login check, no listing, no change.
    const { calls } = readAccount();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.slice(0, 2)).toEqual(["deploy", "--dry-run"]);
    expect(checkout()).toEqual(before);
  }, 240_000);

  it("with --inspect reads an account that has everything and plans no creation, no secret and no upload", () => {
    account({ worker: true, d1: true, r2: true, queues: QUEUES, secrets: ALL_SECRETS });
    const { status, out, lines } = deploy(["--dry-run", "--inspect"]);
    expect(status, out).toBe(0);
    expect(out).toContain('step d1: database "media-render" (binding DB): exists');
    expect(out).toContain('step r2: bucket "media-render-files" (binding FILES): exists');
    for (const q of QUEUES) expect(out).toContain(`step queues: "${q}": exists`);
    for (const name of ALL_SECRETS) expect(out).toContain(`step secrets: ${name}: set already, kept`);
    expect(out).not.toContain("would create");
    expect(out).toContain("step deploy: would run wrangler deploy\n");
    expect(out).toContain("before the deploy");
    expect(lines.at(-1)).toBe("[deploy] dry run done: nothing was changed");
    expect(changing(readAccount().calls)).toEqual([]);
  }, 120_000);

  it("with --inspect says what an empty account lacks, and still changes nothing", () => {
    account();
    const { status, out } = deploy(["--dry-run", "--inspect"]);
    expect(status, out).toBe(0);
    expect(out).toContain(
      'step d1: database "media-render" (binding DB): missing: wrangler deploy creates it',
    );
    for (const q of QUEUES) expect(out).toContain(`step queues: "${q}": missing: would create it`);
    expect(out).toContain("right after the deploy that creates the database");
    expect(changing(readAccount().calls)).toEqual([]);
  }, 120_000);

  it("stops before reading anything when wrangler is not logged in", () => {
    account({ loggedIn: false });
    const { status, out } = deploy(["--dry-run", "--inspect"]);
    expect(status).toBe(1);
    expect(out).toContain("[deploy] stopped: not logged in: run `npx wrangler login`");
    expect(readAccount().calls).toEqual([["whoami"]]);
  }, 120_000);
});

describe("npm run deploy", () => {
  const env = {
    PUBLIC_URL: "https://media-render.test-account.workers.dev",
    STRIPE_SECRET_KEY: "sk_test_x",
    STRIPE_WEBHOOK_SECRET: "whsec_x",
    HCAPTCHA_SECRET: "0x0",
  };

  it("on an empty account creates the queues, uploads every secret with the deploy and then migrates; a second run changes nothing", () => {
    account();
    const first = deploy([], env);
    expect(first.status, first.out).toBe(0);
    const after = readAccount();
    expect(changing(after.calls).map((c) => c.slice(0, 3).join(" "))).toEqual([
      ...QUEUES.map((q) => `queues create ${q}`),
      "deploy --secrets-file " + after.calls.find((c) => c[0] === "deploy")![2],
      "d1 migrations apply",
    ]);
    expect(after.queues.toSorted()).toEqual(QUEUES.toSorted());
    expect(after.secrets.toSorted()).toEqual(ALL_SECRETS.toSorted());
    // No secret reaches the output (CI logs keep it): the generated admin password is in an owner-only file.
    for (const [name, value] of secretsOf(after.values!))
      expect(first.out, `${name} printed`).not.toContain(value);
    const kept = join(dir, "config", "media-render", "media-render.ADMIN_PASSWORD");
    expect(first.out).toContain(`ADMIN_PASSWORD written to ${kept} (owner-only; not printed)`);
    expect(readFileSync(kept, "utf8")).toBe(`${after.values!.ADMIN_PASSWORD}\n`);
    expect(after.values!.ADMIN_PASSWORD).toMatch(/^[\w-]{32}$/);
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    // The secrets file is gone.
    expect(existsSync(after.calls.find((c) => c[0] === "deploy")![2]!)).toBe(false);

    writeFileSync(join(dir, "account.json"), JSON.stringify({ ...after, calls: [] }));
    const second = deploy([], env);
    expect(second.status, second.out).toBe(0);
    // The database exists now, so the migrations run first; the deploy uploads no secret.
    expect(changing(readAccount().calls)).toEqual([
      ["d1", "migrations", "apply", "DB", "--remote"],
      ["deploy"],
    ]);
    expect(second.out).not.toContain("ADMIN_PASSWORD written");
  }, 240_000);

  it("refuses to deploy while PUBLIC_URL is the example, before changing anything", () => {
    account();
    const { status, out } = deploy([], { ...env, PUBLIC_URL: "" });
    expect(status).toBe(1);
    expect(out).toContain("[deploy] stopped: PUBLIC_URL is still the example");
    expect(changing(readAccount().calls)).toEqual([]);
  }, 120_000);
});

describe("npm run deploy on a terminal", () => {
  /** One word for sh -c. */
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

  it("asks for each missing secret without echoing what is typed, and prints no secret", async () => {
    account();
    const typed = { STRIPE_SECRET_KEY: "sk_live_typed5J8qXw", STRIPE_WEBHOOK_SECRET: "whsec_typed9Zr2Lm" };
    // util-linux's script(1) runs the deploy on a pseudo-terminal, as a person at a terminal runs it; what the
    // terminal shows (prompts, and any echo of the keys) comes back on its stdout.
    const command = [process.execPath, join(root, "scripts", "deploy.mjs")].map(quote).join(" ");
    const child = spawn("script", ["-qefc", command, "/dev/null"], {
      cwd: root,
      env: deployEnv({ PUBLIC_URL: "https://media-render.test-account.workers.dev", HCAPTCHA_SECRET: "0x0" }),
    });
    let shown = "";
    child.stdout.on("data", (chunk: Buffer) => (shown += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (shown += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    /** Types `value` and Enter once the question for `name` is on the terminal (keys typed one at a time). */
    const answer = async (name: string, value: string) => {
      await expect.poll(() => shown, { timeout: 120_000, interval: 100 }).toContain(`[deploy] ${name} (`);
      for (const key of `${value}\r`) child.stdin.write(key);
    };
    try {
      await answer("STRIPE_SECRET_KEY", typed.STRIPE_SECRET_KEY);
      await answer("STRIPE_WEBHOOK_SECRET", typed.STRIPE_WEBHOOK_SECRET);
      expect(await exited, shown).toBe(0);
    } finally {
      child.kill();
    }
    const { values } = readAccount();
    expect(values).toMatchObject(typed);
    // What was typed is not echoed; nor is any other secret printed.
    for (const [name, value] of Object.entries(typed)) expect(shown, `${name} echoed`).not.toContain(value);
    for (const [name, value] of secretsOf(values!))
      expect(shown, `${name} shown on the terminal`).not.toContain(value);
    expect(shown).toContain("not shown as typed");
    expect(shown).toContain("ADMIN_PASSWORD written to");
  }, 240_000);
});
