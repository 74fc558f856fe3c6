// The smoke run of `npm run image:check` (scripts/image-check.mjs): the built image's ENTRYPOINT and CMD started in a
// PID namespace of its own (tini is PID 1), with the image's ENV and RENDERER_SECRET, and driven from here through
// the checks of checks.mjs, then stopped as the platform stops a container. The renderer listens on a free port of
// the host's network (not 8080 behind a bridge).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { signedFetcher } from "../../../renderer/test/helpers/start-test-server.ts";
import { startWorkerStandIn } from "../../../renderer/test/helpers/worker-stand-in.ts";
import { freePort } from "../processes.mjs";
import {
  checkBrowserUser,
  checkHealth,
  checkProbe,
  checkRender,
  checkStop,
  checkTools,
  checkVideo,
  report,
} from "./checks.mjs";
import { chrootScript, DEFAULT_PATH } from "./root-filesystem.mjs";

/**
 * Starts the image's command (`state`, the last stage's) on the root filesystem `fs` with `secret`, in mount and PID
 * namespaces of its own (both gone with it), its output echoed as it comes and kept: `output()`.
 */
const startImage = async ({ fs, state }, secret, log) => {
  const port = await freePort();
  const env = {
    PATH: DEFAULT_PATH,
    HOME: "/root",
    ...state.env,
    PORT: String(port),
    RENDERER_SECRET: secret,
  };
  const argv = [...state.entrypoint, ...state.cmd];
  copyFileSync("/etc/resolv.conf", join(fs, "etc", "resolv.conf"));
  const script = chrootScript(fs, { env, workdir: state.workdir, argv });
  log(`starting ${argv.join(" ")} in ${state.workdir} (PID namespace of its own, port ${port})`);
  const child = spawn("unshare", ["--mount", "--pid", "--fork", "--kill-child", "sh", "-c", script], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  for (const stream of [child.stdout, child.stderr])
    stream.on("data", (chunk) => {
      output += chunk.toString();
      for (const line of chunk.toString().trimEnd().split("\n")) console.log(`  | ${line}`);
    });
  return { child, port, output: () => output };
};

/**
 * Starts the image's command and drives it through the checks, in order; whatever happens, stops it (the last
 * check). Resolves with `{ ok, lines }`, the renderer's last output among the lines when a check failed.
 */
export const smoke = async (image, { root, log }) => {
  const secret = randomBytes(24).toString("hex");
  const { child, port, output } = await startImage(image, secret, log);
  const worker = await startWorkerStandIn();
  const { lines, check, ok } = report();
  const base = `http://127.0.0.1:${port}`;
  const signed = signedFetcher(base, secret);
  const run = { base, secret, signed, child, worker, fs: image.fs, root, check, lines };
  try {
    const health = await checkHealth(run);
    checkTools(run, health);
    await checkProbe(run);
    const { put, seen } = await checkRender(run);
    checkVideo(run, put);
    checkBrowserUser(run, seen);
  } catch (e) {
    check("smoke render", false, `${e.message}\n--- renderer output ---\n${output().slice(-4000)}`);
  } finally {
    await checkStop(run);
    await worker.close();
  }
  if (!ok()) lines.push(`--- renderer output ---\n${output().slice(-4000)}`);
  return { ok: ok(), lines };
};
