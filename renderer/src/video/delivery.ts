/**
 * Talking back to the Worker: the finished file is PUT to its signed upload URL (streamed, with
 * Content-Length), and status callbacks are signed with the shared secret. Progress callbacks are
 * best effort; the final one is retried 1 s, 2 s, 4 s, 8 s on network errors and 5xx (contract).
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { mimeOf } from "@media-render/contract/mime";
import { signCallback } from "@media-render/contract/signing";
import type { StatusReport } from "@media-render/contract/wire";

/** Uploads `path` with the contract's MIME type of its format (or extension); returns its size in bytes. */
export const uploadFile = async (
  url: string,
  path: string,
  format: string,
  signal?: AbortSignal,
): Promise<number> => {
  const { size } = await stat(path);
  const res = await fetch(url, {
    method: "PUT",
    headers: { "content-type": mimeOf(format), "content-length": String(size) },
    body: Readable.toWeb(createReadStream(path)) as ReadableStream,
    duplex: "half",
    signal,
  } as RequestInit);
  if (!res.ok) throw new Error(`upload failed with HTTP ${res.status}`);
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
