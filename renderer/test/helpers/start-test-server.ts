/**
 * Starts the real renderer on an ephemeral port with its own temp dir, plus a fetch that signs requests
 * the way the Worker does. Shared by route tests (probe, render).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { contentDigest, signRendererRequest } from "@media-render/contract/signing";
import { DEFAULT_RENDER_TOOLS, type Config } from "../../src/settings.ts";
import { DEFAULT_TOOL_UIDS } from "../../src/lib/tool-users.ts";
import type { ToolVersions } from "../../src/tool-versions.ts";
import { startServer } from "../../src/server.ts";

export const TEST_SECRET = "test-renderer-secret";

export interface TestServer {
  url: string;
  config: Config;
  /** fetch(url + path) with x-renderer-timestamp / x-renderer-signature for method + path. */
  signedFetch(path: string, init?: RequestInit): Promise<Response>;
  /** Closes the server and deletes its temp dir. */
  close(): Promise<void>;
}

/** A fetch of `base` + path that signs each request with `secret` the way the Worker does. */
export const signedFetcher = (base: string, secret: string): TestServer["signedFetch"] => {
  return async (path, init = {}) => {
    const method = init.method ?? "GET";
    const headers = new Headers(init.headers);
    const url = new URL(path, base);
    const body = init.body;
    const content = await contentDigest(
      typeof body === "string" || body instanceof ReadableStream
        ? body
        : body instanceof Uint8Array
          ? new Uint8Array(body)
          : body === undefined || body === null
            ? null
            : (() => {
                throw new Error("signedFetch signs strings, bytes and streams");
              })(),
    );
    for (const [name, value] of Object.entries(
      await signRendererRequest(secret, { method, target: `${url.pathname}${url.search}`, content }),
    )) {
      headers.set(name, value);
    }
    return fetch(url, { ...init, method, headers });
  };
};

/** Starts a server; `tools` skips the version probe when a test does not look at /health. */
export const startTestServer = async (
  overrides: Partial<Config> = {},
  options: { tools?: ToolVersions } = {},
): Promise<TestServer> => {
  const tmpDir = await mkdtemp(join(tmpdir(), "renderer-test-"));
  const config: Config = {
    host: "127.0.0.1",
    port: 0,
    rendererSecret: TEST_SECRET,
    tmpDir,
    probeMaxBytes: 200 * 1024 * 1024,
    renderSlots: 1,
    renderQueueMax: 1,
    renderQueuePerAccount: 1,
    renderJobMemoryMb: 4096,
    toolUids: DEFAULT_TOOL_UIDS,
    ...DEFAULT_RENDER_TOOLS,
    ...overrides,
  };
  const running = await startServer(config, options);
  return {
    url: running.url,
    config,
    signedFetch: signedFetcher(running.url, config.rendererSecret),
    async close() {
      await running.close();
      await rm(tmpDir, { recursive: true, force: true });
    },
  };
};
