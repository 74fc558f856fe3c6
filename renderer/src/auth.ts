/**
 * The renderer's request check: every route but the public ones needs a fresh Worker signature
 * (packages/contract/src/signing.ts, the one implementation both sides use) over the method, the path with its query and
 * the body's SHA-256. A streamed, unhashed body (UNSIGNED_PAYLOAD) is accepted only on the routes listed as
 * streamed, whose sole effect is an answer to the caller.
 */
import type { MiddlewareHandler } from "hono";
import { sha256Hex } from "@media-render/contract/crypto";
import {
  RENDERER_CONTENT_HEADER,
  RENDERER_SIGNATURE_HEADER,
  RENDERER_TIMESTAMP_HEADER,
  UNSIGNED_PAYLOAD,
  verifyRendererRequest,
} from "@media-render/contract/signing";

/** Largest hashed (non-streamed) body: a render request is a validated config (1 MiB) plus signed URLs. */
export const MAX_SIGNED_BODY_BYTES = 4 * 1024 * 1024;

export interface SignaturePolicy {
  secret: string;
  /** "METHOD /path" pairs that need no signature (GET /health). */
  publicRoutes: ReadonlySet<string>;
  /** "METHOD /path" pairs whose body may be streamed unhashed (POST /probe). */
  streamedRoutes: ReadonlySet<string>;
}

const unauthorized = { error: "Unauthorized" };

/** The whole body, or null once it passes `max` bytes (chunked bodies declare no length). */
const readBounded = async (
  stream: ReadableStream<Uint8Array> | null,
  max: number,
): Promise<Uint8Array<ArrayBuffer> | null> => {
  if (!stream) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.byteLength;
    if (total > max) return null;
    chunks.push(chunk);
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
};

/** Hono middleware answering 401 {"error":"Unauthorized"} unless the request is signed. */
export const requireSignature = (policy: SignaturePolicy): MiddlewareHandler => {
  return async (context, next) => {
    // The raw pathname and query, exactly as the Worker signed them (Hono's c.req.path may be percent-decoded).
    const url = new URL(context.req.url);
    const route = `${context.req.method} ${url.pathname}`;
    if (policy.publicRoutes.has(route)) return next();
    const content = context.req.header(RENDERER_CONTENT_HEADER);
    const signed = await verifyRendererRequest(
      policy.secret,
      { method: context.req.method, target: `${url.pathname}${url.search}`, content },
      context.req.header(RENDERER_TIMESTAMP_HEADER),
      context.req.header(RENDERER_SIGNATURE_HEADER),
    );
    if (!signed) return context.json(unauthorized, 401);
    if (content === UNSIGNED_PAYLOAD) {
      if (!policy.streamedRoutes.has(route)) return context.json(unauthorized, 401);
      return next();
    }
    // A hashed body: read it (bounded), then it must be the body that was signed.
    const declared = Number(context.req.header("content-length") ?? 0);
    if (declared > MAX_SIGNED_BODY_BYTES) {
      context.header("connection", "close");
      return context.json({ error: "Request body too large" }, 413);
    }
    const body = await readBounded(context.req.raw.body, MAX_SIGNED_BODY_BYTES);
    if (!body) {
      context.header("connection", "close");
      return context.json({ error: "Request body too large" }, 413);
    }
    if ((await sha256Hex(body)) !== content) return context.json(unauthorized, 401);
    // The handlers read the very bytes that were checked, as a stream or parsed.
    const raw = context.req.raw;
    if (body.byteLength > 0)
      context.req.raw = new Request(raw.url, {
        method: raw.method,
        headers: raw.headers,
        body,
        signal: raw.signal,
      });
    return next();
  };
};
