#!/usr/bin/env node
// `npm run deploy [-- --dry-run [--inspect]]`: deploys the service to the Cloudflare account wrangler is logged in
// to, in one guided run that is safe to repeat (docs/deploying.md):
// account -> settings -> D1 and R2 (left to wrangler deploy's own provisioning of bindings without ids) -> queues
// (created when missing) -> secrets (generated or asked for when missing, uploaded with the deploy) -> D1 migrations
// (`--remote`; before the deploy, or right after it when the deploy has just provisioned the database) -> deploy.
// --dry-run prints every step and calls nothing that changes the account; it builds the bundle with
// `wrangler deploy --dry-run` from a mirror of the checkout in a temporary folder, so nothing in the checkout changes
// (not even .wrangler/). Cloudflare is not called at all unless --inspect asks to read what the account already has.
// Every call goes to the `wrangler` first on PATH (npm puts the project's own first).
// No secret is ever printed (CI logs keep what a deploy prints) nor echoed as it is typed: a generated ADMIN_PASSWORD
// goes to an owner-only file whose path is printed.
//
// The steps are scripts/lib/deploy/steps.mjs, one function each, run here in order.
import { parseCommandLine } from "./lib/command-line.mjs";
import { inspectAccount, readPlan } from "./lib/deploy/plan.mjs";
import {
  stepAccount,
  stepAfter,
  stepDeploy,
  stepMigrations,
  stepQueues,
  stepSecrets,
  stepSettings,
  stepStorage,
} from "./lib/deploy/steps.mjs";
import { log } from "./lib/deploy/wrangler.mjs";
import { reexecOnProjectNode, root } from "./setup.mjs";

const { values } = parseCommandLine({
  name: "deploy",
  command: "npm run deploy",
  args: "[--dry-run [--inspect]]",
  about:
    "Deploys the service to the Cloudflare account wrangler is logged in to, in one run that is safe to repeat\n" +
    "(docs/deploying.md): account, settings, D1 and R2, queues, secrets, D1 migrations, the Worker.",
  options: {
    "dry-run": {
      type: "boolean",
      help: "print every step and build the bundle; change nothing, call Cloudflare not at all",
      default: false,
    },
    inspect: {
      type: "boolean",
      help: "with --dry-run: read what the account already has (a real run always does)",
      default: false,
    },
  },
  env: {
    PUBLIC_URL: "the Worker's public address (else wrangler.toml's)",
    "STRIPE_SECRET_KEY, ...": "a secret's value when the account lacks it (else generated or asked for)",
  },
});

const main = async () => {
  const dry = values["dry-run"];
  const plan = await readPlan(root);
  // The Worker's own rule for when the captcha is on (it fails closed), read here after the project's Node took over.
  const rules = await import("../src/lib/captcha-on.ts");
  // A real run always reads the account first: that is what makes a second run change nothing.
  const inspect = !dry || values.inspect;
  const run = { plan, dry, inspect, have: null, would: (text) => (dry ? `would ${text}` : text) };
  log(
    !dry
      ? `deploying the Worker "${plan.worker}"`
      : inspect
        ? "dry run: the account is read, nothing is created, set, migrated or uploaded"
        : "dry run: Cloudflare is not called (--inspect reads the account); nothing is created, set or uploaded",
  );
  stepAccount(run);
  const publicUrl = stepSettings(run);
  run.have = inspect ? inspectAccount(plan) : null;
  stepStorage(run);
  stepQueues(run);
  const { upload, unset } = await stepSecrets(run);
  stepMigrations(run);
  stepDeploy(run, upload, root);
  stepAfter(run, { unset, rules, publicUrl });
  log(dry ? "dry run done: nothing was changed" : "deployed");
};

if (!reexecOnProjectNode()) {
  try {
    await main();
  } catch (e) {
    log(`stopped: ${e.message}`);
    process.exit(1);
  }
}
