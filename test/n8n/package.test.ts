/**
 * The node's package as n8n's tooling and npm see it: `n8n-node lint` (n8n's ESLint rules for community nodes, in
 * strict mode: the configuration n8n Cloud's verification requires) passes, and what `npm pack` would publish is the
 * built node, its credentials, icons and README, with no runtime dependency.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { nodeDir, projectEnv } from "./n8n.ts";

const dir = nodeDir(process.cwd());
/** The copy the global setup built (dist/ included) outside the checkout. */
const built = inject("nodeBuildDir");
const env = projectEnv(process.cwd());

describe("the n8n-nodes-media-render package", () => {
  it("lints clean with n8n's own tooling in strict mode", () => {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      n8n: { strict: boolean };
      dependencies?: object;
    };
    expect(pkg.n8n.strict).toBe(true);
    expect(pkg.dependencies).toBeUndefined();
    // Exit status 0 is the verdict; the output is kept for the log when it is not.
    const out = execFileSync(join(dir, "node_modules", ".bin", "n8n-node"), ["lint"], {
      cwd: dir,
      env: { ...env, FORCE_COLOR: "0" },
      encoding: "utf8",
    });
    expect(out).not.toMatch(/\d+ problems?/);
  });

  it("publishes the built node, its credentials, icons and README, and nothing else", () => {
    const [packed] = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--loglevel=error"], {
        cwd: built,
        env,
        encoding: "utf8",
      }),
    ) as { files: { path: string }[] }[];
    const files = packed!.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "dist/nodes/MediaRender/MediaRender.node.js",
        "dist/nodes/MediaRender/MediaRender.node.json",
        "dist/credentials/MediaRenderApi.credentials.js",
        "dist/icons/mediaRender.svg",
        "dist/icons/mediaRender.dark.svg",
      ]),
    );
    expect(
      files.filter((f) => !f.startsWith("dist/") && !["package.json", "README.md", "LICENSE.md"].includes(f)),
    ).toEqual([]);
  });
});
