/**
 * The Workers AI voice's client: a signed POST of the text to the Worker's speak route (a stand-in here), the MP3
 * it answers turned into the WAV the render mixes, at `rate` (the word times scaled to match).
 */
import { createServer, type Server } from "node:http";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "@media-render/contract/crypto";
import {
  RENDERER_SIGNATURE_HEADER,
  RENDERER_TIMESTAMP_HEADER,
  speakSigningText,
  TRANSCRIBE_JOB_HEADER,
  verifyCallback,
} from "@media-render/contract/signing";
import { run } from "../../src/lib/process.ts";
import { readWav } from "../../src/speech/pcm.ts";
import { SpeechFailed } from "../../src/speech/types.ts";
import { workersAiSynthesizer } from "../../src/speech/workers-ai.ts";

const SECRET = "test-secret";
let server: Server;
let url: string;
let dir: string;
let mp3: string;
const seen: { signed: boolean; body: unknown }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "wai-speak-"));
  const path = join(dir, "said.mp3");
  await run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=300:duration=2", "-y", path]);
  mp3 = (await readFile(path)).toString("base64");
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const job = String(req.headers[TRANSCRIBE_JOB_HEADER]);
    const signed = await verifyCallback(
      SECRET,
      speakSigningText(job, await sha256Hex(body)),
      String(req.headers[RENDERER_TIMESTAMP_HEADER]),
      String(req.headers[RENDERER_SIGNATURE_HEADER]),
    );
    seen.push({ signed, body: JSON.parse(body) });
    res.setHeader("content-type", "application/json");
    if (job === "job_broken") {
      res.statusCode = 502;
      res.end(JSON.stringify({ success: false, error: "Workers AI could not say the text" }));
      return;
    }
    const words = [
      { text: "Hello", start: 0.2, end: 0.8 },
      { text: "world", start: 1, end: 1.6 },
    ];
    res.end(JSON.stringify({ success: true, data: { audio: mp3, words } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/speak`;
}, 60_000);
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe("the Workers AI voice", () => {
  it("posts the text signed for the job and writes the answered speech as a WAV with its words", async () => {
    const out = join(dir, "a.wav");
    const speech = await workersAiSynthesizer(url, "job_1", SECRET, "ffmpeg").synthesize(
      { text: "Hello world", language: "en-GB" },
      out,
    );
    expect(seen.at(-1)).toEqual({ signed: true, body: { text: "Hello world", language: "en-GB" } });
    expect(speech.words).toEqual([
      { text: "Hello", start: 0.2, end: 0.8 },
      { text: "world", start: 1, end: 1.6 },
    ]);
    const { samples, sampleRate } = readWav(new Uint8Array(await readFile(out)));
    expect(sampleRate).toBe(22050);
    expect(speech.duration).toBeCloseTo(2, 1);
    expect(samples.length / sampleRate).toBeCloseTo(speech.duration, 6);
  }, 60_000);

  it("speeds the speech and its word times up by rate", async () => {
    const speech = await workersAiSynthesizer(url, "job_1", SECRET, "ffmpeg").synthesize(
      { text: "Hello world", rate: 2 },
      join(dir, "b.wav"),
    );
    expect(speech.duration).toBeCloseTo(1, 1);
    expect(speech.words[1]).toEqual({ text: "world", start: 0.5, end: 0.8 });
  }, 60_000);

  it("fails the job with the Worker's reason, and when the Worker cannot be reached", async () => {
    await expect(
      workersAiSynthesizer(url, "job_broken", SECRET, "ffmpeg").synthesize({ text: "x" }, join(dir, "c.wav")),
    ).rejects.toThrow(
      new SpeechFailed("speech: the speech service refused the text: Workers AI could not say the text"),
    );
    await expect(
      workersAiSynthesizer("http://127.0.0.1:9/speak", "job_1", SECRET, "ffmpeg").synthesize(
        { text: "x" },
        join(dir, "d.wav"),
      ),
    ).rejects.toThrow(new SpeechFailed("speech: the speech service could not be reached"));
  }, 60_000);
});
