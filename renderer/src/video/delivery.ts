/**
 * Talking back to the Worker: a finished file is PUT to its signed upload URL (streamed with backpressure and its
 * Content-Length, put-file.ts), or sent in parts through the same URL when it is larger than one request may be
 * (upload-parts.ts); and status callbacks are signed with the shared secret. Progress callbacks are best effort; the final one is retried 1 s,
 * 2 s, 4 s, 8 s on network errors and 5xx (contract).
 */
import { stat } from "node:fs/promises";
import { mimeOf } from "@media-render/contract/mime";
import { signCallback } from "@media-render/contract/signing";
import type { StatusReport } from "@media-render/contract/wire";
import { putFile } from "./put-file.ts";
import {
  httpFailure,
  SINGLE_PUT_MAX_BYTES,
  UPLOAD_RETRY_DELAYS_MS,
  uploadInParts,
  withRetries,
  type PartOptions,
} from "./upload-parts.ts";

/**
 * Uploads `path` with the contract's MIME type of its format (or extension); returns its size in bytes. A file over
 * one request's limit (`parts.partBytes`, default SINGLE_PUT_MAX_BYTES) goes in parts; a smaller one in one PUT.
 * Either is retried on network errors and 5xx; an upload in parts that fails or is cancelled is aborted.
 */
export const uploadFile = async (
  url: string,
  path: string,
  format: string,
  signal?: AbortSignal,
  parts: PartOptions = {},
): Promise<number> => {
  const { size } = await stat(path);
  if (size > (parts.partBytes ?? SINGLE_PUT_MAX_BYTES))
    return uploadInParts(url, path, size, mimeOf(format), signal, parts);
  const whole = { start: 0, end: size - 1 };
  const put = () => putFile(url, path, whole, { "content-type": mimeOf(format) }, signal);
  const res = await withRetries(put, parts.retryDelaysMs ?? UPLOAD_RETRY_DELAYS_MS, signal);
  if (!res.ok) throw await httpFailure(res, "upload");
  await res.body?.cancel();
  return size;
};

/** Uploads a small text output (captions, transcript) as `ext`'s MIME type; returns its size in bytes. */
export const uploadText = async (
  url: string,
  text: string,
  ext: string,
  signal?: AbortSignal,
): Promise<number> => {
  const body = new TextEncoder().encode(text);
  const res = await fetch(url, {
    method: "PUT",
    headers: { "content-type": `${mimeOf(ext)}; charset=utf-8`, "content-length": String(body.byteLength) },
    body,
    signal,
  });
  if (!res.ok) throw new Error(`upload of the ${ext} captions failed with HTTP ${res.status}`);
  return body.byteLength;
};

/** Delays between attempts of the final callback (the first attempt is immediate). */
export const RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000];

/**
 * POSTs one signed callback carrying the contract's status report; `retries` = how many of
 * RETRY_DELAYS_MS to use after a failure.
 */
export const sendCallback = async (
  url: string,
  secret: string,
  payload: StatusReport,
  retries: number,
  sleep = delay,
): Promise<boolean> => {
  const body = JSON.stringify(payload);
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(url, { method: "POST", headers: await signCallback(secret, body), body });
      if (res.status < 500) return res.ok;
    } catch {
      // network error: retry below
    }
    if (attempt >= retries) return false;
    await sleep(RETRY_DELAYS_MS[attempt] ?? 8000);
  }
};

const delay = (ms: number): Promise<void> => {
  return new Promise((r) => setTimeout(r, ms));
};
