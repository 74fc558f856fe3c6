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

const uploadFixture = async (name: string) => {
  const form = new FormData();
  form.set("file", new File([readFileSync(join(fixtures, name))], name));
  const res = await api("/api/v1/files/upload", { method: "POST", body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { storageUrl: string } }).data.storageUrl;
};

type Job = {
  status: string;
  outputFileId: string | null;
  tokensUsed: number;
  errorMessage: string | null;
  progress: { percent: number; stage: string | null } | null;
};

describe("a video job, end to end through the queue, the renderer and the signed callback", () => {
  it("renders clips with a transition and audio to an mp4 that ffprobe and the eye agree on", async () => {
    const image = await uploadFixture("emoji.png");
    const audio = await uploadFixture("winxp.mp3");
    const config = {
      width: 320,
      height: 180,
      fps: 25,
      audioFilePath: audio,
      defaults: { transition: { name: "fade", duration: 0.5 } },
      clips: [
        { duration: 2, layers: [{ type: "fill-color", color: "#ff0000" }] },
        {
          duration: 2,
          layers: [
            { type: "image", path: image, zoomDirection: null, resizeMode: "contain" },
            { type: "title", text: "End" },
          ],
        },
      ],
    };
    const created = await api("/api/v1/jobs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "video", config }),
    });
    const createdBody = (await created.json()) as {
      data: { jobId: string; estimatedTokens: number };
      details?: unknown;
    };
    expect(created.status, JSON.stringify(createdBody)).toBe(201);
    // 2 + 2 - 0.5 = 3.5 s -> 10 + 2 x 4
    expect(createdBody.data.estimatedTokens).toBe(18);

    let job: Job | undefined;
    const stages = new Set<string>();
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      job = ((await (await api(`/api/v1/jobs/${createdBody.data.jobId}`)).json()) as { data: Job }).data;
      if (job.progress?.stage) stages.add(job.progress.stage);
      if (job.status === "COMPLETED" || job.status === "FAILED") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(job?.errorMessage).toBeNull();
    expect(job?.status).toBe("COMPLETED");
    expect(job?.tokensUsed).toBe(18);
    expect(stages.size).toBeGreaterThan(0);
    // The last stage the renderer reported does not outlive the job: a finished job says so.
    expect(job?.progress).toEqual({ percent: 100, stage: "completed" });

    const dl = await api(`/api/v1/files/${job!.outputFileId}/download`);
    expect(dl.status).toBe(200);
    expect(dl.headers.get("content-type")).toBe("video/mp4");
    const dir = mkdtempSync(join(tmpdir(), "mrs-e2e-video-"));
    const file = join(dir, "out.mp4");
    writeFileSync(file, new Uint8Array(await dl.arrayBuffer()));
    const probe = JSON.parse(
      execFileSync(
        "ffprobe",
        ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file],
        { encoding: "utf8" },
      ),
    ) as {
      format: { duration: string };
      streams: Array<{
        codec_type: string;
        codec_name: string;
        width?: number;
        height?: number;
        avg_frame_rate?: string;
        duration?: string;
      }>;
    };
    const video = probe.streams.find((s) => s.codec_type === "video")!;
    const sound = probe.streams.find((s) => s.codec_type === "audio");
    expect(video).toMatchObject({ codec_name: "h264", width: 320, height: 180, avg_frame_rate: "25/1" });
    expect(Math.abs(Number(probe.format.duration) - 3.5)).toBeLessThanOrEqual(0.04 + 0.03);
    expect(sound?.codec_name).toBe("aac");
    // First clip: red.
    const frame = join(dir, "f.png");
    execFileSync("ffmpeg", ["-v", "error", "-ss", "0.5", "-i", file, "-frames:v", "1", "-y", frame]);
    expect(distance(decodeImage(readFileSync(frame), 320, 180).at(10, 10), [255, 0, 0])).toBeLessThan(30);
  });
});
