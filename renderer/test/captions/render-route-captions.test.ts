/**
 * POST /render/video with autoSubtitles through the real server and the offline backend: the video and the three
 * caption files are PUT to their signed URLs with their MIME types, and the completion callback reports what was
 * heard (`metadata.captions`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { startTestServer, type TestServer } from "../helpers/start-test-server.ts";
import { startWorkerStandIn, type WorkerStandIn } from "../helpers/worker-stand-in.ts";

let server: TestServer;
let worker: WorkerStandIn;
let base: string;

beforeAll(async () => {
  server = await startTestServer({}, { tools: { ffmpeg: "5.1", ffprobe: "5.1", chromium: null } });
  worker = await startWorkerStandIn();
  base = worker.base;
});

afterAll(async () => {
  await server.close();
  await worker.close();
  await closeBrowser();
});

describe("POST /render/video with autoSubtitles", () => {
  it("stores the video, the transcript, WebVTT and SRT, and reports the backend in the callback", async () => {
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
    const cb = await worker.final("job_captions_route");
    expect(cb.status, JSON.stringify(cb)).toBe("completed");
    const captions = cb.metadata!.captions as Record<string, unknown>;
    expect(captions).toMatchObject({ backend: "pocketsphinx", language: "en", note: null });
    expect(captions.words as number).toBeGreaterThan(5);
    const puts = worker.puts;
    expect(puts.get("/out/job.mp4")?.type).toBe("video/mp4");
    expect(puts.get("/out/job.captions.vtt")).toMatchObject({ type: "text/vtt; charset=utf-8" });
    expect(puts.get("/out/job.captions.vtt")!.bytes.toString()).toMatch(/^WEBVTT\n\n1\n00:00:00\.\d{3} --> /);
    expect(puts.get("/out/job.captions.srt")).toMatchObject({ type: "application/x-subrip; charset=utf-8" });
    const transcript = JSON.parse(puts.get("/out/job.transcript.json")!.bytes.toString());
    expect(transcript).toMatchObject({ backend: "pocketsphinx", language: "en" });
    expect(transcript.words).toHaveLength(captions.words as number);
  });
});
