/**
 * The n8n tier's machinery: installing the node's tooling (integrations/n8n) and n8n itself (test/n8n/server, its
 * own install so that its tree is the one `npm install n8n` gives), building and packing the node as it would be
 * published, and starting a real n8n headless on loopback with its own data folder and the packed node installed
 * in its custom-nodes folder.
 *
 * Both installs run `npm ci --ignore-scripts`: eslint-plugin-n8n-nodes-base (a dependency of @n8n/node-cli)
 * publishes a `preinstall` of `npx only-allow pnpm`, which fails under npm, and n8n's tree holds install scripts
 * that download binaries (prebuild-install, a Kafka client, a browser for agent-browser). The one native module n8n
 * needs that ships no prebuilt binary inside its package, sqlite3 (n8n's default database), is then built from
 * source by node-gyp (`npm rebuild sqlite3 --build-from-source`: no download). isolated-vm ships its binaries inside
 * the package.
 */
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { freePort, startProcess, stopProcess, waitForUrl } from "../../scripts/lib/processes.mjs";

/** The node's package and the n8n the tests run. */
export const nodeDir = (root: string) => join(root, "integrations", "n8n");
export const serverDir = (root: string) => join(root, "test", "n8n", "server");

/**
 * The environment for the tier's tools: the project's Node 24 and its bin folder first on PATH (npm, node-gyp and
 * n8n need Node >= 24), and no NODE_ENV: vitest sets `test`, under which eslint-plugin-n8n-nodes-base takes every
 * file for a trigger node's (its own tests' mode), and `production` would make npm skip the tooling's devDependencies.
 */
export const projectEnv = (root: string) => {
  const { NODE_ENV: _, ...env } = process.env;
  return {
    ...env,
    PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
    npm_config_yes: "false",
  };
};

/** Runs a command to its end without blocking the event loop (the installs run side by side). */
const run = (root: string, cwd: string, command: string, args: string[]) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: projectEnv(root), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child.stderr.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ${args.join(" ")} in ${cwd}: exit ${code}\n${output}`)),
    );
  });

const npmCi = (root: string, cwd: string) =>
  run(root, cwd, "npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"]);

/** Installs the node's tooling (@n8n/node-cli, eslint, TypeScript, n8n-workflow) when it is missing. */
export const ensureNodeTooling = async (root: string) => {
  if (existsSync(join(nodeDir(root), "node_modules", "@n8n", "node-cli", "package.json"))) return;
  await npmCi(root, nodeDir(root));
};

/** Installs n8n when it is missing, and builds sqlite3's binding from source when that is missing. */
export const ensureN8n = async (root: string) => {
  const dir = serverDir(root);
  if (!existsSync(join(dir, "node_modules", "n8n", "package.json"))) await npmCi(root, dir);
  if (!existsSync(join(dir, "node_modules", "sqlite3", "build", "Release", "node_sqlite3.node")))
    await run(root, dir, "npm", ["rebuild", "sqlite3", "--build-from-source", "--loglevel=error"]);
};

/**
 * `n8n-node build`, then `npm pack`, in a copy of the node's sources in `into` (its node_modules linked, not copied),
 * so the run writes nothing into the checkout (npm test checks it). Answers the built copy's folder and the path of
 * the tarball npm would publish.
 */
export const buildAndPackNode = async (root: string, into: string) => {
  const dir = join(into, "node");
  const source = nodeDir(root);
  cpSync(source, dir, {
    recursive: true,
    filter: (path) => !["node_modules", "dist"].includes(relative(source, path)),
  });
  symlinkSync(join(source, "node_modules"), join(dir, "node_modules"), "dir");
  await run(root, dir, join(dir, "node_modules", ".bin", "n8n-node"), ["build"]);
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", into, "--loglevel=error"], {
    cwd: dir,
    env: projectEnv(root),
    encoding: "utf8",
  });
  return { dir, tarball: join(into, (JSON.parse(out) as { filename: string }[])[0]!.filename) };
};

export interface N8n {
  /** http://127.0.0.1:<port> */
  base: string;
  userFolder: string;
  process: ReturnType<typeof startProcess>;
  stop(): Promise<void>;
}

/**
 * Starts n8n (`n8n start`) on 127.0.0.1 with its own data folder, the packed node installed in that folder's
 * custom-nodes folder the way its docs install a private node (npm install of the package there; `n8n-workflow`, a
 * peer dependency, is n8n's own), and every feature that would call out to n8n's servers switched off.
 */
export const startN8n = async (
  root: string,
  { userFolder, tarball, quiet = true }: { userFolder: string; tarball: string; quiet?: boolean },
): Promise<N8n> => {
  const custom = join(userFolder, ".n8n", "custom");
  mkdirSync(custom, { recursive: true });
  writeFileSync(join(custom, "package.json"), JSON.stringify({ private: true }));
  await run(root, custom, "npm", [
    "install",
    tarball,
    "--omit=peer",
    "--ignore-scripts",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
  ]);
  const [port, brokerPort] = [await freePort(), await freePort()];
  const child = startProcess(
    "n8n",
    join(root, "node_modules", ".bin", "node"),
    [join(serverDir(root), "node_modules", "n8n", "bin", "n8n"), "start"],
    {
      cwd: userFolder,
      quiet,
      env: {
        // n8n is not under test here: vitest's variables change how n8n loads its public API's handlers (VITEST
        // set: by import(), which answers 500 for some), and NODE_ENV=test stops it loading nodes at all.
        ...Object.fromEntries(
          Object.keys(process.env)
            .filter((k) => k.startsWith("VITEST"))
            .map((k) => [k, ""]),
        ),
        NODE_ENV: "production",
        N8N_USER_FOLDER: userFolder,
        N8N_PORT: String(port),
        N8N_LISTEN_ADDRESS: "127.0.0.1",
        N8N_HOST: "127.0.0.1",
        N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/`,
        N8N_RUNNERS_BROKER_PORT: String(brokerPort),
        N8N_RUNNERS_BROKER_LISTEN_ADDRESS: "127.0.0.1",
        N8N_SECURE_COOKIE: "false",
        // Nothing leaves the machine: no telemetry, version checks, templates, MCP registry or AI services.
        N8N_DIAGNOSTICS_ENABLED: "false",
        N8N_VERSION_NOTIFICATIONS_ENABLED: "false",
        N8N_TEMPLATES_ENABLED: "false",
        N8N_PERSONALIZATION_ENABLED: "false",
        N8N_DISABLED_MODULES: "mcp-registry,insights,chat-hub,workflow-builder,instance-ai",
        N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? "warn",
        N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: "true",
        DB_SQLITE_POOL_SIZE: "2",
        EXECUTIONS_DATA_SAVE_ON_SUCCESS: "all",
        EXECUTIONS_DATA_SAVE_ON_ERROR: "all",
        // No proxy between n8n and the service on loopback.
        HTTP_PROXY: "",
        HTTPS_PROXY: "",
        NO_PROXY: "127.0.0.1,localhost",
      },
    },
  );
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => stopProcess(child, 10_000);
  try {
    await waitForUrl(`${base}/healthz/readiness`, 120_000, child);
  } catch (e) {
    await stop();
    throw e;
  }
  return { base, userFolder, process: child, stop };
};

/**
 * Sets up n8n's owner account (`POST /rest/owner/setup`, what the first visit to the editor does) and creates a
 * public-API key with every scope the owner may grant (`POST /rest/api-keys`, the settings page's button); answers
 * the key, for `X-N8N-API-KEY`.
 */
export const ownerApiKey = async (base: string) => {
  // The session cookie is bound to the browser id it was issued with.
  const json = { "content-type": "application/json", "browser-id": "n8n-tier" };
  const setup = await fetch(`${base}/rest/owner/setup`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({
      email: "owner@example.com",
      firstName: "Test",
      lastName: "Owner",
      password: "Passw0rd-for-tests",
    }),
  });
  if (!setup.ok) throw new Error(`n8n owner setup: ${setup.status} ${await setup.text()}`);
  const cookie = (setup.headers.getSetCookie() ?? []).map((c) => c.split(";")[0]).join("; ");
  const headers = { ...json, cookie };
  const scopes = (await (await fetch(`${base}/rest/api-keys/scopes`, { headers })).json()) as {
    data: string[];
  };
  const created = await fetch(`${base}/rest/api-keys`, {
    method: "POST",
    headers,
    body: JSON.stringify({ label: "n8n tier", scopes: scopes.data, expiresAt: null }),
  });
  if (!created.ok) throw new Error(`n8n API key: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { data: { rawApiKey: string } }).data.rawApiKey;
};
