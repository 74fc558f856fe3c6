#!/usr/bin/env node
// Builds the web front end (web/: the console, and any other page beside it) with Vite into static/web, which the
// Worker serves (src/console/routes.ts). Skipped when nothing it reads changed since the last build (a hash of
// web/, the contract's and the Worker's sources it bundles from, and the lock file, kept in
// static/web/.build-hash). Then checks what a browser loads: the console's first
// load stays under FIRST_LOAD_BUDGET bytes of gzip-compressed JavaScript, and no page has an inline script or a
// reference to another host (the pages' Content-Security-Policy would refuse them anyway).
// Runs from scripts/setup.mjs (npm start, npm test, npm run setup); `--force` rebuilds, `--check` only checks.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = join(fileURLToPath(import.meta.url), "..", "..");
const web = join(root, "web");
const out = join(root, "static", "web");
const stamp = join(out, ".build-hash");
/** The budget of the issue: first load of the console under 150 KB of compressed JavaScript. */
export const FIRST_LOAD_BUDGET = 150 * 1024;

const files = (dir) =>
  readdirSync(dir).flatMap((name) => {
    if (name === "node_modules") return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });

const inputsHash = () => {
  const hash = createHash("sha256");
  // The pages bundle more than web/: the packages they import by name (the builder's preview is the image page of
  // packages/image-page, sizing fitted text by packages/contract/src/fit-text.ts). web/src imports nothing else by
  // path (scripts/check-layers.mjs); the client's schema it imports is types only.
  const read = [web, ...["contract", "image-page"].map((p) => join(root, "packages", p, "src"))].flatMap(
    files,
  );
  for (const file of [...read, join(root, "package-lock.json")].sort()) {
    hash.update(relative(root, file));
    hash.update(readFileSync(file));
  }
  return hash.digest("hex");
};

/** The JavaScript a page loads before anything else: its module script and what it preloads. */
const firstLoad = (html) => {
  const refs = [
    ...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g),
    ...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g),
  ].map((m) => m[1]);
  return [...new Set(refs)].map((ref) => {
    const bytes = readFileSync(join(out, ref.replace(/^\/web\//, "")));
    return { ref, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
};

export const checkBuild = () => {
  const problems = [];
  const pages = readdirSync(out).filter((f) => f.endsWith(".html"));
  if (!pages.includes("index.html")) problems.push("static/web/index.html is missing");
  const report = {};
  for (const page of pages) {
    const html = readFileSync(join(out, page), "utf8");
    if (/<script\b(?![^>]*\bsrc=)[^>]*>/.test(html)) problems.push(`${page} has an inline script`);
    if (/\b(?:src|href)="(?:https?:)?\/\//.test(html)) problems.push(`${page} refers to another host`);
    const scripts = firstLoad(html);
    const total = scripts.reduce((sum, s) => sum + s.gzip, 0);
    report[page] = { scripts, gzip: total };
    if (page === "index.html" && total > FIRST_LOAD_BUDGET)
      problems.push(
        `the console's first load is ${total} bytes of gzip JavaScript (budget ${FIRST_LOAD_BUDGET})`,
      );
  }
  return { problems, report };
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const force = process.argv.includes("--force");
  const checkOnly = process.argv.includes("--check");
  const hash = inputsHash();
  const fresh = existsSync(stamp) && readFileSync(stamp, "utf8") === hash;
  if (!checkOnly && (force || !fresh)) {
    const started = Date.now();
    const { build } = await import("vite");
    await build({ configFile: join(web, "vite.config.ts") });
    writeFileSync(stamp, hash);
    console.log(`[web] built static/web in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } else if (checkOnly && !fresh) {
    console.error("[web] static/web is out of date: run node scripts/build-web.mjs");
    process.exit(1);
  }
  const { problems, report } = checkBuild();
  if (!fresh || force || checkOnly)
    for (const [page, { gzip }] of Object.entries(report))
      console.log(`[web] ${page}: first load ${(gzip / 1024).toFixed(1)} KB of gzip JavaScript`);
  if (problems.length) {
    console.error(`[web] ${problems.join("\n[web] ")}`);
    process.exit(1);
  }
}
