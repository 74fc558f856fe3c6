/** The real server: unsigned health, the signature gate on every other route, and the error bodies. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signRendererRequest } from "../src/auth.ts";
import { startTestServer, TEST_SECRET, type TestServer } from "./helpers/start-test-server.ts";

let server: TestServer;
beforeAll(async () => {
  // Real tool versions: /health must show what is installed.
  server = await startTestServer();
});
afterAll(() => server?.close());

const postProbe = (headers: Record<string, string>) =>
  fetch(`${server.url}/probe`, { method: "POST", body: "x", headers });

describe("GET /health", () => {
  it("answers without a signature, with the installed tool versions", async () => {
    const response = await fetch(`${server.url}/health`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: "ok", service: "renderer", version: "1.0.0" });
    expect(Number.isInteger(body.uptimeSeconds)).toBe(true);
    expect(body.tools).toEqual({
      ffmpeg: expect.stringMatching(/^5\.1\.\d+$/),
      ffprobe: expect.stringMatching(/^5\.1\.\d+$/),
      chromium: expect.stringMatching(/^156\./),
    });
  });

  it("answers HEAD without a signature too (load-balancer style checks)", async () => {
    expect((await fetch(`${server.url}/health`, { method: "HEAD" })).status).toBe(200);
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
    const response = await postProbe(signRendererRequest("wrong-secret", "POST", "/probe"));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(unauthorized);
  });

  it("answers 401 to a signature of another method or path", async () => {
    expect((await postProbe(signRendererRequest(TEST_SECRET, "POST", "/render/video"))).status).toBe(401);
    expect((await postProbe(signRendererRequest(TEST_SECRET, "GET", "/probe"))).status).toBe(401);
  });

  it("answers 401 to a correctly signed but stale or future timestamp", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await postProbe(signRendererRequest(TEST_SECRET, "POST", "/probe", now - 301))).status).toBe(401);
    expect((await postProbe(signRendererRequest(TEST_SECRET, "POST", "/probe", now + 301))).status).toBe(401);
  });

  it("signs the pathname only: a query string does not change the signature", async () => {
    const response = await fetch(`${server.url}/probe?x=1`, {
      method: "POST",
      body: "x",
      headers: signRendererRequest(TEST_SECRET, "POST", "/probe"),
    });
    expect(response.status).toBe(422);
  });

  it("gates unknown paths too, then answers a signed one with 404", async () => {
    expect((await fetch(`${server.url}/nope`)).status).toBe(401);
    const response = await server.signedFetch("/nope");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Not found" });
  });
});
