// The typed client's types: openapi-typescript, run from its own install in client/generator (it needs
// TypeScript 5's compiler API; the project uses TypeScript 7), installed there by `npm ci` from its lock file.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const generatorDir = (root) => join(root, "client", "generator");

/** Installs the generator's packages when they are missing (~3 s, from client/generator/package-lock.json). */
export const ensureGenerator = (root) => {
  const dir = generatorDir(root);
  if (existsSync(join(dir, "node_modules", "openapi-typescript", "package.json"))) return;
  console.log("[client] installing the type generator (npm ci in client/generator)");
  execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
  });
};

/** The TypeScript of the OpenAPI document at `documentPath` (client/src/schema.ts is this, for client/openapi.json). */
export const generateTypes = (root, documentPath) => {
  ensureGenerator(root);
  return execFileSync(process.execPath, [join(generatorDir(root), "generate.mjs"), documentPath], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
};
