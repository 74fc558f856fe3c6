/**
 * A file's bytes PUT to a URL with backpressure, each chunk let go once the socket took it. fetch cannot do this:
 * undici keeps every chunk of a streamed request body until the request ends (nodejs/undici#4058; measured here,
 * Node 24.21: 256 MiB to a reader taking 40 MB/s peaked at +300 MB of the sender's RSS, +50 MB through node:http
 * with `pipeline`; 36 of 48 MiB sent, 38 MB still held after a collection, test/video/upload-parts.test.ts).
 */
import { createReadStream } from "node:fs";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** Statuses whose answer has no body (a Response refuses one). */
const NULL_BODY = new Set([204, 205, 304]);

const toResponse = (res: IncomingMessage): Response => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  const status = res.statusCode ?? 502;
  if (NULL_BODY.has(status)) res.resume();
  const body = NULL_BODY.has(status) ? null : (Readable.toWeb(res) as ReadableStream);
  return new Response(body, { status, headers });
};

/**
 * PUTs bytes `start` to `end` (both included; none when `end` < `start`) of `path` to `url`, with
 * `headers` and its exact Content-Length; resolves with the answer as soon as it arrives (a refusal may come before
 * the body is sent), rejects on a network error or when `signal` aborts.
 */
export const putFile = (
  url: string,
  path: string,
  range: { start: number; end: number },
  headers: Record<string, string>,
  signal?: AbortSignal,
): Promise<Response> =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(target, {
      method: "PUT",
      headers: { ...headers, "content-length": String(range.end - range.start + 1) },
      signal,
    });
    req.once("response", (res) => resolve(toResponse(res)));
    // A connection lost after the whole body was written fails only the request, not the pipeline: both reject. After
    // an answer, a body cut short (the server refused it early) is no failure: the answer says what happened.
    req.once("error", reject);
    if (range.end < range.start) req.end();
    else pipeline(createReadStream(path, range), req).catch(reject);
  });
