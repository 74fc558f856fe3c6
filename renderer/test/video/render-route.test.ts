/**
 * POST /render/video through the real server: a loopback stand-in for the Worker serves the input
 * files (the config keeps the references as submitted; `inputs` maps them to signed URLs), receives the
 * PUT upload and the signed callbacks. Checks 202, the uploaded file itself, progress stages, callback
 * signatures, one download per distinct URL, and the 400/401 paths.
 */
import { createHmac } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StatusReport } from "@media-render/contract/wire";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { startTestServer, TEST_SECRET, type TestServer } from "../helpers/start-test-server.ts";
import { fontsourceFamily, fontsourceFile } from "../../../test/fonts/fontsource.ts";
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
/** GET requests the stand-in served, by path. */
const downloads = new Map<string, number>();

beforeAll(async () => {
  server = await startTestServer({}, { tools: { ffmpeg: "5.1", ffprobe: "5.1", chromium: null } });
  worker = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      if (req.method === "GET" && req.url?.startsWith("/fontsource/")) {
        // /fontsource/<id>/<subset>/<weight>: a hosted font's face, as the Worker's font cache serves it.
        const path = req.url.split("?")[0]!;
        downloads.set(path, (downloads.get(path) ?? 0) + 1);
        const [id, subset, weight] = path.split("/").slice(2) as [string, string, string];
        res.end(await readFile(fontsourceFile(id, subset, Number(weight))));
      } else if (req.method === "GET" && req.url?.startsWith("/files/")) {
        const path = req.url.split("?")[0]!;
        downloads.set(path, (downloads.get(path) ?? 0) + 1);
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

const post = (body: unknown): Promise<Response> => {
  return server.signedFetch("/render/video", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
};

describe("POST /render/video", () => {
  it("accepts with 202, renders, uploads the file and sends a signed completion callback", async () => {
    const final = new Promise<Callback>((r) => (onFinal = r));
    const photo = `${base}/files/img2.jpg?sig=abc`;
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
          {
            duration: 1,
            layers: [
              { type: "image", path: "/image/2026-01-15/u1/img2.jpg" },
              { type: "image-overlay", path: "https://cdn.example.com/img2.jpg", width: 0.2 },
            ],
          },
        ],
      },
      // Both references are the same stored file: one signed URL, downloaded once.
      inputs: { "/image/2026-01-15/u1/img2.jpg": photo, "https://cdn.example.com/img2.jpg": photo },
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
    // No transition configured: the clips cut (1 s + 1 s).
    expect(meta.videoDuration).toBeCloseTo(2, 5);
    expect(downloads.get("/files/img2.jpg")).toBe(1);
    expect([meta.outputWidth, meta.outputHeight]).toEqual([160, 90]);
    const ts = String(cb.headers["x-renderer-timestamp"]);
    const expected = createHmac("sha256", TEST_SECRET).update(`${ts}.${cb.raw}`).digest("hex");
    expect(cb.headers["x-renderer-signature"]).toBe(`v1=${expected}`);
    expect(uploaded?.type).toBe("video/mp4");
    expect(Number(uploaded?.length)).toBe(uploaded?.bytes.length);
    expect(meta.fileSize).toBe(uploaded?.bytes.length);
    const file = join(tmpdir(), `route-${process.pid}.mp4`);
    await writeFile(file, uploaded!.bytes);
    const p = await probeOut(file);
    expect(p.video).toMatchObject({ codec: "h264", width: 160, height: 90 });
    expect(p.duration).toBeCloseTo(2, 1);
    expect(callbacks[0]?.body).toMatchObject({ status: "processing", metadata: { stage: "downloading" } });
    // Every callback is the contract's status report, as the Worker validates it.
    for (const c of callbacks) expect(v.safeParse(StatusReport, c.body).success).toBe(true);
  });

  it("reports a failed job through the callback when an input cannot be fetched", async () => {
    const final = new Promise<Callback>((r) => (onFinal = r));
    const res = await post({
      jobId: "job_fail",
      config: { clips: [{ layers: [{ type: "image", path: "/image/missing.jpg" }] }] },
      inputs: { "/image/missing.jpg": `${base}/missing.jpg` },
      output: { uploadUrl: `${base}/upload/x.mp4`, format: "mp4" },
      callbackUrl: `${base}/callback`,
    });
    expect(res.status).toBe(202);
    const cb = await final;
    expect(cb.body).toMatchObject({ jobId: "job_fail", status: "failed" });
    expect(String(cb.body.error)).toMatch(/download failed \(404\)/);
    expect(v.safeParse(StatusReport, cb.body).success).toBe(true);
  });

  it("rejects a malformed body with 400 naming the field, and an unsigned request with 401", async () => {
    const bad = await post({
      jobId: "x",
      config: { clips: [{ layers: [{ type: "pause" }] }] },
      inputs: {},
      output: { uploadUrl: "nope", format: "mp4" },
      callbackUrl: `${base}/c`,
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/output\.uploadUrl/);
    const unsigned = await fetch(`${server.url}/render/video`, { method: "POST", body: "{}" });
    expect(unsigned.status).toBe(401);
  });

  it("validates the config with the contract's grammar: 400 naming the field, fps above 120 included", async () => {
    const body = (config: unknown) => ({
      jobId: "job_bad",
      config,
      inputs: {},
      output: { uploadUrl: `${base}/upload/x.mp4`, format: "mp4" },
      callbackUrl: `${base}/callback`,
    });
    // The grammar allows JsonCut's 1..120; the renderer takes what it validates, nothing more.
    const fast = await post(body({ fps: 121, clips: [{ layers: [{ type: "pause" }] }] }));
    expect(fast.status).toBe(400);
    expect(await fast.json()).toEqual({ error: "config.fps: must be at most 120" });
    const text = await post(body({ clips: [{ layers: [{ type: "text", text: "x" }] }] }));
    expect(text.status).toBe(400);
    expect(((await text.json()) as { error: string }).error).toMatch(
      /^config\.clips\[0\]\.layers\[0\]\.type: Unknown layer type "text"/,
    );
  });

  it("answers 400 naming a file reference that inputs has no signed URL for", async () => {
    const res = await post({
      jobId: "job_missing",
      config: {
        defaults: { layer: { fontPath: "/font/2026-01-15/u1/brand.ttf" } },
        clips: [{ layers: [{ type: "title", text: "x" }] }],
      },
      inputs: {},
      output: { uploadUrl: `${base}/upload/x.mp4`, format: "mp4" },
      callbackUrl: `${base}/callback`,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'inputs: no signed URL for the file reference "/font/2026-01-15/u1/brand.ttf"',
    });
  });

  it("draws a hosted font from the request's faces, downloaded like inputs; 400 for a font without faces or a face without its URL", async () => {
    const subsets = Object.entries(fontsourceFamily("noto-sans-hebrew").subsets);
    const faces = subsets.map(([subset, unicodeRange]) => ({
      ref: `fonts/files/s/notosanshebrew/v1/${subset}-700.woff2`,
      unicodeRange,
    }));
    const inputs = Object.fromEntries(
      subsets.map(([subset], i) => [
        faces[i]!.ref,
        `${base}/fontsource/noto-sans-hebrew/${subset}/700?sig=f`,
      ]),
    );
    const body = (extra: object) => ({
      jobId: "job_hosted_font",
      config: {
        width: 160,
        height: 90,
        fps: 10,
        clips: [
          {
            duration: 1,
            layers: [
              { type: "fill-color", color: "#000000" },
              { type: "title", text: "שלום", googleFont: "Noto Sans Hebrew:700" },
            ],
          },
        ],
      },
      inputs,
      output: { uploadUrl: `${base}/upload/font.mp4`, format: "mp4" },
      callbackUrl: `${base}/callback`,
      ...extra,
    });
    const fonts = { "Noto Sans Hebrew:700": { weight: 700, faces } };
    const unfetched = await post(body({}));
    expect(unfetched.status).toBe(400);
    expect(await unfetched.json()).toEqual({
      error:
        'fonts: no faces for "Noto Sans Hebrew:700" (config.clips[0].layers[1].googleFont), which the bundled fonts do not have',
    });
    const hebrewRef = faces.find((f) => f.ref.includes("/hebrew-"))!.ref;
    const unsigned = await post(body({ fonts, inputs: { ...inputs, [hebrewRef]: undefined } }));
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toEqual({
      error: `inputs: no signed URL for the file reference "${hebrewRef}"`,
    });
    const injected = { weight: 700, faces: [{ ...faces[0]!, unicodeRange: "U+0-FF}*{color:red" }] };
    const bad = await post(body({ fonts: { "Noto Sans Hebrew:700": injected } }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe(
      "fonts.Noto Sans Hebrew:700.faces[0].unicodeRange: must be a CSS unicode-range",
    );

    const final = new Promise<Callback>((r) => (onFinal = r));
    const res = await post(body({ fonts }));
    expect(res.status).toBe(202);
    expect((await final).body).toMatchObject({ jobId: "job_hosted_font", status: "completed" });
    // Hebrew letters only: the hebrew face was downloaded, once, and no other.
    const fontDownloads = [...downloads].filter(([path]) => path.startsWith("/fontsource/"));
    expect(fontDownloads).toEqual([["/fontsource/noto-sans-hebrew/hebrew/700", 1]]);
  });
});
