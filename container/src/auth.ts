/**
 * Signatures between the Worker and the renderer (see the renderer contract).
 *
 * Worker -> renderer: `x-renderer-signature: v1=<hex HMAC-SHA256(secret, "<ts>.<METHOD>.<path>")>`.
 * Renderer -> Worker callback: `x-runner-signature: v1=<hex HMAC-SHA256(secret, "<ts>.<raw body>")>`.
 * The timestamp is unix seconds and is part of the signed text, so a captured request cannot be replayed
 * after the {@link MAX_SKEW_SECONDS} window.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";

/** Largest accepted |now - timestamp|, in seconds. */
export const MAX_SKEW_SECONDS = 300;

const hmacHex = (secret: string, message: string): string =>
  createHmac("sha256", secret).update(message, "utf8").digest("hex");

/** Current time in unix seconds. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/**
 * Headers that authenticate one Worker -> renderer request.
 * `path` is the URL pathname only (no query string).
 */
export function signRendererRequest(
  secret: string,
  method: string,
  path: string,
  ts: number = nowSeconds(),
): { "x-renderer-timestamp": string; "x-renderer-signature": string } {
  const signature = hmacHex(secret, `${ts}.${method.toUpperCase()}.${path}`);
  return { "x-renderer-timestamp": String(ts), "x-renderer-signature": `v1=${signature}` };
}

/** Headers that authenticate one renderer -> Worker callback whose raw JSON text is `body`. */
export function signCallback(
  secret: string,
  body: string,
  ts: number = nowSeconds(),
): { "content-type": "application/json"; "x-runner-timestamp": string; "x-runner-signature": string } {
  return {
    "content-type": "application/json",
    "x-runner-timestamp": String(ts),
    "x-runner-signature": `v1=${hmacHex(secret, `${ts}.${body}`)}`,
  };
}

/** Compares hex strings in constant time (for equal lengths; a length mismatch is already a failure). */
function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}

/** True when the timestamp/signature header pair is a valid, fresh signature of `METHOD path`. */
export function verifyRendererRequest(
  secret: string,
  method: string,
  path: string,
  timestamp: string | null | undefined,
  signature: string | null | undefined,
  now: number = nowSeconds(),
): boolean {
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
  const ts = Number(timestamp);
  if (Math.abs(now - ts) > MAX_SKEW_SECONDS) return false;
  const expected = signRendererRequest(secret, method, path, ts)["x-renderer-signature"];
  return safeEqual(signature.trim(), expected);
}

/**
 * Hono middleware answering 401 {"error":"Unauthorized"} unless the request is signed.
 * `publicRoutes` holds "METHOD /path" pairs that need no signature (GET /health).
 */
export function requireSignature(secret: string, publicRoutes: ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    // The raw pathname, exactly as the Worker signed it (Hono's c.req.path may be percent-decoded).
    const path = new URL(c.req.url).pathname;
    if (publicRoutes.has(`${c.req.method} ${path}`)) return next();
    const ok = verifyRendererRequest(
      secret,
      c.req.method,
      path,
      c.req.header("x-renderer-timestamp"),
      c.req.header("x-renderer-signature"),
    );
    if (!ok) return c.json({ error: "Unauthorized" }, 401);
    return next();
  };
}
