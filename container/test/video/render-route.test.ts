/**
 * POST /render/video through the real server: a loopback stand-in for the Worker serves the input
 * files, receives the PUT upload and the signed callbacks. Checks 202, the uploaded file itself,
 * progress stages, callback signatures, and the 400/401 paths.
 */
import { createHmac } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { startTestServer, TEST_SECRET, type TestServer } from "../helpers/start-test-server.ts";
import { FIXTURES, probeOut } from "./media-helpers.ts";

interface Callback {
  body: Record<string, unknown>;
  raw: string;
  headers: Record<string, string | string[] | undefined>;
}

let server: TestServer;
let worker: Server;
let base: string;
const callbacks: Callback[] = [];
let uploaded: { type?: string; length?: string; bytes: Buffer } | null = null;
let onFinal: ((c: Callback) => void) | null = null;

beforeAll(async () => {
  server = await startTestServer({}, { tools: { ffmpeg: "5.1", ffprobe: "5.1", chromium: null } });
  worker = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      if (req.method === "GET" && req.url?.startsWith("/files/")) {
        res.end(await readFile(join(FIXTURES, req.url.slice(7).split("?")[0]!)));
      } else if (req.method === "PUT") {
        uploaded = { type: req.headers["content-type"], length: req.headers["content-length"], bytes: body };
        res.end();
      } else if (req.method === "POST" && req.url === "/callback") {
        const cb = { body: JSON.parse(body.toString()), raw: body.toString(), headers: req.headers };
        callbacks.push(cb);
        res.end("{}");
        if (cb.body.status !== "processing") onFinal?.(cb);
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
  });
  await new Promise<void>((r) => worker.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(worker.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await server.close();
  await new Promise((r) => worker.close(r));
  await closeBrowser();
});

function post(body: unknown): Promise<Response> {
  return server.signedFetch("/render/video", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("POST /render/video", () => {
  it("accepts with 202, renders, uploads the file and sends a signed completion callback", async () => {
    const final = new Promise<Callback>((r) => (onFinal = r));
    const res = await post({
      jobId: "job_route",
      config: {
        width: 160,
        height: 90,
        fps: 10,
        clips: [
          {
            duration: 1,
            layers: [
              { type: "fill-color", color: "#00ff00" },
              { type: "title", text: "Hi" },
            ],
          },
          { duration: 1, layers: [{ type: "image", path: `${base}/files/img2.jpg?sig=abc` }] },
        ],
      },
      output: { uploadUrl: `${base}/upload/result.mp4?sig=xyz`, format: "mp4" },
      callbackUrl: `${base}/callback`,
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: true });
    const cb = await final;
    expect(cb.body).toMatchObject({
      jobId: "job_route",
      status: "completed",
      type: "video",
      resultUrl: `${base}/upload/result.mp4`,
    });
    const meta = cb.body.metadata as Record<string, number>;
    expect(meta.videoDuration).toBeCloseTo(1.5, 5);
    expect([meta.outputWidth, meta.outputHeight]).toEqual([160, 90]);
    const ts = String(cb.headers["x-runner-timestamp"]);
    const expected = createHmac("sha256", TEST_SECRET).update(`${ts}.${cb.raw}`).digest("hex");
    expect(cb.headers["x-runner-signature"]).toBe(`v1=${expected}`);
    expect(uploaded?.type).toBe("video/mp4");
    expect(Number(uploaded?.length)).toBe(uploaded?.bytes.length);
    expect(meta.fileSize).toBe(uploaded?.bytes.length);
    const file = join(tmpdir(), `route-${process.pid}.mp4`);
    await writeFile(file, uploaded!.bytes);
    const p = await probeOut(file);
    expect(p.video).toMatchObject({ codec: "h264", width: 160, height: 90 });
    expect(callbacks[0]?.body).toMatchObject({ status: "processing", metadata: { stage: "downloading" } });
  });

  it("reports a failed job through the callback when an input cannot be fetched", async () => {
    const final = new Promise<Callback>((r) => (onFinal = r));
    const res = await post({
      jobId: "job_fail",
      config: { clips: [{ layers: [{ type: "image", path: `${base}/missing.jpg` }] }] },
      output: { uploadUrl: `${base}/upload/x.mp4`, format: "mp4" },
      callbackUrl: `${base}/callback`,
    });
    expect(res.status).toBe(202);
    const cb = await final;
    expect(cb.body).toMatchObject({ jobId: "job_fail", status: "failed" });
    expect(String(cb.body.error)).toMatch(/download failed \(404\)/);
  });

  it("rejects a malformed body with 400 naming the field, and an unsigned request with 401", async () => {
    const bad = await post({
      jobId: "x",
      config: {},
      output: { uploadUrl: "nope", format: "mp4" },
      callbackUrl: `${base}/c`,
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/output\.uploadUrl/);
    const unsigned = await fetch(`${server.url}/render/video`, { method: "POST", body: "{}" });
    expect(unsigned.status).toBe(401);
  });
});
