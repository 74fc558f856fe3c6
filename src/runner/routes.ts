/**
 * /api/v1/webhooks: the runner's status callback (HMAC-signed, no API key) and its health route.
 */
import { Hono } from "hono";
import type { AppEnv } from "../env";
import { ok } from "../lib/envelope";
import { Unauthorized, ValidationFailed } from "../lib/errors";
import { MAX_JSON_BYTES, parseOrThrow } from "../lib/validate";
import { PayloadTooLarge } from "../lib/errors";
import { applyRunnerStatus, RunnerStatusPayload } from "./job-status";
import { verifyCallback } from "./signature";

export const CALLBACK_PATH = "/api/v1/webhooks/runner/job-status";

export const runnerRoutes = new Hono<AppEnv>()
  .post("/runner/job-status", async (c) => {
    const raw = await c.req.text();
    if (raw.length > MAX_JSON_BYTES) throw new PayloadTooLarge(MAX_JSON_BYTES);
    // The signature covers the raw body, so check it before trusting anything in it.
    const signed = await verifyCallback(
      c.env.RUNNER_SECRET,
      raw,
      c.req.header("x-runner-timestamp"),
      c.req.header("x-runner-signature"),
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
    const report = parseOrThrow(RunnerStatusPayload, body);
    const applied = await applyRunnerStatus(c.env, report);
    return ok(c, { received: true, applied });
  })
  .get("/health", (c) =>
    ok(c, { status: "healthy", timestamp: new Date().toISOString(), webhookEndpoint: CALLBACK_PATH }),
  );
