/**
 * /api/v1/webhooks (the spec's mount): the renderer's status callback at the spec's path (HMAC-signed, no API key),
 * its Workers AI transcription route, and the callback's health route.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { sha256Hex } from "@media-render/contract/crypto";
import {
  RENDERER_SIGNATURE_HEADER,
  RENDERER_TIMESTAMP_HEADER,
  speakSigningText,
  TRANSCRIBE_JOB_HEADER,
  transcribeSigningText,
  verifyCallback,
} from "@media-render/contract/signing";
import { CALLBACK_PATH, SpeakRequest, StatusReport } from "@media-render/contract/wire";
import { ok } from "../lib/envelope.ts";
import { readBytesBounded, readTextBounded } from "../lib/body.ts";
import { Unauthorized } from "../lib/errors.ts";
import { NoQuery, parseJsonText, parseOrThrow, queryParams } from "../lib/validate.ts";
import { CALLBACK_ROUTE, SPEAK_ROUTE, TRANSCRIBE_ROUTE } from "../paths.ts";
import { applyStatusReport } from "./apply-status.ts";
import { describe } from "../lib/openapi-route.ts";
import { CallbackHealth } from "./schemas.ts";
import { transcribeForJob } from "./transcribe.ts";
import { speakForJob } from "./speak.ts";

/** A status report is a few hundred bytes; 64 KiB leaves room for any error text. */
const MAX_CALLBACK_BYTES = 64 * 1024;
/**
 * A render posts one transcription part of the mix at a time (contract caption-parts.ts: at most ~47 s, 1.5 MB of
 * 16 kHz mono 16-bit PCM), never a whole hour (115 MB); 12 MiB is room for 6 minutes. Whisper's own limit is near 25 MB.
 */
const MAX_TRANSCRIBE_BYTES = 12 * 1024 * 1024;
/** A speech request: at most 5000 characters of text (up to 4 bytes each in UTF-8) and a language. */
const MAX_SPEAK_BYTES = 24 * 1024;

export const rendererRoutes = new Hono<AppEnv>()
  .post(CALLBACK_ROUTE, async (c) => {
    const raw = await readTextBounded(c.req.raw, MAX_CALLBACK_BYTES);
    // The signature covers the raw body, so check it before trusting anything in it.
    const signed = await verifyCallback(
      c.env.RENDERER_SECRET,
      raw,
      c.req.header(RENDERER_TIMESTAMP_HEADER),
      c.req.header(RENDERER_SIGNATURE_HEADER),
    );
    if (!signed) throw new Unauthorized();
    const applied = await applyStatusReport(c.var.ctx, parseOrThrow(StatusReport, parseJsonText(raw)));
    return ok(c, { received: true, applied });
  })
  .post(TRANSCRIBE_ROUTE, async (c) => {
    const jobId = c.req.header(TRANSCRIBE_JOB_HEADER) ?? "";
    const audio = await readBytesBounded(c.req.raw, MAX_TRANSCRIBE_BYTES);
    const signed =
      jobId.length > 0 &&
      (await verifyCallback(
        c.env.RENDERER_SECRET,
        transcribeSigningText(jobId, await sha256Hex(audio as Uint8Array<ArrayBuffer>)),
        c.req.header(RENDERER_TIMESTAMP_HEADER),
        c.req.header(RENDERER_SIGNATURE_HEADER),
      ));
    if (!signed) throw new Unauthorized();
    const language = c.req.query("language");
    return ok(c, await transcribeForJob(c.var.ctx, { jobId, audio, language }));
  })
  .post(SPEAK_ROUTE, async (c) => {
    const jobId = c.req.header(TRANSCRIBE_JOB_HEADER) ?? "";
    const raw = await readTextBounded(c.req.raw, MAX_SPEAK_BYTES);
    const signed =
      jobId.length > 0 &&
      (await verifyCallback(
        c.env.RENDERER_SECRET,
        speakSigningText(jobId, await sha256Hex(raw)),
        c.req.header(RENDERER_TIMESTAMP_HEADER),
        c.req.header(RENDERER_SIGNATURE_HEADER),
      ));
    if (!signed) throw new Unauthorized();
    const request = parseOrThrow(SpeakRequest, parseJsonText(raw));
    return ok(c, await speakForJob(c.var.ctx, { jobId, ...request }));
  })
  .get(
    "/health",
    describe({
      operationId: "getCallbackHealth",
      tag: "Health",
      summary: "The renderer callback's health",
      public: true,
      query: NoQuery,
      ok: {
        status: 200,
        description: "`status`, `timestamp`, `webhookEndpoint` (the callback's path)",
        data: CallbackHealth,
      },
      mcp: false,
    }),
    (c) => {
      queryParams(c, NoQuery);
      return ok(c, {
        status: "healthy",
        timestamp: new Date().toISOString(),
        webhookEndpoint: CALLBACK_PATH,
      } satisfies CallbackHealth);
    },
  );
