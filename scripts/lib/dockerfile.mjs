import { readdirSync } from "node:fs";
import { join } from "node:path";

// Reading renderer/Dockerfile and its Dockerfile.dockerignore the way a builder does, for the checks that prove the
// renderer image without a container engine (test/scripts/renderer-image.test.ts, scripts/image-check.mjs). Only
// the syntax the file uses: FROM, RUN, COPY [--from], WORKDIR, ENV, USER, EXPOSE, ENTRYPOINT and CMD (exec form),
// backslash continuations and comments; ignore files of `*` and `!path` lines with `*` globs.

/**
 * The stages of a Dockerfile, in order: `{ name, from, steps: [{ op, args, from? }] }`. `args` is the instruction's
 * text with continuations joined; `from` is a COPY's `--from` stage.
 */
export const parseDockerfile = (text) => {
  const lines = [];
  let current = "";
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    if (current === "" && (line.trim() === "" || line.trimStart().startsWith("#"))) continue;
    if (current !== "" && line.trimStart().startsWith("#")) continue;
    if (line.endsWith("\\")) current += `${line.slice(0, -1)} `;
    else {
      lines.push((current + line).trim());
      current = "";
    }
  }
  const stages = [];
  for (const line of lines) {
    const [, op, rest] = /^(\w+)\s+([\s\S]*)$/.exec(line) ?? [];
    const upper = op.toUpperCase();
    if (upper === "FROM") {
      const [from, , name] = rest.split(/\s+/);
      stages.push({ name: name ?? null, from, steps: [] });
      continue;
    }
    const step = { op: upper, args: rest.replace(/\s+/g, " ").trim() };
    const copyFrom = upper === "COPY" ? /^--from=(\S+)\s+/.exec(step.args) : null;
    if (copyFrom) {
      step.from = copyFrom[1];
      step.args = step.args.slice(copyFrom[0].length);
    }
    stages.at(-1).steps.push(step);
  }
  return stages;
};

/** The Debian packages a RUN step installs with `apt-get install` (options dropped), in order. */
export const aptInstalls = (run) => {
  const install = /apt-get install\s+([^&;|]*)/.exec(run);
  return install ? install[1].split(/\s+/).filter((w) => w !== "" && !w.startsWith("-")) : [];
};

/** ENV's `K=V` pairs (this file's form) as an object. */
export const envPairs = (args) =>
  Object.fromEntries(
    [...args.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map((m) => [m[1], m[2].replace(/^"|"$/g, "")]),
  );

const globToRegExp = (glob) =>
  new RegExp(
    `^${glob
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join("[^/]*")}(/.*)?$`,
  );

/**
 * Whether the ignore file `text` lets the repo-relative `path` into the build context: the last matching line
 * decides (`!` includes), a pattern also matching everything beneath a directory it names.
 */
export const contextFilter = (text) => {
  const rules = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) =>
      line.startsWith("!")
        ? { include: true, re: globToRegExp(line.slice(1)) }
        : { include: false, re: globToRegExp(line) },
    );
  return (path) => {
    let included = true;
    for (const rule of rules) if (rule.re.test(path)) included = rule.include;
    return included;
  };
};

/**
 * The files of directory `root` that the ignore file `text` lets into the build context (repo-relative paths). Only
 * directories an inclusion can reach are walked (never all of node_modules).
 */
export const contextFiles = (root, text) => {
  const allowed = contextFilter(text);
  const includes = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("!"))
    .map((l) => l.slice(1));
  const mayHold = (dir) => allowed(dir) || includes.some((p) => p.startsWith(`${dir}/`));
  const out = [];
  const walk = (rel) => {
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (mayHold(path)) walk(path);
      } else if (allowed(path)) out.push(path);
    }
  };
  walk("");
  return out.sort();
};
