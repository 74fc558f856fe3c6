/**
 * POST /render/video with autoSubtitles through the real server and the offline backend: the video and the three
 * caption files are PUT to their signed URLs with their MIME types, and the completion callback reports what was
 * heard (`metadata.captions`). Split into chunks: each chunk PUTs its words file (`output.words`) and reports no
 * captions; the join reads them back (`join.words`) and writes the single render's caption files.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { startTestServer, type TestServer } from "../helpers/start-test-server.ts";
import { startWorkerStandIn, type Report, type WorkerStandIn } from "../helpers/worker-stand-in.ts";

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

const CONFIG = {
  width: 160,
  height: 90,
  fps: 10,
  clips: [{ duration: 6, layers: [{ type: "fill-color", color: "#000000" }] }],
  audioTracks: [{ path: "/audio/2026-01-15/u1/speech-en.wav", start: 0.5 }],
  autoSubtitles: true,
};

/** Posts a render of CONFIG as `jobId` (its video at /out/<jobId>.mp4 unless `output` says), with `extra` fields. */
const renderAs = async (jobId: string, extra: Record<string, unknown> = {}, output = {}) => {
  const res = await server.signedFetch("/render/video", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jobId,
      config: CONFIG,
      inputs: { "/audio/2026-01-15/u1/speech-en.wav": `${base}/files/speech-en.wav?sig=1` },
      output: { uploadUrl: `${base}/out/${jobId}.mp4?sig=v`, format: "mp4", ...output },
      callbackUrl: `${base}/callback`,
      transcription: { backend: "pocketsphinx" },
      ...extra,
    }),
  });
  expect(res.status).toBe(202);
};

const captionUrls = (name: string) => ({
  transcript: `${base}/out/${name}.transcript.json?sig=t`,
  vtt: `${base}/out/${name}.captions.vtt?sig=c`,
  srt: `${base}/out/${name}.captions.srt?sig=s`,
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

  it("as two chunks and a join: the chunks store their words, the join writes the single render's caption files", async () => {
    const ended = (chunk?: number) => (r: Report) =>
      r.jobId === "job_split" && r.chunk === chunk && r.status !== "processing";
    // One after another: the test server takes a job (or a chunk of it) of one account at a time.
    await renderAs("job_whole", {}, { captions: captionUrls("job_whole") });
    const whole = await worker.final("job_whole");
    expect(whole.status, JSON.stringify(whole)).toBe("completed");
    for (const index of [0, 1]) {
      await renderAs(
        "job_split",
        { chunk: { index, count: 2 }, attempt: 1 },
        {
          uploadUrl: `${base}/out/job_split.chunk${index}?sig=p`,
          words: `${base}/out/job_split.chunk${index}.words.json?sig=w`,
        },
      );
      const c = await worker.report(ended(index));
      expect(c.status, JSON.stringify(c)).toBe("completed");
      // A chunk's captions are only those it draws: the join reports the job's.
      expect(c.metadata!.captions).toBeUndefined();
    }
    // The 6 s mix is one part, which starts in chunk 0's frames: chunk 0 stores it, chunk 1 none.
    const words = (i: number) => worker.puts.get(`/out/job_split.chunk${i}.words.json`)!;
    expect(words(0).type).toBe("application/json; charset=utf-8");
    expect(JSON.parse(words(0).bytes.toString())).toMatchObject({
      backend: "pocketsphinx",
      parts: [{ index: 0, start: 0, end: 6, language: "en" }],
    });
    expect(JSON.parse(words(1).bytes.toString())).toEqual({ backend: "pocketsphinx", parts: [] });
    for (const i of [0, 1]) {
      worker.serve(`job_split.chunk${i}`, worker.puts.get(`/out/job_split.chunk${i}`)!.bytes);
      worker.serve(`job_split.chunk${i}.words.json`, words(i).bytes);
    }
    const files = (name: string) => [0, 1].map((i) => `${base}/files/job_split.chunk${i}${name}?sig=g`);
    await renderAs(
      "job_split",
      { attempt: 1, join: { segments: files(""), words: files(".words.json") } },
      { captions: captionUrls("job_split") },
    );
    const joined = await worker.report(ended(undefined));
    expect(joined.status, JSON.stringify(joined)).toBe("completed");
    expect(joined.metadata!.captions).toEqual(whole.metadata!.captions);
    for (const file of ["transcript.json", "captions.vtt", "captions.srt"])
      expect(worker.puts.get(`/out/job_split.${file}`)!.bytes.toString(), file).toBe(
        worker.puts.get(`/out/job_whole.${file}`)!.bytes.toString(),
      );
  }, 120_000);

  it("a join refuses a words file no chunk writes, as a fault of the service", async () => {
    worker.serve("bad.words.json", new TextEncoder().encode('{"backend":"pocketsphinx","parts":"nope"}'));
    worker.serve("bad.segment", new Uint8Array([0]));
    await renderAs(
      "job_bad_words",
      {
        join: {
          segments: [0, 1].map(() => `${base}/files/bad.segment?sig=g`),
          words: [0, 1].map(() => `${base}/files/bad.words.json?sig=g`),
        },
      },
      { captions: captionUrls("job_bad_words") },
    );
    const report = await worker.final("job_bad_words");
    expect(report).toMatchObject({ status: "failed", fault: "defect", retryable: false });
    expect(report.error).toMatch(/internal error, reference ref_/);
  }, 60_000);
});
