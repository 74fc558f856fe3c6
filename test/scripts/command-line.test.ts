/**
 * The command lines of the scripts a user runs (package.json's scripts): each answers `--help` with its usage and
 * options (exit 0, nothing else done), and a bad option with one line naming it (exit 2), never a stack trace.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const node = join(root, "node_modules", ".bin", "node");
const scripts = (
  JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }
).scripts;

/** The scripts a user runs by name, with what their help must name. */
const COMMANDS: Record<string, string[]> = {
  start: ["PORT", "RENDERERS", "STATE_DIR"],
  test: ["--cpus", "--load", "suites: unit"],
  setup: ["STATE_DIR"],
  key: ["--email", "--permissions", "--plan", "--scopes", "--expires"],
  deploy: ["--dry-run", "--inspect"],
  bench: ["benchmarks: builder"],
  faults: ["FAULTS_SCALE=full"],
  "image:check": ["IMAGE_CHECK_DIR"],
  "client:generate": ["client/openapi.json"],
  cli: ["render <job.json>", "--out", "--ttl", "--status", "MRS_API_KEY"],
};

/** Runs a script as npm runs it (`node <file>` from package.json), in the checkout, with `args`. */
const run = (name: string, args: string[]) => {
  const [command, file] = scripts[name]!.split(" ");
  expect(command).toBe("node");
  return spawnSync(node, [join(root, file!), ...args], { cwd: root, encoding: "utf8", timeout: 30_000 });
};

describe("every script a user runs", () => {
  it.each(Object.keys(COMMANDS))("%s: --help prints its usage and options and exits 0", (name) => {
    const r = run(name, ["--help"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^usage: /);
    for (const word of [...COMMANDS[name]!, "--help"]) expect(r.stdout).toContain(word);
  });

  it.each(Object.keys(COMMANDS))("%s: an unknown option is one line naming it, exit 2", (name) => {
    const r = run(name, ["--no-such-option"]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^\S.*unknown option --no-such-option.*--help.*\n$/);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("bad arguments are one line too: a suite, a benchmark or a command that does not exist, a missing value", () => {
    for (const [name, args, says] of [
      ["test", ["nosuchsuite"], "no suite named nosuchsuite"],
      ["test", ["--cpus", "0"], "--cpus takes a whole number"],
      ["bench", ["nosuchbench"], "no benchmark named nosuchbench"],
      ["key", [], "--email is required"],
      ["key", ["--email"], "'--email <value>' argument missing"],
      ["cli", ["nosuchcommand"], "unknown command nosuchcommand"],
      ["cli", ["render"], "render needs a job file"],
    ] as const) {
      const r = run(name, [...args]);
      expect(r.status, `${name} ${args.join(" ")}`).toBe(2);
      expect(r.stderr).toContain(says);
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    }
  });

  it("npm run key -- --help answers through npm as the README types it", () => {
    const r = spawnSync("npm", ["run", "-s", "key", "--", "--help"], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH}` },
      timeout: 30_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^usage: npm run key -- --email <address>/);
  });
});
