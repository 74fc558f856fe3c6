/**
 * The start command itself (`node renderer/src/server.ts`) in a child process: it reads the environment,
 * serves, and exits 0 on SIGTERM and SIGINT after finishing in-flight work.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { watch } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "./video/media-helpers.ts";
import { signRendererRequest, UNSIGNED_PAYLOAD } from "@media-render/contract/signing";

const ENTRY = fileURLToPath(new URL("../src/server.ts", import.meta.url));

/** Starts the entry on a free port and resolves with its URL once it logs that it listens. */
const startEntry = async (
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; output: () => string }> => {
  const child = spawn(process.execPath, [ENTRY], {
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/listening on (http:\/\/\S+)/);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`exited early (${code}): ${output}`)));
  });
  return { child, url, output: () => output };
};

describe("node renderer/src/server.ts", () => {
  it.each(["SIGTERM", "SIGINT"] as const)("serves /health and exits 0 on %s", async (signal) => {
    const { child, url, output } = await startEntry({ RENDERER_SECRET: "s" });
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const exited = once(child, "exit");
    child.kill(signal);
    const [code] = await exited;
    expect(code).toBe(0);
    expect(output()).toContain(`${signal} received`);
    expect(output()).toContain("stopped");
  });

  it("finishes a probe whose upload is still arriving when SIGTERM comes, then exits 0", async () => {
    const tmpDir = await mkdtemp(join(tmpdir(), "renderer-shutdown-"));
    const { child, url, output } = await startEntry({ RENDERER_SECRET: "s", TMP_DIR: tmpDir });
    // The handler's temp dir appearing is the event that proves the request is in flight.
    const watcher = watch(tmpDir);
    const handlerStarted = new Promise<void>((resolve) =>
      watcher.on("change", (_event, name) => String(name).startsWith("probe-") && resolve()),
    );
    const mp3 = await readFile(join(FIXTURES, "winxp.mp3"));
    let finishUpload!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(mp3.subarray(0, 1000));
        finishUpload = () => {
          controller.enqueue(mp3.subarray(1000));
          controller.close();
        };
      },
    });
    const headers = {
      ...(await signRendererRequest("s", { method: "POST", target: "/probe", content: UNSIGNED_PAYLOAD })),
      "x-filename": "winxp.mp3",
    };
    const pending = fetch(`${url}/probe`, { method: "POST", body, headers, duplex: "half" } as RequestInit);

    const signalled = new Promise<void>((resolve) =>
      child.stdout!.on("data", () => output().includes("SIGTERM received") && resolve()),
    );
    const exited = once(child, "exit");
    await handlerStarted;
    watcher.close();
    child.kill("SIGTERM");
    await signalled;
    finishUpload();

    const response = await pending;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { duration: number }).duration).toBe(4.879625);
    const [code] = await exited;
    expect(code).toBe(0);
    expect(await readdir(tmpDir)).toEqual([]);
    await rm(tmpDir, { recursive: true });
  });

  it("refuses to start without RENDERER_SECRET and says why", async () => {
    const child = spawn(process.execPath, [ENTRY], { env: { PATH: process.env.PATH ?? "" }, stdio: "pipe" });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(child, "exit");
    expect(code).toBe(1);
    expect(stderr).toContain("RENDERER_SECRET is required");
  });
});
