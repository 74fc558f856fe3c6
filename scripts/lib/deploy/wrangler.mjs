// How `npm run deploy` (scripts/deploy.mjs) talks: to wrangler, the `wrangler` first on PATH (npm puts the project's
// own first), either with the terminal attached or quietly to read; and to the user, one `[deploy]` line at a time.
import { spawnSync } from "node:child_process";

/** Prints one line of the deploy's own. */
export const log = (line) => console.log(`[deploy] ${line}`);

/** Runs wrangler with the terminal attached (its prompts and progress reach the user); throws on failure. */
export const wrangler = (args, { input } = {}) => {
  const result = spawnSync("wrangler", args, {
    stdio: [input ? "pipe" : "inherit", "inherit", "inherit"],
    input,
  });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`wrangler ${args.join(" ")} exited with ${result.status}`);
};

/** Runs a read-only wrangler command quietly: its output when it succeeded, null when it did not. */
export const ask = (args) => {
  const result = spawnSync("wrangler", args, {
    encoding: "utf8",
    env: { ...process.env, WRANGLER_LOG: "error" },
  });
  if (result.error) throw result.error;
  return result.status === 0 ? result.stdout : null;
};
