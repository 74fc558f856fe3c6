/**
 * POST /render/video with autoSubtitles through the real server and the offline backend: the video and the three
 * caption files are PUT to their signed URLs with their MIME types, and the completion callback reports what was
 * heard (`metadata.captions`).
 */
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { startTestServer, type TestServer } from "../helpers/start-test-server.ts";
import { FIXTURES } from "../video/media-helpers.ts";

let server: TestServer;
let worker: Server;
let base: string;
const puts = new Map<string, { type?: string; body: string }>();
let onFinal: ((body: Record<string, unknown>) => void) | null = null;

beforeAll(async () => {
  server = await startTestServer({}, { tools: { ffmpeg: "5.1", ffprobe: "5.1", chromium: null } });
  worker = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      const path = req.url!.split("?")[0]!;
      if (req.method === "GET" && path === "/files/speech-en.wav") {
        res.end(await readFile(join(FIXTURES, "speech-en.wav")));
      } else if (req.method === "PUT") {
        puts.set(path, {
          type: req.headers["content-type"],
          body: path.endsWith(".mp4") ? "" : body.toString(),
        });
        res.end();
      } else if (req.method === "POST" && path === "/callback") {
        const cb = JSON.parse(body.toString()) as Record<string, unknown>;
        res.end("{}");
        if (cb.status !== "processing") onFinal?.(cb);
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

describe("POST /render/video with autoSubtitles", () => {
  it("stores the video, the transcript, WebVTT and SRT, and reports the backend in the callback", async () => {
    const final = new Promise<Record<string, unknown>>((r) => (onFinal = r));
    const res = await server.signedFetch("/render/video", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jobId: "job_captions_route",
        config: {
          width: 160,
          height: 90,
          fps: 10,
          clips: [{ duration: 6, layers: [{ type: "fill-color", color: "#000000" }] }],
          audioTracks: [{ path: "/audio/2026-01-15/u1/speech-en.wav", start: 0.5 }],
          autoSubtitles: true,
        },
        inputs: { "/audio/2026-01-15/u1/speech-en.wav": `${base}/files/speech-en.wav?sig=1` },
        output: {
          uploadUrl: `${base}/out/job.mp4?sig=v`,
          format: "mp4",
          captions: {
            transcript: `${base}/out/job.transcript.json?sig=t`,
            vtt: `${base}/out/job.captions.vtt?sig=c`,
            srt: `${base}/out/job.captions.srt?sig=s`,
          },
        },
        callbackUrl: `${base}/callback`,
        transcription: { backend: "pocketsphinx" },
      }),
    });
    expect(res.status).toBe(202);
    const cb = await final;
    expect(cb.status, JSON.stringify(cb)).toBe("completed");
    const captions = (cb.metadata as { captions: Record<string, unknown> }).captions;
    expect(captions).toMatchObject({ backend: "pocketsphinx", language: "en", note: null });
    expect(captions.words as number).toBeGreaterThan(5);
    expect(puts.get("/out/job.mp4")?.type).toBe("video/mp4");
    expect(puts.get("/out/job.captions.vtt")).toMatchObject({ type: "text/vtt; charset=utf-8" });
    expect(puts.get("/out/job.captions.vtt")!.body).toMatch(/^WEBVTT\n\n1\n00:00:00\.\d{3} --> /);
    expect(puts.get("/out/job.captions.srt")).toMatchObject({ type: "application/x-subrip; charset=utf-8" });
    const transcript = JSON.parse(puts.get("/out/job.transcript.json")!.body);
    expect(transcript).toMatchObject({ backend: "pocketsphinx", language: "en" });
    expect(transcript.words).toHaveLength(captions.words as number);
  });
});
