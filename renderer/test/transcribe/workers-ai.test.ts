/** The Workers AI backend's client: a signed POST of the WAV to the Worker's route, words read from its envelope. */
import { createServer, type Server } from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "@media-render/contract/crypto";
import {
  RENDERER_SIGNATURE_HEADER,
  RENDERER_TIMESTAMP_HEADER,
  TRANSCRIBE_JOB_HEADER,
  transcribeSigningText,
  verifyCallback,
} from "@media-render/contract/signing";
import { TranscriptionFailed } from "../../src/transcribe/types.ts";
import { workersAiTranscriber } from "../../src/transcribe/workers-ai.ts";

const SECRET = "test-secret";
let server: Server;
let url: string;
let dir: string;
let wav: string;
const seen: { signed: boolean; language: string | null }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "wai-"));
  wav = join(dir, "a.wav");
  await writeFile(wav, new Uint8Array([82, 73, 70, 70, 9, 9]));
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = new Uint8Array(Buffer.concat(chunks));
    const job = String(req.headers[TRANSCRIBE_JOB_HEADER]);
    const signed = await verifyCallback(
      SECRET,
      transcribeSigningText(job, await sha256Hex(body)),
      String(req.headers[RENDERER_TIMESTAMP_HEADER]),
      String(req.headers[RENDERER_SIGNATURE_HEADER]),
    );
    seen.push({ signed, language: new URL(req.url!, "http://x").searchParams.get("language") });
    res.setHeader("content-type", "application/json");
    if (job === "job_broken") {
      res.statusCode = 502;
      res.end(JSON.stringify({ success: false, error: "Workers AI could not transcribe the audio" }));
      return;
    }
    res.end(
      JSON.stringify({
        success: true,
        data: {
          language: "fr",
          words: [
            { text: "bonjour", start: 0.2, end: 0.6 },
            { text: " ", start: 0.7, end: 0.8 },
          ],
        },
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address() as { port: number };
  url = `http://127.0.0.1:${address.port}/api/v1/webhooks/runner/transcribe`;
});
afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("workers-ai transcriber", () => {
  it("posts the audio signed over the job id and its digest, with the language hint, and reads the words", async () => {
    const t = await workersAiTranscriber(url, "job_1", SECRET).transcribe(wav, { language: "fr" });
    expect(seen.at(-1)).toEqual({ signed: true, language: "fr" });
    expect(t).toEqual({
      backend: "workers-ai",
      language: "fr",
      words: [{ text: "bonjour", start: 0.2, end: 0.6 }],
    });
  });

  it("fails with the Worker's reason when the speech service refuses", async () => {
    const error = await workersAiTranscriber(url, "job_broken", SECRET)
      .transcribe(wav)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TranscriptionFailed);
    expect((error as Error).message).toBe(
      "transcription failed: the speech service refused the audio: Workers AI could not transcribe the audio",
    );
  });

  it("fails clearly when the Worker cannot be reached", async () => {
    await expect(
      workersAiTranscriber("http://127.0.0.1:9/transcribe", "job_1", SECRET).transcribe(wav),
    ).rejects.toThrow("transcription failed: the speech service could not be reached");
  });
});
