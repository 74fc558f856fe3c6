/**
 * The Workers AI speech route (production voice of `speech` layers, issue 33): signed by the renderer over the job
 * id and the body's SHA-256, only for a job being rendered; MeloTTS says the text, Whisper times its words.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "@media-render/contract/crypto";
import { signCallback, speakSigningText, TRANSCRIBE_JOB_HEADER } from "@media-render/contract/signing";
import { SPEAK_PATH } from "@media-render/contract/wire";
import worker from "../../src/index.ts";
import { openJob } from "../../src/jobs/lifecycle.ts";
import { newId } from "../../src/lib/ids.ts";
import type { Env } from "../../src/env.ts";
import { BASE, body, newAccount, testCtx } from "./helpers.ts";

const spoken = {
  width: 64,
  height: 36,
  clips: [{ duration: 3, layers: [{ type: "speech", text: "Hello world" }] }],
};

const openSpeechJob = async (userId: string) => {
  const id = newId("job");
  await openJob(testCtx(), {
    id,
    userId,
    type: "VIDEO",
    config: spoken,
    normalizedConfig: spoken,
    plan: null,
    inputFileIds: [],
    outputFormat: "mp4",
    reserve: 20,
    priority: 5,
    createdAt: Date.now(),
  });
  return id;
};

const request = async (jobId: string, payload: unknown, secret = env.RENDERER_SECRET) => {
  const raw = JSON.stringify(payload);
  const headers = await signCallback(secret, speakSigningText(jobId, await sha256Hex(raw)));
  return new Request(`${BASE}${SPEAK_PATH}`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", [TRANSCRIBE_JOB_HEADER]: jobId },
    body: raw,
  });
};
const fetchWith = (req: Request, bindings: Partial<Env> = {}) =>
  worker.fetch!(
    req as Request<unknown, IncomingRequestCfProperties>,
    { ...(env as unknown as Env), ...bindings },
    createExecutionContext(),
  );

const calls: { model: string; input: Record<string, unknown> }[] = [];
const AI = {
  run: async (model: string, input: Record<string, unknown>) => {
    calls.push({ model, input });
    if (model === "@cf/myshell-ai/melotts") return { audio: "SUQzBAAAAAAA" };
    return {
      segments: [
        {
          words: [
            { word: " Hello", start: 0.1, end: 0.5 },
            { word: "world", start: 0.6, end: 1 },
          ],
        },
      ],
    };
  },
} as unknown as Ai;

describe("the Workers AI speech route", () => {
  it("refuses a request not signed with the renderer secret, or signed over another body", async () => {
    const { userId } = await newAccount({ planId: "pro", tokens: 500 });
    const jobId = await openSpeechJob(userId);
    expect((await fetchWith(await request(jobId, { text: "hi" }, "wrong"), { AI })).status).toBe(401);
    const forged = await request(jobId, { text: "hi" });
    const tampered = new Request(forged, { body: JSON.stringify({ text: "something else" }) });
    expect((await fetchWith(tampered, { AI })).status).toBe(401);
  });

  it("says the text with MeloTTS, times it with Whisper, and answers both", async () => {
    const { userId } = await newAccount({ planId: "pro", tokens: 500 });
    const jobId = await openSpeechJob(userId);
    calls.length = 0;
    const res = await fetchWith(await request(jobId, { text: "Hello world", language: "en-GB" }), { AI });
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({
      success: true,
      data: {
        audio: "SUQzBAAAAAAA",
        words: [
          { text: "Hello", start: 0.1, end: 0.5 },
          { text: "world", start: 0.6, end: 1 },
        ],
      },
    });
    expect(calls).toEqual([
      { model: "@cf/myshell-ai/melotts", input: { prompt: "Hello world", lang: "en" } },
      { model: "@cf/openai/whisper-large-v3-turbo", input: { audio: "SUQzBAAAAAAA", language: "en" } },
    ]);
  });

  it("answers 502 without an AI binding, 400 for a bad body, and refuses a job that is not running", async () => {
    const { userId } = await newAccount({ planId: "pro", tokens: 500 });
    const jobId = await openSpeechJob(userId);
    const none = await fetchWith(await request(jobId, { text: "hi" }));
    expect(none.status).toBe(502);
    expect(await body(none)).toMatchObject({ error: "Workers AI is not configured here (no AI binding)" });
    expect((await fetchWith(await request(jobId, { text: "" }), { AI })).status).toBe(400);
    expect((await fetchWith(await request(jobId, { text: "x".repeat(5001) }), { AI })).status).toBe(400);
    const missing = await fetchWith(await request(newId("job"), { text: "hi" }), { AI });
    expect(missing.status).toBe(404);
  });
});
