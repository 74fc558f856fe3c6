/**
 * Signatures between the Worker and the renderer (shared secret RENDERER_SECRET), one implementation for both
 * runtimes (Web Crypto):
 * - Worker -> renderer: `x-renderer-signature: v1=hex(HMAC-SHA256(secret, "<ts>.<METHOD>.<path?query>.<body sha256>"))`
 *   with the body's hex SHA-256 also sent as `x-renderer-content-sha256`, so neither the query nor the body of a
 *   captured request can be swapped. A body streamed from storage (a probe of a stored file: its hash is not known
 *   before it is sent) is signed as {@link UNSIGNED_PAYLOAD}, AWS SigV4's convention; the renderer accepts that
 *   only on routes whose sole effect is an answer to the caller (POST /probe);
 * - renderer -> Worker callback: `x-renderer-signature: v1=hex(HMAC-SHA256(secret, "<ts>.<raw body>"))`.
 * Both directions use the same two headers; their signed texts differ in shape (a request's names its method and
 * target, a callback's body is JSON, a transcription's starts `transcribe:`), so a signature made for one direction
 * authorises nothing in the other.
 * Both carry a unix-seconds timestamp header that is part of the signed text; more than
 * {@link MAX_SKEW_SECONDS} of skew is refused, so a captured request cannot be replayed later than that.
 * Several signatures may be sent space-separated (secret rotation); one valid one is enough.
 */
import { hmacHex, sha256Hex, timingSafeEqual } from "./crypto.ts";

/** Largest accepted |now - timestamp|, in seconds. */
export const MAX_SKEW_SECONDS = 300;

export const RENDERER_TIMESTAMP_HEADER = "x-renderer-timestamp";
export const RENDERER_SIGNATURE_HEADER = "x-renderer-signature";
export const RENDERER_CONTENT_HEADER = "x-renderer-content-sha256";
/** The content digest of a body that is streamed, not hashed (see above). */
export const UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
/** SHA-256 of no body. */
export const EMPTY_BODY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/** The content digest of a request body: its hex SHA-256, or {@link UNSIGNED_PAYLOAD} for a stream. */
export const contentDigest = async (
  body: string | Uint8Array<ArrayBuffer> | ReadableStream | null | undefined,
) =>
  body === null || body === undefined
    ? EMPTY_BODY_SHA256
    : body instanceof ReadableStream
      ? UNSIGNED_PAYLOAD
      : sha256Hex(body);

/** Current time in unix seconds. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

const rendererText = (ts: number, method: string, target: string, content: string) =>
  `${ts}.${method.toUpperCase()}.${target}.${content}`;
const callbackText = (ts: number, body: string) => `${ts}.${body}`;

/** What a Worker -> renderer signature covers. */
export interface RendererRequestParts {
  method: string;
  /** The URL's pathname and query (`/probe`, `/renders/job_1?force=1`), exactly as sent. */
  target: string;
  /** {@link contentDigest} of the body; no body by default. */
  content?: string;
  ts?: number;
}

/** Headers that authenticate one Worker -> renderer request. */
export const signRendererRequest = async (
  secret: string,
  { method, target, content = EMPTY_BODY_SHA256, ts = nowSeconds() }: RendererRequestParts,
): Promise<Record<string, string>> => {
  return {
    [RENDERER_TIMESTAMP_HEADER]: String(ts),
    [RENDERER_CONTENT_HEADER]: content,
    [RENDERER_SIGNATURE_HEADER]: `v1=${await hmacHex(secret, rendererText(ts, method, target, content))}`,
  };
};

/** Headers that authenticate one renderer -> Worker callback whose raw JSON text is `body`. */
export const signCallback = async (
  secret: string,
  body: string,
  ts: number = nowSeconds(),
): Promise<Record<string, string>> => {
  return {
    "content-type": "application/json",
    [RENDERER_TIMESTAMP_HEADER]: String(ts),
    [RENDERER_SIGNATURE_HEADER]: `v1=${await hmacHex(secret, callbackText(ts, body))}`,
  };
};

/** The timestamp header as unix seconds when it is well-formed and fresh, else null. */
const freshTimestamp = (timestamp: string | null | undefined, now: number): number | null => {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return null;
  const ts = Number(timestamp);
  return Math.abs(now - ts) <= MAX_SKEW_SECONDS ? ts : null;
};

/** Whether any of the space-separated `v1=` signatures equals the expected one. */
const anyMatches = (presented: string, expected: string): boolean =>
  presented
    .trim()
    .split(/\s+/)
    .some((s) => timingSafeEqual(s, expected));

/**
 * True when the headers are a valid, fresh signature of `METHOD target` with the presented content digest. The
 * caller checks that the digest is the body's (or that {@link UNSIGNED_PAYLOAD} is allowed on the route).
 */
export const verifyRendererRequest = async (
  secret: string,
  request: { method: string; target: string; content: string | null | undefined },
  timestamp: string | null | undefined,
  signature: string | null | undefined,
  now: number = nowSeconds(),
): Promise<boolean> => {
  const ts = freshTimestamp(timestamp, now);
  const { content } = request;
  if (ts === null || !signature || !content) return false;
  if (content !== UNSIGNED_PAYLOAD && !/^[0-9a-f]{64}$/.test(content)) return false;
  const expected = `v1=${await hmacHex(secret, rendererText(ts, request.method, request.target, content))}`;
  return anyMatches(signature, expected);
};

/** Header naming the job whose audio mix a transcription request carries (wire.ts TRANSCRIBE_PATH). */
export const TRANSCRIBE_JOB_HEADER = "x-renderer-job";

/**
 * The text a transcription request is signed over, as a callback whose body is this text: the audio is binary,
 * so its SHA-256 stands for it, and the job id binds the audio to the job it is charged to.
 */
export const transcribeSigningText = (jobId: string, bodySha256: string): string =>
  `transcribe:${jobId}:${bodySha256}`;

/** What the renderer signs to have a speech layer's text said (wire.ts SPEAK_PATH): the job id and the body's SHA-256. */
export const speakSigningText = (jobId: string, bodySha256: string): string => `speak:${jobId}:${bodySha256}`;

/** True when the header pair is a valid, fresh signature of the callback's raw `body`. */
export const verifyCallback = async (
  secret: string,
  body: string,
  timestamp: string | null | undefined,
  signature: string | null | undefined,
  now: number = nowSeconds(),
): Promise<boolean> => {
  const ts = freshTimestamp(timestamp, now);
  if (ts === null || !signature) return false;
  return anyMatches(signature, `v1=${await hmacHex(secret, callbackText(ts, body))}`);
};
