/**
 * POST /probe end to end: the real server on an ephemeral port, real fixtures, real ffprobe.
 * Expected durations come from a separate ffprobe call so "matches format.duration exactly" can fail.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProbeResult } from "@media-render/contract/wire";
import { run } from "../src/lib/process.ts";
import { startTestServer, type TestServer } from "./helpers/start-test-server.ts";
import { FIXTURES } from "./video/media-helpers.ts";

const NO_TOOLS = { ffmpeg: null, ffprobe: null, chromium: null };

/** format.duration as ffprobe prints it, asked in a different output format than the service uses. */
const ffprobeDuration = async (path: string): Promise<number> => {
  const { stdout } = await run("ffprobe", [
    "-v",
    "error",
    "-show_entries",
    "format=duration",
    "-of",
    "default=noprint_wrappers=1:nokey=1",
    path,
  ]);
  return Number(stdout.toString().trim());
};

let server: TestServer;
let work: string;

const probe = async (body: BodyInit, filename?: string) => {
  const headers: Record<string, string> = filename ? { "x-filename": filename } : {};
  const response = await server.signedFetch("/probe", { method: "POST", body, headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};
const probeFixture = async (name: string, filename = name) =>
  probe(await readFile(join(FIXTURES, name)), filename);

beforeAll(async () => {
  server = await startTestServer({}, { tools: NO_TOOLS });
  work = await mkdtemp(join(tmpdir(), "probe-route-test-"));
});
afterAll(async () => {
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

describe("POST /probe with real media", () => {
  it("reports the HEVC clip's size, codec, frame rate and exact duration", async () => {
    const { status, body } = await probeFixture("kohlipe3.mp4");
    expect(status).toBe(200);
    expect(body).toEqual({
      width: 600,
      height: 338,
      duration: await ffprobeDuration(join(FIXTURES, "kohlipe3.mp4")),
      formatName: "mov,mp4,m4a,3gp,3g2,mj2",
      videoCodec: "hevc",
      audioCodec: null,
      fps: 23.976,
      rotation: 0,
      hasVideo: true,
      hasAudio: false,
    });
    expect(body.duration).toBe(34.91);
    expect(v.safeParse(ProbeResult, body).success).toBe(true);
  });

  it.each([
    ["sample1.m4a", "aac", 2.024],
    ["winxp.mp3", "mp3", 4.879625],
  ])("reports %s as audio only with ffprobe's exact format duration", async (name, codec, seconds) => {
    const { status, body } = await probeFixture(name);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      width: null,
      height: null,
      audioCodec: codec,
      hasAudio: true,
      hasVideo: false,
    });
    expect(body.duration).toBe(await ffprobeDuration(join(FIXTURES, name)));
    expect(body.duration).toBe(seconds);
  });

  it.each([
    ["img2.jpg", "mjpeg", 4000, 3000],
    ["emoji.png", "png", 512, 512],
    ["overlay.svg", "svg", 596, 213],
  ])("reports the still %s with its size and no duration", async (name, codec, width, height) => {
    const { status, body } = await probeFixture(name);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      width,
      height,
      videoCodec: codec,
      duration: null,
      fps: null,
      hasVideo: false,
    });
  });

  it("detects media by content when no filename is sent", async () => {
    const { status, body } = await probe(await readFile(join(FIXTURES, "img2.jpg")));
    expect(status).toBe(200);
    expect(body).toMatchObject({ width: 4000, height: 3000, formatName: "jpeg_pipe" });
  });

  it("reports the display size of a rotated video, as ffmpeg's autorotate shows it", async () => {
    const rotated = join(work, "rotated.mp4");
    await run(
      "ffmpeg",
      ["-v", "error", "-y", "-i", join(FIXTURES, "kohlipe3.mp4"), "-t", "1", "-c", "copy"].concat([
        "-metadata:s:v:0",
        "rotate=90",
        rotated,
      ]),
    );
    const frame = join(work, "frame.png");
    await run("ffmpeg", ["-v", "error", "-y", "-i", rotated, "-frames:v", "1", frame]);
    const { stdout } = await run("ffprobe", [
      "-v",
      "error",
      "-show_entries",
      "stream=width,height",
      "-of",
      "csv=p=0",
      frame,
    ]);
    const [shownWidth, shownHeight] = stdout.toString().trim().split(",").map(Number);

    const { status, body } = await probe(await readFile(rotated), "rotated.mp4");
    expect(status).toBe(200);
    expect([body.width, body.height]).toEqual([shownWidth, shownHeight]);
    expect(body).toMatchObject({ width: 338, height: 600, rotation: 270 });
  });

  it("answers parallel probes independently", async () => {
    const results = await Promise.all([probeFixture("winxp.mp3"), probeFixture("kohlipe3.mp4")]);
    expect(results.map((r) => r.body.duration)).toEqual([4.879625, 34.91]);
  });
});

describe("POST /probe with input ffprobe cannot read", () => {
  it("answers 422 for random bytes, without leaking the server's temp path", async () => {
    const { status, body } = await probe(randomBytes(300_000), "upload.bin");
    expect(status).toBe(422);
    // Random bytes are usually no format at all; now and then ffprobe's guess names one (once: lrc lyrics) that
    // the service does not read. Either answer is a 422 that names no path of the server's.
    expect(Object.keys(body)).toEqual(["error"]);
    expect(body.error).toMatch(
      /^Unreadable media: (Invalid data found when processing input|the file is \w+, not a picture, video or sound this service reads)$/,
    );
  });

  it("answers 422 for text, even when its name would select ffprobe's tty demuxer", async () => {
    const { status, body } = await probeFixture("README.md", "notes.txt");
    expect(status).toBe(422);
    expect(String(body.error)).toMatch(/^Unreadable media/);
  });

  it("answers 422 for a corrupt .jpg that ffprobe 'reads' without a size", async () => {
    const { status, body } = await probe(randomBytes(5_000), "photo.jpg");
    expect(status).toBe(422);
    expect(body).toEqual({ error: "No audio or video stream found" });
  });

  it("answers 422 for zeros named .mp3, which ffprobe 'reads' as a stream with no sample rate", async () => {
    const { status, body } = await probe(new Uint8Array(1_000_000), "song.mp3");
    expect(status).toBe(422);
    expect(body).toEqual({ error: "No audio or video stream found" });
  });

  it("answers 422 for an empty body", async () => {
    const { status } = await probe(new Uint8Array(0));
    expect(status).toBe(422);
  });
});

describe("POST /probe size limit", () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startTestServer({ probeMaxBytes: 64 * 1024 }, { tools: NO_TOOLS });
  });
  afterAll(() => small?.close());

  it("answers 413 for a declared Content-Length over the limit", async () => {
    const response = await small.signedFetch("/probe", {
      method: "POST",
      body: await readFile(join(FIXTURES, "img2.jpg")),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "Body exceeds the limit of 65536 bytes" });
  });

  it("answers 413 for a chunked body that grows past the limit while streaming", async () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 8 * 1024 * 1024) return controller.close();
        sent += 16 * 1024;
        controller.enqueue(new Uint8Array(16 * 1024));
      },
    });
    const response = await small.signedFetch("/probe", {
      method: "POST",
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "Body exceeds the limit of 65536 bytes" });
  });

  it("accepts a body exactly at the limit", async () => {
    const atLimit = Buffer.concat([
      await readFile(join(FIXTURES, "emoji.png")),
      Buffer.alloc(64 * 1024),
    ]).subarray(0, 64 * 1024);
    const response = await small.signedFetch("/probe", {
      method: "POST",
      body: atLimit,
      headers: { "x-filename": "e.png" },
    });
    expect(response.status).not.toBe(413);
  });
});

describe("POST /probe temp files", () => {
  it("leaves nothing behind after successes, failures and oversize bodies", async () => {
    await probeFixture("winxp.mp3");
    await probe(randomBytes(1000));
    expect(await readdir(server.config.tmpDir)).toEqual([]);
  });
});
