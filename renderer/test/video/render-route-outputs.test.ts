/**
 * POST /render/video asking for a GIF with a poster and thumbnails, and for an mp3, through the real server: each
 * file is PUT to its signed URL with its MIME type, and the completion callback reports the output (no picture
 * size for audio).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
});

const clips = [
  { duration: 1, layers: [{ type: "fill-color", color: "#ff0000" }] },
  { duration: 1, layers: [{ type: "fill-color", color: "#0000ff" }] },
];

const post = (body: Record<string, unknown>) =>
  server.signedFetch("/render/video", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ inputs: {}, callbackUrl: `${base}/callback`, ...body }),
  });

describe("POST /render/video with outputs", () => {
  it("stores a GIF, its poster, thumbnails, sprite and WebVTT at their URLs", async () => {
    const res = await post({
      jobId: "job_gif_route",
      config: {
        width: 160,
        height: 90,
        fps: 10,
        // In normal form, as the Worker sends it: the format editly's outPath names, spelled out.
        outPath: "./out.gif",
        format: "gif",
        clips,
        poster: { time: 1.5, format: "jpeg" },
        thumbnails: { count: 2, width: 32, sprite: true },
      },
      output: {
        uploadUrl: `${base}/out/g.gif?sig=v`,
        format: "gif",
        poster: `${base}/out/g.poster.jpg?sig=p`,
        thumbnails: {
          frames: [`${base}/out/g.thumb-001.jpg?sig=1`, `${base}/out/g.thumb-002.jpg?sig=2`],
          sprite: `${base}/out/g.thumbnails.jpg?sig=s`,
          vtt: `${base}/out/g.thumbnails.vtt?sig=t`,
        },
      },
    });
    expect(res.status).toBe(202);
    const cb = await worker.final("job_gif_route");
    expect(cb.status, JSON.stringify(cb)).toBe("completed");
    expect(cb.metadata).toMatchObject({ outputWidth: 160, outputHeight: 90, videoDuration: 2 });
    const puts = worker.puts;
    expect(puts.get("/out/g.gif")?.type).toBe("image/gif");
    expect(puts.get("/out/g.gif")!.bytes.subarray(0, 6).toString()).toBe("GIF89a");
    for (const path of [
      "/out/g.poster.jpg",
      "/out/g.thumb-001.jpg",
      "/out/g.thumb-002.jpg",
      "/out/g.thumbnails.jpg",
    ])
      expect(puts.get(path)?.type, path).toBe("image/jpeg");
    expect(puts.get("/out/g.thumbnails.vtt")!.bytes.toString()).toBe(
      "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\ng.thumbnails.jpg#xywh=0,0,32,18\n\n" +
        "00:00:01.000 --> 00:00:02.000\ng.thumbnails.jpg#xywh=32,0,32,18\n",
    );
  });

  it("stores an mp3 and reports its length without a picture size", async () => {
    const res = await post({
      jobId: "job_mp3_route",
      config: { format: "mp3", clips },
      output: { uploadUrl: `${base}/out/a.mp3?sig=v`, format: "mp3" },
    });
    expect(res.status).toBe(202);
    const cb = await worker.final("job_mp3_route");
    expect(cb.status, JSON.stringify(cb)).toBe("completed");
    expect(cb.metadata).toMatchObject({ videoDuration: 2 });
    expect(cb.metadata).not.toHaveProperty("outputWidth");
    expect(worker.puts.get("/out/a.mp3")?.type).toBe("audio/mpeg");
  });
});
