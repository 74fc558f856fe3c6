/**
 * The renderer's image (renderer/Dockerfile), proven without a container engine: what the image would hold is read
 * from the Dockerfile and its ignore file as a builder reads them, and held against what the renderer needs.
 * - every module `renderer/src/server.ts` imports, transitively, is let into the build context and copied to the
 *   same place under /app (esbuild walks the import graph, into the workspace packages it imports by name, such as
 *   @media-render/contract), and every package it imports or resolves at run time is a production dependency of the
 *   renderer workspace;
 * - the image's `npm ci` resolves from the lock file with only the files the Dockerfile copies before it (run with
 *   `--dry-run`), the workspace packages linked;
 * - its package lists are scripts/lib/apt-packages.mjs's APT_PACKAGES (runtime and image; build for the build stage), and
 *   every binary the renderer starts, and every shared library those load, belongs to a listed package, a
 *   dependency of one, or the base system (Debian 12 here, as in the image);
 * - the unprivileged browser user is created as the renderer expects it.
 * The strongest form, a root filesystem built from the same packages running a render, is `npm run image:check`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix, relative } from "node:path";
import { build } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { APT_PACKAGES } from "../../scripts/lib/apt-packages.mjs";
import { BROWSER_USER } from "../../scripts/lib/local-chrome.mjs";
import { aptInstalls, contextFilter, parseDockerfile, type Stage } from "../../scripts/lib/dockerfile.mjs";
import { DEFAULT_RENDER_TOOLS } from "../../renderer/src/settings.ts";
import { asUser } from "../../renderer/src/lib/run-as.ts";
import { CATALOG_FAMILIES } from "@media-render/contract/fonts/catalog";
import { LIBRARIES, TAILWIND } from "@media-render/contract/html-libraries";

/** The repo's own workspace packages: the image copies their sources, npm ci links them. */
const WORKSPACE = /^@media-render\//;

const root = join(import.meta.dirname, "..", "..");
const dockerfile = readFileSync(join(root, "renderer", "Dockerfile"), "utf8");
const stages = parseDockerfile(dockerfile);
const image = stages.at(-1)!;
const native = stages.find((s) => s.name === "native")!;
const inContext = contextFilter(readFileSync(join(root, "renderer", "Dockerfile.dockerignore"), "utf8"));
const rendererDeps = Object.keys(
  (JSON.parse(readFileSync(join(root, "renderer", "package.json"), "utf8")) as { dependencies: object })
    .dependencies,
);
const debian = existsSync("/usr/bin/dpkg") && existsSync("/usr/bin/apt-cache");

/** Where each file a COPY of the final stage brings from the context lands: `[context path, image path]` pairs. */
const copies = (stage: Stage): { src: string; dest: string }[] => {
  let workdir = "/";
  const out: { src: string; dest: string }[] = [];
  for (const step of stage.steps) {
    if (step.op === "WORKDIR") workdir = posix.resolve(workdir, step.args);
    if (step.op !== "COPY" || step.from) continue;
    const parts = step.args.split(" ");
    const dest = parts.pop()!;
    for (const src of parts)
      out.push({
        src: src.replace(/\/$/, ""),
        dest: posix.resolve(workdir, dest.endsWith("/") ? posix.join(dest, posix.basename(src)) : dest),
      });
  }
  return out;
};

/** The image path of context file `file` (repo-relative), or null when no COPY brings it. */
const imagePathOf = (file: string): string | null => {
  for (const c of copies(image)) {
    if (file === c.src) return c.dest;
    if (file.startsWith(`${c.src}/`)) return posix.join(c.dest, file.slice(c.src.length + 1));
  }
  return null;
};

/** A package name from an import specifier (`@scope/name/sub` → `@scope/name`). */
const packageOf = (spec: string): string =>
  spec
    .split("/")
    .slice(0, spec.startsWith("@") ? 2 : 1)
    .join("/");

describe("the renderer image's files", () => {
  let modules: string[];
  let packages: Set<string>;
  beforeAll(async () => {
    const result = await build({
      entryPoints: [join(root, "renderer", "src", "server.ts")],
      absWorkingDir: root,
      bundle: true,
      write: false,
      metafile: true,
      platform: "node",
      format: "esm",
      // Every npm package stays external (the image installs it), except the workspace's own: their modules are
      // files the image must copy, so esbuild follows them (through the node_modules link to their real path).
      plugins: [
        {
          name: "external-npm-packages",
          setup(b) {
            b.onResolve({ filter: /^[^./]/ }, (args) =>
              WORKSPACE.test(args.path) ? undefined : { path: args.path, external: true },
            );
          },
        },
      ],
      logLevel: "silent",
    });
    modules = Object.keys(result.metafile.inputs);
    const imports = Object.values(result.metafile.inputs).flatMap((i) => i.imports);
    packages = new Set([
      ...imports.filter((i) => i.external && !i.path.startsWith("node:")).map((i) => packageOf(i.path)),
      ...imports.filter((i) => WORKSPACE.test(i.original ?? "")).map((i) => packageOf(i.original!)),
    ]);
  });

  it("every module the entry imports is in the build context and lands where its imports expect it", () => {
    expect(modules.length).toBeGreaterThan(50);
    expect(modules).toContain("renderer/src/video/raster/chromium-isolation.json");
    expect(modules).toContain("packages/contract/src/wire.ts");
    const WORKDIR = "/app";
    const misplaced = modules
      .map((m) => ({ m, allowed: inContext(m), at: imagePathOf(m) }))
      .filter(({ m, allowed, at }) => !allowed || at !== posix.join(WORKDIR, m));
    expect(misplaced).toEqual([]);
  });

  it("every package it imports or resolves at run time is a production dependency of the renderer workspace", () => {
    const sources = modules.filter((m) => m.endsWith(".ts")).map((m) => readFileSync(join(root, m), "utf8"));
    const required = sources.flatMap((s) =>
      [...s.matchAll(/createRequire\([^)]*\)\("([^"]+)"\)/g)].map((m) => m[1]!),
    );
    const resolved = new Set([
      ...packages,
      ...required.map(packageOf),
      // Read from their packages' files at run time: the html-layer libraries and the font catalogue.
      ...[TAILWIND, ...LIBRARIES].map((l) => packageOf(l.file)),
      ...CATALOG_FAMILIES.map((f) => `@fontsource/${f.id}`),
    ]);
    expect(resolved).toContain("gl-transitions");
    expect(resolved).toContain("@media-render/contract");
    expect([...resolved].filter((p) => !rendererDeps.includes(p))).toEqual([]);
  });

  it("the native helper is built in the build stage from sources the context lets in, and copied to where the renderer looks", () => {
    const copyNative = native.steps.find((s) => s.op === "COPY")!;
    const [src] = copyNative.args.split(" ");
    for (const f of ["renderer/native/gl-transition.c", "renderer/native/build.sh"]) {
      expect(f.startsWith(`${src}/`)).toBe(true);
      expect(inContext(f)).toBe(true);
    }
    const fromNative = image.steps.find((s) => s.op === "COPY" && s.from === "native")!;
    const dest = fromNative.args.split(" ").pop()!;
    expect(posix.join("/app", dest)).toBe(
      posix.join(
        "/app",
        posix.relative(
          root,
          DEFAULT_RENDER_TOOLS.glTransitionPath ?? join(root, "renderer/native/build/gl-transition"),
        ),
      ),
    );
  });

  it("the image's npm ci resolves from the lock file with only what the Dockerfile copies before it", () => {
    const install = image.steps.find((s) => s.op === "RUN" && /\bnpm (ci|install)\b/.test(s.args))!;
    const before = image.steps.slice(0, image.steps.indexOf(install));
    const context = mkdtempSync(join(tmpdir(), "image-npm-"));
    try {
      for (const step of before.filter((s) => s.op === "COPY" && !s.from)) {
        const parts = step.args.split(" ");
        const dest = parts.pop()!;
        for (const src of parts) {
          expect(inContext(src), `${src} is in the build context`).toBe(true);
          const to = join(
            context,
            dest.endsWith("/") ? join(dest, src.split("/").pop()!) : dest === "./" ? src : dest,
          );
          cpSync(join(root, src), to, { recursive: true });
        }
      }
      // npm ci links a workspace package whatever its folder holds; the link only resolves at run time when its
      // package.json (the exports map) is there, so it must be copied with the other manifests, before npm ci.
      const workspaces = [...packages].filter((p) => WORKSPACE.test(p));
      expect(workspaces).toContain("@media-render/contract");
      for (const name of workspaces) {
        const manifest = join(relative(root, realpathSync(join(root, "node_modules", name))), "package.json");
        expect(existsSync(join(context, manifest)), `${manifest} is copied before npm ci`).toBe(true);
      }
      const command = install.args.split("&&")[0]!.trim().split(" ");
      expect(command[1], "npm ci installs exactly the lock file").toBe("ci");
      const r = spawnSync(command[0]!, [...command.slice(1), "--dry-run"], {
        cwd: context,
        encoding: "utf8",
        env: { ...process.env, NODE_ENV: "production" },
      });
      expect(r.status, `${command.join(" ")} --dry-run:\n${r.stdout}\n${r.stderr}`).toBe(0);
      for (const dep of ["puppeteer-core", "hono", "gl-transitions", "valibot", "@media-render/contract"])
        expect(r.stdout).toMatch(new RegExp(`^add ${dep} `, "m"));
    } finally {
      rmSync(context, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(!debian)("the renderer image's Debian packages", () => {
  const runtime = image.steps.filter((s) => s.op === "RUN").flatMap((s) => aptInstalls(s.args));
  const buildStage = native.steps.filter((s) => s.op === "RUN").flatMap((s) => aptInstalls(s.args));

  it("are APT_PACKAGES: runtime and image ones in the image, build ones in the build stage", () => {
    const where = (kinds: string[]) => APT_PACKAGES.filter(([, , w]) => kinds.includes(w)).map(([n]) => n);
    expect([...runtime].sort()).toEqual(where(["runtime", "image"]).sort());
    expect([...buildStage].sort()).toEqual(where(["build"]).sort());
  });

  it("every file that proves a runtime package here belongs to that package", () => {
    const listed = APT_PACKAGES.filter(([, , w]) => w === "runtime" || w === "image");
    const owners = dpkgOwners(listed.map(([, proof]) => proof));
    for (const [name, proof] of listed)
      expect({ proof, owner: owners.get(proof) }).toEqual({ proof, owner: name });
  });

  it("every binary the renderer starts, and every library it loads, comes from a listed package or the base system", () => {
    const which = (name: string) =>
      name.includes("/")
        ? name
        : execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim();
    const entry = JSON.parse(image.steps.find((s) => s.op === "ENTRYPOINT")!.args) as string[];
    const helper = DEFAULT_RENDER_TOOLS.glTransitionPath;
    expect(helper, "the project's setup built the native helper").not.toBeNull();
    const binaries = [
      DEFAULT_RENDER_TOOLS.ffmpegPath,
      DEFAULT_RENDER_TOOLS.ffprobePath,
      DEFAULT_RENDER_TOOLS.chromiumPath,
      DEFAULT_RENDER_TOOLS.pocketsphinxPath,
      DEFAULT_RENDER_TOOLS.espeakPath,
      asUser({ name: BROWSER_USER, uid: 1, gid: 1 }, ["x"])[0]!,
      entry[0]!,
    ].map(which);
    // A static binary (tini) loads none: ldd says so and exits 1.
    const libs = [...binaries, helper!].flatMap((b) =>
      [...spawnSync("ldd", [b], { encoding: "utf8" }).stdout.matchAll(/=> (\/\S+)/g)].map((m) => m[1]!),
    );
    const owners = dpkgOwners([...binaries, ...libs]);
    const missing = [...binaries, ...libs].filter((f) => !owners.has(f));
    expect(missing, "files no installed package owns").toEqual([]);
    const inImage = dependencyClosure([...runtime, ...basePackages()]);
    const outside = [...new Set([...binaries, ...libs].map((f) => `${owners.get(f)} (${f})`))].filter(
      (p) => !inImage.has(p.split(" ")[0]!),
    );
    expect(outside).toEqual([]);
  }, 60_000);

  it("creates the browser user the renderer runs Chromium as", () => {
    const useradd = image.steps.find((s) => s.op === "RUN" && /\buseradd\b/.test(s.args));
    expect(useradd?.args.split(" ").pop()).toBe(BROWSER_USER);
    expect(DEFAULT_RENDER_TOOLS.chromiumUser).toBe(BROWSER_USER);
    // Created before anything runs, and the renderer is root (no USER): setpriv needs it to start Chromium as it.
    expect(image.steps.some((s) => s.op === "USER")).toBe(false);
  });
});

/**
 * The Debian package owning each file (`dpkg -S`), trying the /usr-merged twin of a path and, for a link chosen by
 * update-alternatives (libblas.so.3), the file it resolves to.
 */
const dpkgOwners = (files: string[]): Map<string, string> => {
  const twin = (f: string) => (f.startsWith("/usr/") ? f.slice(4) : `/usr${f}`);
  const candidates = (f: string) => [f, twin(f), realpathSync(f), twin(realpathSync(f))];
  const r = spawnSync("dpkg", ["-S", ...new Set(files.flatMap(candidates))], { encoding: "utf8" });
  const byPath = new Map<string, string>();
  for (const line of r.stdout.split("\n")) {
    const m = /^([^:,]+)(?::\w+)?(?:, [^:]+)*: (.+)$/.exec(line);
    if (m) byPath.set(m[2]!, m[1]!);
  }
  const out = new Map<string, string>();
  for (const f of files) {
    const owner = candidates(f)
      .map((c) => byPath.get(c))
      .find((o) => o !== undefined);
    if (owner) out.set(f, owner);
  }
  return out;
};

/** What debootstrap's minbase (the base of node:*-bookworm-slim) installs: Debian's required packages. */
const basePackages = (): string[] => {
  const out = execFileSync("dpkg-query", ["-W", "-f=${Package} ${Priority}\\n"], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((l) => l.endsWith(" required"))
    .map((l) => l.split(" ")[0]!);
};

/** `packages` and everything they depend on (not recommends), as apt resolves them. */
const dependencyClosure = (packages: string[]): Set<string> => {
  const out = execFileSync(
    "apt-cache",
    [
      "depends",
      "--recurse",
      "--no-recommends",
      "--no-suggests",
      "--no-conflicts",
      "--no-breaks",
      "--no-replaces",
      "--no-enhances",
      ...packages,
    ],
    { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  return new Set(
    out
      .split("\n")
      .filter((l) => l !== "" && !l.startsWith(" "))
      .map((l) => l.replace(/:\w+$/, "")),
  );
};
