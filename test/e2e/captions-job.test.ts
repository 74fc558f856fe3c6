/**
 * autoSubtitles end to end: a pro-plan key, the fixture speech-en.wav uploaded and played 1 s into a 7 s video,
 * the offline backend (pocketsphinx) as `npm start` runs it. The job completes, says which backend ran, is
 * charged the captions' tokens, shows yellow captions on frames while the speech plays and none before or
 * after, and its WebVTT file downloads. A 720p one long enough to split (the suite's service splits from 5 s of
 * 720p on its two renderers) renders as two chunks and a join, with its captions on both sides of the boundary.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { decodeImage, distance } from "./pixels.ts";

const base = inject("baseUrl");
const key = inject("apiKey");
const fixtures = process.env.FIXTURES_DIR ?? join(process.cwd(), "..", "shared", "fixtures");

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, { ...init, headers: { "x-api-key": key, ...init.headers } });

type Job = {
  status: string;
  outputFileId: string | null;
  tokensUsed: number;
  errorMessage: string | null;
  captions: {
    status: string;
    backend: string | null;
    words: number;
    note: string | null;
    files: { kind: string; downloadUrl: string }[];
  } | null;
};

/** How many pixels of the frame at `t` (scaled to 320x180) are yellow in its lower half. */
const yellowBelow = (file: string, t: number, dir: string) => {
  const png = join(dir, `f-${t}.png`);
  execFileSync("ffmpeg", [
    ...["-v", "error", "-ss", String(t), "-i", file, "-frames:v", "1", "-vf", "scale=320:180", "-y", png],
  ]);
  const px = decodeImage(readFileSync(png), 320, 180);
  let n = 0;
  for (let y = 90; y < 180; y++)
    for (let x = 0; x < 320; x++) if (distance(px.at(x, y), [255, 255, 0]) < 80) n++;
  return n;
};

/** The fixture speech uploaded: its storage URL. */
const uploadSpeech = async () => {
  const form = new FormData();
  form.set("file", new File([readFileSync(join(fixtures, "speech-en.wav"))], "speech-en.wav"));
  const up = await api("/api/v1/files/upload", { method: "POST", body: form });
  expect(up.status).toBe(201);
  return ((await up.json()) as { data: { storageUrl: string } }).data.storageUrl;
};

/** The job once it ended (COMPLETED or FAILED), polled for at most 2 minutes. */
const ended = async (jobId: string): Promise<Job | undefined> => {
  let job: Job | undefined;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    job = ((await (await api(`/api/v1/jobs/${jobId}`)).json()) as { data: Job }).data;
    if (job.status === "COMPLETED" || job.status === "FAILED") break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return job;
};

/** Renders the suite's renderers have run to their end, all together (each one's /health). */
const rendersFinished = async (): Promise<number> => {
  const ports = inject("service").rendererPorts;
  const counts = await Promise.all(
    ports.map(async (port) => {
      const health = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as {
        capacity?: { finished?: number };
      };
      return health.capacity?.finished ?? 0;
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
};

describe("a video job with autoSubtitles, end to end", () => {
  it("completes with burned-in captions while the speech plays and a downloadable WebVTT file", async () => {
    const speech = await uploadSpeech();
    const config = {
      width: 320,
      height: 180,
      fps: 10,
      clips: [{ duration: 7, layers: [{ type: "fill-color", color: "#202020" }] }],
      audioTracks: [{ path: speech, start: 1 }],
      autoSubtitles: true,
      autoSubtitlesStyle: { textColor: "#ffff00", fontSize: 24 },
    };
    const created = await api("/api/v1/jobs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "video", config }),
    });
    const createdBody = (await created.json()) as { data: { jobId: string; estimatedTokens: number } };
    expect(created.status, JSON.stringify(createdBody)).toBe(201);
    // 7 s: 10 + 2 x 7, captions 5 + 7
    expect(createdBody.data.estimatedTokens).toBe(36);

    const job = await ended(createdBody.data.jobId);
    expect(job?.errorMessage).toBeNull();
    expect(job?.status).toBe("COMPLETED");
    expect(job?.tokensUsed).toBe(36);
    expect(job?.captions).toMatchObject({ status: "done", backend: "pocketsphinx", note: null });
    expect(job!.captions!.words).toBeGreaterThan(5);
    expect(job!.captions!.files.map((f) => f.kind)).toEqual(["transcript", "vtt", "srt"]);

    const vtt = await api(job!.captions!.files[1]!.downloadUrl);
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get("content-type")).toContain("text/vtt");
    const text = await vtt.text();
    expect(text).toMatch(/^WEBVTT\n/);
    expect(text).toMatch(/00:00:01\.\d{3} --> /);
    expect(text).toContain("welcome");

    const dl = await api(`/api/v1/files/${job!.outputFileId}/download`);
    const dir = mkdtempSync(join(tmpdir(), "mrs-e2e-captions-"));
    const file = join(dir, "out.mp4");
    writeFileSync(file, new Uint8Array(await dl.arrayBuffer()));
    expect(yellowBelow(file, 0.5, dir)).toBe(0);
    expect(yellowBelow(file, 2.5, dir)).toBeGreaterThan(30);
    expect(yellowBelow(file, 4.5, dir)).toBeGreaterThan(30);
    expect(yellowBelow(file, 6.5, dir)).toBe(0);
  });

  it("renders a long enough one as two chunks and a join, with its captions on both sides of the boundary", async () => {
    const speech = await uploadSpeech();
    // 6 s of 1280x720 (the suite splits from 5 s of 720p): two chunks meeting at 3 s, while the speech (1-5.6 s) plays.
    const config = {
      width: 1280,
      height: 720,
      fps: 10,
      clips: [{ duration: 6, layers: [{ type: "fill-color", color: "#202020" }] }],
      audioTracks: [{ path: speech, start: 1 }],
      autoSubtitles: true,
      autoSubtitlesStyle: { textColor: "#ffff00", fontSize: 72 },
    };
    const before = await rendersFinished();
    const created = await api("/api/v1/jobs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "video", config }),
    });
    const createdBody = (await created.json()) as { data: { jobId: string } };
    expect(created.status, JSON.stringify(createdBody)).toBe(201);
    const job = await ended(createdBody.data.jobId);
    expect(job?.errorMessage).toBeNull();
    expect(job?.status).toBe("COMPLETED");
    // Two chunks and the join, not one render.
    expect((await rendersFinished()) - before).toBe(3);
    expect(job?.captions).toMatchObject({ status: "done", backend: "pocketsphinx", note: null });
    expect(job!.captions!.words).toBeGreaterThan(5);
    const vtt = await (await api(job!.captions!.files[1]!.downloadUrl)).text();
    expect(vtt).toMatch(/^WEBVTT\n\n1\n00:00:01\.\d{3} --> /);
    expect(vtt).toContain("welcome");

    const dl = await api(`/api/v1/files/${job!.outputFileId}/download`);
    const dir = mkdtempSync(join(tmpdir(), "mrs-e2e-captions-split-"));
    const file = join(dir, "out.mp4");
    writeFileSync(file, new Uint8Array(await dl.arrayBuffer()));
    expect(yellowBelow(file, 0.5, dir)).toBe(0);
    for (const t of [2.85, 3.05]) expect(yellowBelow(file, t, dir), `at ${t} s`).toBeGreaterThan(30);
  }, 150_000);
});
