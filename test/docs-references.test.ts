/**
 * The docs name only files and symbols that exist. Scanned: README.md, CONTRIBUTING.md, docs/**, and every folder's
 * README.md. Checked, outside fenced code blocks:
 * - an inline code span that is a path: it starts with a top-level folder of the repository (`src/jobs/lifecycle.ts`,
 *   `renderer/`), or ends with a file extension (`lifecycle.ts`, `video/probe.ts`). It must exist relative to the
 *   repository, to the document's folder or to one of its parent folders; a path without a folder may name a file
 *   anywhere (it is checked by name), and one with a folder may be the end of a longer path. Not checked: paths
 *   git ignores (generated: `static/web`, `.dev.vars`), paths that leave the folder they start in (`../shared/...`:
 *   the spec lives outside the repository) and a path followed by "(new)", a file a how-to says to write;
 * - `path#symbol`, and "`symbol` in `path`": the file must exist and contain the symbol as a word;
 * - a Markdown link to a local file, and its `#anchor` when it points into a Markdown file: the heading must exist.
 *
 * docs/architecture.md's "Layout" is held closer: every path it names must exist as written, from the repository's
 * root (unless git ignores it), and it must name every top-level folder of the trees it lays out (and every file
 * of bench/ and scripts/, which are flat), so a folder added without a line there fails here.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Folders never scanned or indexed: installed, generated or local state. */
const SKIP = new Set([
  "node_modules",
  ".git",
  ".wrangler",
  "static",
  "dist",
  "coverage",
  ".tmp",
  "build",
  "generator",
]);

const walk = (dir: string, out: string[] = []): string[] => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    out.push(path);
    if (entry.isDirectory()) walk(path, out);
  }
  return out;
};

const all = walk(root).map((p) => relative(root, p).split(sep).join("/"));
const byName = new Map<string, string>();
for (const p of all) byName.set(basename(p), join(root, p));
const TOP = new Set(readdirSync(root).filter((e) => !e.startsWith(".")));
const EXTENSIONS =
  /[\w-]\.(ts|tsx|mts|mjs|js|json|jsonc|md|sql|toml|c|h|sh|png|jpg|svg|css|html|yml|yaml|txt|vtt|srt)$/;

const docs = all.filter(
  (p) =>
    p === "README.md" ||
    p === "CONTRIBUTING.md" ||
    (p.startsWith("docs/") && p.endsWith(".md")) ||
    basename(p) === "README.md",
);

const isIgnored = (path: string) =>
  spawnSync("git", ["check-ignore", "-q", "--no-index", path], { cwd: root }).status === 0;

/** Where a path named in `doc` may be: the repository, the document's folder and each folder above it. */
const resolvePath = (doc: string, path: string): string | null => {
  const clean = path.replace(/\/$/, "");
  const bases: string[] = [];
  for (let d = dirname(doc); d !== "."; d = dirname(d)) bases.push(d);
  bases.push("");
  for (const base of bases) {
    const full = resolve(root, base, clean);
    if (existsSync(full)) return full;
  }
  if (!clean.includes("/")) return byName.get(clean) ?? null;
  const hit = all.find((p) => p.endsWith(`/${clean}`));
  return hit ? join(root, hit) : null;
};

const isPath = (span: string) =>
  /^[\w.@/-]+$/.test(span) &&
  !span.startsWith("/") &&
  !span.startsWith("../") &&
  !span.startsWith("@") &&
  !span.includes("...") &&
  (TOP.has(span.split("/")[0]!) && span.includes("/") ? true : EXTENSIONS.test(span));

const hasSymbol = (file: string, symbol: string) =>
  statSync(file).isFile() &&
  new RegExp(`\\b${symbol.replace(/[$]/g, "\\$")}\\b`).test(readFileSync(file, "utf8"));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

const anchors = (file: string) =>
  new Set(
    readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) => slug(l.replace(/^#+ /, "").trim())),
  );

/** The prose of a Markdown file: fenced code blocks removed. */
const prose = (text: string) => text.replace(/^(```|~~~)[\s\S]*?^\1/gm, "");

/** What `doc` (its text, or the file's) names that does not exist. */
const problems = (doc: string, markdown = readFileSync(join(root, doc), "utf8")): string[] => {
  const text = prose(markdown);
  const found: string[] = [];
  for (const [, span] of text.matchAll(/`([^`\n]+)`(?! \(new\))/g)) {
    const [path, symbol] = span!.split("#");
    if (!isPath(path!)) continue;
    const file = resolvePath(doc, path!);
    if (!file) {
      if (!isIgnored(path!)) found.push(`\`${span}\`: no such file`);
    } else if (symbol && /^[\w$]+$/.test(symbol) && !hasSymbol(file, symbol)) {
      found.push(`\`${span}\`: ${path} has no ${symbol}`);
    }
  }
  for (const [, symbol, path] of text.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?` in `([^`\s]+\.\w+)`/g)) {
    const file = resolvePath(doc, path!);
    if (file && !hasSymbol(file, symbol!)) found.push(`\`${symbol}\` in \`${path}\`: not there`);
  }
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target!) || target!.startsWith("#")) continue;
    const [path, anchor] = target!.split("#");
    const file = resolve(root, dirname(doc), path!);
    if (!existsSync(file)) found.push(`link ${target}: no such file`);
    else if (anchor && file.endsWith(".md") && !anchors(file).has(anchor))
      found.push(`link ${target}: no heading`);
  }
  return found;
};

/** The trees docs/architecture.md's layout lists folder by folder; the flat ones (bench/, scripts/) file by file too. */
const LAYOUT_TREES: Record<string, "folders" | "entries"> = {
  src: "folders",
  "renderer/src": "folders",
  "packages/contract/src": "folders",
  "web/src": "folders",
  client: "folders",
  integrations: "folders",
  bench: "entries",
  scripts: "entries",
  test: "folders",
};

/** The "## Layout" section of a Markdown text, up to the next "## " heading. */
const layoutSection = (markdown: string) =>
  prose(markdown)
    .split(/^## /m)
    .find((s) => s.startsWith("Layout\n")) ?? "";

/** What `tree`'s layout must name: its top-level folders (`src/jobs/`), and for a flat tree its files too. */
const layoutEntries = (tree: string): string[] =>
  readdirSync(join(root, tree), { withFileTypes: true })
    .filter((e) => !SKIP.has(e.name) && !e.name.startsWith(".") && !e.name.endsWith(".md"))
    .filter((e) => e.isDirectory() || LAYOUT_TREES[tree] === "entries")
    .map((e) => `${tree}/${e.name}${e.isDirectory() ? "/" : ""}`)
    .filter((path) => !isIgnored(path));

/** What architecture.md's layout (`markdown`) gets wrong: a path that is not there, a folder or file it leaves out. */
const layoutProblems = (markdown: string): string[] => {
  const section = layoutSection(markdown);
  if (!section) return ["no ## Layout section"];
  const spans = [...section.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
  const named = new Set(spans);
  const found: string[] = [];
  for (const span of spans) {
    if (!/^[\w.@/-]+$/.test(span) || !TOP.has(span.split("/")[0]!) || !span.includes("/")) {
      if (EXTENSIONS.test(span)) found.push(`\`${span}\`: name it by its path from the repository's root`);
      continue;
    }
    if (!existsSync(join(root, span)) && !isIgnored(span)) found.push(`\`${span}\`: no such path`);
  }
  for (const tree of Object.keys(LAYOUT_TREES))
    for (const entry of layoutEntries(tree))
      if (!named.has(entry)) found.push(`\`${entry}\`: not in the layout`);
  return found;
};

describe("docs name only what exists", () => {
  it("scans the README, the contributor guide, docs/ and the folder READMEs", () => {
    expect(docs).toContain("README.md");
    expect(docs).toContain("CONTRIBUTING.md");
    expect(docs).toContain("src/jobs/README.md");
    expect(docs.filter((d) => d.startsWith("docs/")).length).toBeGreaterThan(10);
  });

  it("keeps the README a five-minute read: under 250 lines, none over 120 characters", () => {
    const lines = readFileSync(join(root, "README.md"), "utf8").split("\n");
    expect(lines.length).toBeLessThan(250);
    expect(lines.filter((l) => l.length > 120)).toEqual([]);
  });

  it.each(docs)("%s", (doc) => {
    expect(problems(doc)).toEqual([]);
  });

  it("architecture.md's layout names every top-level folder of the code's trees, each path as it is", () => {
    expect(layoutEntries("src")).toContain("src/jobs/");
    expect(layoutEntries("bench")).toContain("bench/video.ts");
    expect(layoutProblems(readFileSync(join(root, "docs/architecture.md"), "utf8"))).toEqual([]);
  });

  it("catches a missing file, a missing symbol, a broken link and a broken anchor, and lets other code spans be", () => {
    const doc = "docs/probe.md";
    expect(
      problems(doc, "`src/jobs/lifecycle.ts#openJob`, `openJob` in `src/jobs/lifecycle.ts`, `lifecycle.ts`"),
    ).toEqual([]);
    expect(
      problems(
        doc,
        [
          "`src/jobs/gone.ts`, `src/jobs/lifecycle.ts#gone`, `gone` in `src/jobs/lifecycle.ts`, `gone.ts`",
          "[a](gone.md), [b](api-guide.md#gone), [c](api-guide.md#rate-limits)",
        ].join("\n"),
      ),
    ).toEqual([
      "`src/jobs/gone.ts`: no such file",
      "`src/jobs/lifecycle.ts#gone`: src/jobs/lifecycle.ts has no gone",
      "`gone.ts`: no such file",
      "`gone` in `src/jobs/lifecycle.ts`: not there",
      "link gone.md: no such file",
      "link api-guide.md#gone: no heading",
    ]);
    const others =
      "`/api/v1/jobs`, `text/csv`, `@media-render/contract/wire`, `../shared/spec/x.md`, `static/web`, `src/new.ts` (new)";
    expect(problems(doc, `${others}\n\n\`\`\`sh\ncat src/gone.ts \`src/gone.ts\`\n\`\`\``)).toEqual([]);
    expect(slug("Files (`/api/v1/files`, permission `media`)")).toBe("files-apiv1files-permission-media");
  });

  it("catches a layout path that is not there, a bare file name, and a folder or bench the layout leaves out", () => {
    const layout = readFileSync(join(root, "docs/architecture.md"), "utf8");
    expect(layoutProblems("# Architecture\n")).toEqual(["no ## Layout section"]);
    const broken = layout
      .replace("- `src/jobs/`:", "- `src/job/`:")
      .replace("- `bench/video.ts`:", "- `video.ts`:");
    expect(layoutProblems(broken)).toEqual([
      "`src/job/`: no such path",
      "`video.ts`: name it by its path from the repository's root",
      "`src/jobs/`: not in the layout",
      "`bench/video.ts`: not in the layout",
    ]);
  });
});
