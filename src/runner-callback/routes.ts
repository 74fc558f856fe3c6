/**
 * /api/v1/webhooks: the runner's status callback (HMAC-signed, no API key) and its health route.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { CALLBACK_SIGNATURE_HEADER, CALLBACK_TIMESTAMP_HEADER, verifyCallback } from "../contract/signing";
import { CALLBACK_PATH, RunnerStatus } from "../contract/wire";
import { ok } from "../lib/envelope";
import { readTextBounded } from "../lib/body";
import { Unauthorized, ValidationFailed } from "../lib/errors";
import { parseOrThrow } from "../lib/validate";
import { CALLBACK_ROUTE } from "../paths";
import { applyRunnerStatus } from "./apply-status";
import { describe } from "../docs/describe";

/** A status report is a few hundred bytes; 64 KiB leaves room for any error text. */
const MAX_CALLBACK_BYTES = 64 * 1024;

export const runnerRoutes = new Hono<AppEnv>()
  .post(CALLBACK_ROUTE, async (c) => {
    const raw = await readTextBounded(c.req.raw, MAX_CALLBACK_BYTES);
    // The signature covers the raw body, so check it before trusting anything in it.
    const signed = await verifyCallback(
      c.env.RUNNER_SECRET,
      raw,
      c.req.header(CALLBACK_TIMESTAMP_HEADER),
      c.req.header(CALLBACK_SIGNATURE_HEADER),
    );
    if (!signed) throw new Unauthorized();
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw new ValidationFailed(
        [{ field: "body", message: "Malformed JSON body", code: "INVALID_JSON" }],
        "Malformed JSON body",
      );
    }
    const applied = await applyRunnerStatus(c.var.ctx, parseOrThrow(RunnerStatus, body));
    return ok(c, { received: true, applied });
  })
  .get(
    "/health",
    describe({
      tag: "Health",
      summary: "The renderer callback's health",
      public: true,
      ok: { status: 200, description: "`status`, `timestamp`, `webhookEndpoint` (the callback's path)" },
    }),
    (c) => ok(c, { status: "healthy", timestamp: new Date().toISOString(), webhookEndpoint: CALLBACK_PATH }),
  );
