/**
 * The README's first render ("A first render"), run as a user runs it: its shell block, read from README.md (a change
 * there changes what runs here), in bash with curl and jq, from a clean clone of the repository (the files git's
 * index holds, with node_modules and the generated static/ beside them as `npm install` leaves them), against the
 * service as `npm start` runs it (this suite's, global-setup.ts). Two things differ from a user's terminal: the
 * service's address is this suite's instead of 127.0.0.1:8787, and `npm run key` finds that service's state through
 * STATE_DIR. The PNG it downloads is held to the config by its size and pixels.
 */
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { decodeImage, distance, pngSize } from "./pixels.ts";

const base = inject("baseUrl");
const service = inject("service");
const root = process.cwd();
const README_API = "API=http://127.0.0.1:8787\n";

/** The first sh block under the README's "## A first render". */
const walkThrough = () => {
  const section = readFileSync(join(root, "README.md"), "utf8")
    .split(/^## /m)
    .find((s) => s.startsWith("A first render\n"));
  const block = /```sh\n([\s\S]*?)```/.exec(section ?? "")?.[1];
  if (!block) throw new Error('README.md has no sh block under "## A first render"');
  return block;
};

/** Runs `script` in bash (-e, pipefail) in `cwd`; its exit status and output, or a failure after `timeoutMs`. */
const bash = (script: string, cwd: string, env: Record<string, string>, timeoutMs: number) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn("bash", ["-e", "-o", "pipefail", "-c", script], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => {
      stderr += `\n(stopped after ${timeoutMs} ms)`;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });

describe("the README's first render", () => {
  it("runs as written in a clean clone: a key, an upload, an image job polled to COMPLETED, its PNG", async () => {
    const script = walkThrough();
    expect(script, "the walk-through sets the API's local address").toContain(README_API);
    // Every file it uploads is one a clone has: in git's index, not only in this working tree.
    const uploads = [...script.matchAll(/=@(\S+)/g)].map((m) => m[1]!);
    expect(uploads.length).toBeGreaterThan(0);
    for (const file of uploads)
      expect(
        execFileSync("git", ["ls-files", "--", file], { cwd: root, encoding: "utf8" }).trim(),
        `${file} is not in the repository: a clone would not have it`,
      ).toBe(file);

    const dir = mkdtempSync(join(tmpdir(), "mrs-readme-"));
    try {
      const clone = join(dir, "clone");
      execFileSync("git", ["checkout-index", "--all", `--prefix=${clone}/`], { cwd: root });
      symlinkSync(join(root, "node_modules"), join(clone, "node_modules"));
      cpSync(join(root, "static"), join(clone, "static"), { recursive: true });
      const run = await bash(
        script.replace(README_API, `API=${base}\n`),
        clone,
        { STATE_DIR: service.env.STATE_DIR!, PATH: service.env.PATH! },
        120_000,
      );
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      // Step 3 prints the job's last status.
      expect(run.stdout.trim().split("\n").at(-1)).toBe("COMPLETED");

      const png = new Uint8Array(readFileSync(join(clone, "out.png")));
      expect(pngSize(png)).toEqual({ width: 640, height: 360 });
      const px = decodeImage(png, 640, 360);
      // The background, far from every layer.
      expect(distance(px.at(620, 10), [0x1e, 0x90, 0xff])).toBeLessThan(3);
      // docs/sample-picture.png at 40,40 drawn 200x200: a red disc on yellow.
      expect(distance(px.at(140, 140), [0xe4, 0x00, 0x2b])).toBeLessThan(12);
      expect(distance(px.at(46, 46), [0xff, 0xd2, 0x3f])).toBeLessThan(12);
      expect(distance(px.at(234, 234), [0xff, 0xd2, 0x3f])).toBeLessThan(12);
      // The centred white "Hello" straddles x = 320 on its baseline band.
      let white = 0;
      for (let x = 260; x < 380; x++)
        for (let y = 285; y < 320; y++) if (distance(px.at(x, y), [255, 255, 255]) < 40) white++;
      expect(white).toBeGreaterThan(100);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
