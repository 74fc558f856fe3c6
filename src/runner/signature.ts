/**
 * HMAC signatures between the Worker and the renderer (shared secret RUNNER_SECRET).
 * - Worker -> renderer: `x-renderer-signature: v1=hex(HMAC(secret, "<ts>.<METHOD>.<path>"))`.
 * - Renderer -> Worker callback: `x-runner-signature: v1=hex(HMAC(secret, "<ts>.<raw body>"))`.
 * Both carry a unix-seconds timestamp header; more than 5 minutes of skew is refused (replay window).
 */
import { hmacHex, timingSafeEqual } from "../lib/crypto";

export const MAX_SKEW_SECONDS = 300;

export const signRendererRequest = async (secret: string, method: string, path: string, ts: number) =>
  `v1=${await hmacHex(secret, `${ts}.${method.toUpperCase()}.${path}`)}`;

export const signCallback = async (secret: string, body: string, ts: number) =>
  `v1=${await hmacHex(secret, `${ts}.${body}`)}`;

/** Verifies a callback's signature headers against its raw body. */
export const verifyCallback = async (
  secret: string,
  body: string,
  timestamp: string | undefined,
  signature: string | undefined,
  nowMs = Date.now(),
): Promise<boolean> => {
  const ts = Number(timestamp);
  if (!signature || !Number.isInteger(ts) || Math.abs(nowMs / 1000 - ts) > MAX_SKEW_SECONDS) return false;
  const expected = await signCallback(secret, body, ts);
  // Several signatures may be sent space-separated during secret rotation.
  return signature.split(" ").some((s) => timingSafeEqual(s, expected));
};
