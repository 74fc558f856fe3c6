/**
 * scripts/check-layers.mjs (scripts/lib/layers.mjs): domain folders that import each other, directly or around a
 * loop, a source root reaching outside itself by path, and a floor importing above itself fail `npm run lint`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { escapeProblems, floorProblems, layerProblems, wiringProblems } from "../../scripts/lib/layers.mjs";

describe("the layer check", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "layers-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const write = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
  };

  it("passes folders that import one way, and leaves the root's wiring files out", () => {
    write({
      "app.ts": 'import { a } from "./jobs/a";\nimport { b } from "./lib/b";\nexport const app = [a, b];\n',
      "jobs/a.ts":
        'import { b } from "../lib/b";\nimport { app } from "../app";\nexport const a = [b, app];\n',
      "lib/b.ts": 'import * as v from "valibot";\nexport const b = v;\n',
    });
    expect(layerProblems([root])).toEqual([]);
  });

  it("fails two folders importing each other, a type-only import included, naming the files", () => {
    write({
      "jobs/lifecycle.ts": 'import { feed } from "../templates/feed";\nexport const settle = () => feed();\n',
      "templates/feed.ts": 'import type { Job } from "../jobs/types";\nexport const feed = (j?: Job) => j;\n',
      "jobs/types.ts": "export interface Job { id: string }\n",
    });
    const problems = layerProblems([root]).join("\n");
    expect(problems).toContain("folders jobs, templates import each other");
    expect(problems).toContain("jobs -> templates");
    expect(problems).toMatch(/lifecycle\.ts \("\.\.\/templates\/feed"\)/);
    expect(problems).toMatch(/feed\.ts \("\.\.\/jobs\/types"\)/);
  });

  it("fails a loop through three folders, re-exports and dynamic imports counted", () => {
    write({
      "a/x.ts": 'export { y } from "../b/y.ts";\n',
      "b/y.ts": 'export const y = () => import("../c/z.ts");\n',
      "c/z.ts": 'import { x } from "../a/index.ts";\nexport const z = x;\n',
      "a/index.ts": "export const x = 1;\n",
    });
    expect(layerProblems([root])[0]).toContain("folders a, b, c import each other");
  });

  it("exits 1 from the command line", () => {
    write({ "a/x.ts": 'import "../b/y";\n', "b/y.ts": 'import "../a/x";\n' });
    const r = spawnSync(process.execPath, ["scripts/check-layers.mjs", root], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("a -> b");
  });

  it("fails a relative import that leaves its root, and passes packages by name", () => {
    write({
      "web/src/builder/compile.ts":
        'import { compileImage } from "@media-render/image-page/compile-html";\nimport { x } from "./x.ts";\n',
      "web/src/builder/x.ts": 'export { GALLERY } from "../../../src/lib/examples.ts";\n',
      "src/lib/examples.ts": "export const GALLERY = [];\n",
    });
    const problems = escapeProblems([join(root, "web/src")]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/x\.ts \("\.\.\/\.\.\/\.\.\/src\/lib\/examples\.ts"\) reaches outside/);
    expect(escapeProblems([join(root, "src")])).toEqual([]);
  });

  it("holds a floor to itself, the folders below it and the root files' types", () => {
    const rule = { root, floor: "lib", below: ["db"], types: ["context.ts"] };
    write({
      "context.ts": 'import { r } from "./renderer/client.ts";\nexport type Ctx = { r: typeof r };\n',
      "renderer/client.ts": "export const r = 1;\n",
      "db/schema.ts": "export const rows = 1;\n",
      "lib/ok.ts":
        'import type { Ctx } from "../context.ts";\nimport { rows } from "../db/schema.ts";\nimport { b } from "./b.ts";\n' +
        "export const ok = (ctx: Ctx) => [ctx, rows, b];\n",
      "lib/b.ts": "export const b = 1;\n",
    });
    expect(floorProblems([rule])).toEqual([]);
    write({
      "lib/builds.ts": 'import { type Ctx, make } from "../context.ts";\nexport const c: Ctx = make();\n',
      "lib/up.ts": 'import type { r } from "../renderer/client.ts";\nexport type R = typeof r;\n',
    });
    const problems = floorProblems([rule]).join("\n");
    expect(problems).toMatch(/builds\.ts \("\.\.\/context\.ts"\) imports beyond lib\/, db\//);
    expect(problems).toMatch(/up\.ts \("\.\.\/renderer\/client\.ts"\)/);
    expect(floorProblems([rule])).toHaveLength(2);
  });

  it("lets a folder take only the listed types from the root's wiring files", () => {
    const rule = { root, types: ["deps.ts"] };
    write({
      "settings.ts": 'import { DEFAULTS } from "./video/tools.ts";\nexport const config = DEFAULTS;\n',
      "deps.ts":
        'import type { config } from "./settings.ts";\nexport type Deps = { config: typeof config };\n',
      "video/tools.ts": "export const DEFAULTS = {};\n",
      "video/run.ts": 'import type { Deps } from "../deps.ts";\nexport const run = (d: Deps) => d;\n',
    });
    expect(wiringProblems([rule])).toEqual([]);
    write({ "video/render.ts": 'import { config } from "../settings.ts";\nexport const r = config;\n' });
    const problems = wiringProblems([rule]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/render\.ts \("\.\.\/settings\.ts"\) imports the wiring at the root/);
  });
});
