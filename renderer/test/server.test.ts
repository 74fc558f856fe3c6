/** The real server: unsigned health, the signature gate on every other route, and the error bodies. */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as v from "valibot";
import { sha256Hex } from "@media-render/contract/crypto";
import { signRendererRequest, UNSIGNED_PAYLOAD } from "@media-render/contract/signing";
import { RendererHealth } from "@media-render/contract/wire";
import { startTestServer, TEST_SECRET, type TestServer } from "./helpers/start-test-server.ts";

let server: TestServer;
beforeAll(async () => {
  // Real tool versions: /health must show what is installed.
  server = await startTestServer();
});
afterAll(() => server?.close());

const postProbe = (headers: Record<string, string>) =>
  fetch(`${server.url}/probe`, { method: "POST", body: "x", headers });
/** Headers signing `METHOD target` with the digest of the body "x" (or another content digest). */
const sign = async (
  secret: string,
  method: string,
  target: string,
  extra: { ts?: number; content?: string } = {},
) =>
  signRendererRequest(secret, {
    method,
    target,
    content: extra.content ?? (await sha256Hex("x")),
    ts: extra.ts,
  });

describe("GET /health", () => {
  it("answers without a signature, with the installed tool versions", async () => {
    const response = await fetch(`${server.url}/health`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: "ok", service: "renderer", version: "1.0.0" });
    expect(Number.isInteger(body.uptimeSeconds)).toBe(true);
    expect(v.safeParse(RendererHealth, body).success).toBe(true);
    expect(body.tools).toEqual({
      ffmpeg: expect.stringMatching(/^5\.1\.\d+$/),
      ffprobe: expect.stringMatching(/^5\.1\.\d+$/),
      chromium: expect.stringMatching(/^156\./),
      glTransitions: expect.stringMatching(
        /^llvmpipe \(LLVM [\d.]+, \d+ bits\); OpenGL ES 3\.2 Mesa 22\.3\.\d+$/,
      ),
    });
  });

  it("says what draws gl-transitions: null on the page only, the helper's error when it cannot start", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fake-gl-"));
    // Where the tools' user can run it, as it can the real ones.
    await chmod(dir, 0o755);
    const broken = join(dir, "gl-transition");
    await writeFile(broken, "#!/bin/sh\necho 'gl-transition: eglInitialize failed' >&2\nexit 1\n", {
      mode: 0o755,
    });
    const pageOnly = await startTestServer({ glTransitionPath: null });
    const failing = await startTestServer({ glTransitionPath: broken });
    try {
      const tools = async (url: string) =>
        ((await (await fetch(`${url}/health`)).json()) as { tools: Record<string, unknown> }).tools;
      expect((await tools(pageOnly.url)).glTransitions).toBeNull();
      expect((await tools(failing.url)).glTransitions).toBe(
        "not working: gl-transition: eglInitialize failed",
      );
    } finally {
      await pageOnly.close();
      await failing.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("answers HEAD without a signature too (load-balancer style checks)", async () => {
    expect((await fetch(`${server.url}/health`, { method: "HEAD" })).status).toBe(200);
  });

  it("reports the Chromium binary the configuration names (the one renders launch)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fake-chromium-"));
    await chmod(dir, 0o755);
    const fake = join(dir, "chromium");
    await writeFile(fake, "#!/bin/sh\necho 'Chromium 999.1.2 built for this test'\n", { mode: 0o755 });
    const other = await startTestServer({ chromiumPath: fake });
    try {
      const body = (await (await fetch(`${other.url}/health`)).json()) as { tools: Record<string, unknown> };
      expect(body.tools.chromium).toBe("999.1.2");
    } finally {
      await other.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("reports null for a tool that is not installed", async () => {
    const broken = await startTestServer({ ffprobePath: "/nonexistent/ffprobe" });
    try {
      const body = (await (await fetch(`${broken.url}/health`)).json()) as { tools: Record<string, unknown> };
      expect(body.tools.ffprobe).toBeNull();
      expect(body.tools.ffmpeg).not.toBeNull();
    } finally {
      await broken.close();
    }
  });
});

describe("request signatures", () => {
  const unauthorized = { error: "Unauthorized" };

  it("answers 401 to an unsigned request", async () => {
    const response = await postProbe({});
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(unauthorized);
  });

  it("answers 401 to a signature made with another secret", async () => {
    const response = await postProbe(await sign("wrong-secret", "POST", "/probe"));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(unauthorized);
  });

  it("answers 401 to a signature of another method or path", async () => {
    expect((await postProbe(await sign(TEST_SECRET, "POST", "/render/video"))).status).toBe(401);
    expect((await postProbe(await sign(TEST_SECRET, "GET", "/probe"))).status).toBe(401);
  });

  it("answers 401 to a correctly signed but stale or future timestamp", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await postProbe(await sign(TEST_SECRET, "POST", "/probe", { ts: now - 301 }))).status).toBe(401);
    expect((await postProbe(await sign(TEST_SECRET, "POST", "/probe", { ts: now + 301 }))).status).toBe(401);
  });

  it("accepts the signed body and answers it (a one-byte file is unreadable media: 422)", async () => {
    expect((await postProbe(await sign(TEST_SECRET, "POST", "/probe"))).status).toBe(422);
  });

  it("covers the query: the same signature with a query added or changed is refused", async () => {
    const headers = await sign(TEST_SECRET, "POST", "/probe");
    const replayed = await fetch(`${server.url}/probe?x=1`, { method: "POST", body: "x", headers });
    expect(replayed.status).toBe(401);
    const signed = await sign(TEST_SECRET, "POST", "/probe?x=1");
    expect(
      (await fetch(`${server.url}/probe?x=2`, { method: "POST", body: "x", headers: signed })).status,
    ).toBe(401);
  });

  it("covers the body: a captured signature with another body is refused", async () => {
    const headers = await sign(TEST_SECRET, "POST", "/probe");
    const swapped = await fetch(`${server.url}/probe`, { method: "POST", body: "y", headers });
    expect(swapped.status).toBe(401);
    // Nor can the digest header be swapped for the new body's: the signature covers it.
    const forged = { ...headers, "x-renderer-content-sha256": await sha256Hex("y") };
    expect((await fetch(`${server.url}/probe`, { method: "POST", body: "y", headers: forged })).status).toBe(
      401,
    );
  });

  it("allows an unhashed streamed body only where it is declared (probe), never on a render", async () => {
    const streamed = await sign(TEST_SECRET, "POST", "/probe", { content: UNSIGNED_PAYLOAD });
    expect((await postProbe(streamed)).status).toBe(422);
    const render = await sign(TEST_SECRET, "POST", "/render/video", { content: UNSIGNED_PAYLOAD });
    const res = await fetch(`${server.url}/render/video`, { method: "POST", body: "{}", headers: render });
    expect(res.status).toBe(401);
  });

  it("refuses a malformed content digest, and a hashed body over the limit with 413", async () => {
    expect((await postProbe(await sign(TEST_SECRET, "POST", "/probe", { content: "abc" }))).status).toBe(401);
    const big = "x".repeat(4 * 1024 * 1024 + 1);
    const headers = await signRendererRequest(TEST_SECRET, {
      method: "POST",
      target: "/render/video",
      content: await sha256Hex(big),
    });
    const res = await fetch(`${server.url}/render/video`, { method: "POST", body: big, headers });
    expect(res.status).toBe(413);
  });

  it("gates unknown paths too, then answers a signed one with 404", async () => {
    expect((await fetch(`${server.url}/nope`)).status).toBe(401);
    const response = await server.signedFetch("/nope");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Not found" });
  });
});
