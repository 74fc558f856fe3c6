/**
 * Fetches a user-supplied URL through the SSRF guard: every hop of a redirect chain is checked again
 * (redirects are followed by hand, at most MAX_REDIRECTS), the whole exchange has a deadline, the body is
 * counted as it streams and cut off past `maxBytes`, and an HTML page is refused before its body is read.
 */
import { NotFound, UnprocessableMedia, ValidationFailed } from "../lib/errors.ts";
import { parseIpv4 } from "./ip-ranges.ts";
import { resolutionRefusal } from "./resolve.ts";
import { checkUrl } from "./url-guard.ts";

export const MAX_REDIRECTS = 5;
export const DEFAULT_TIMEOUT_MS = 20_000;

export interface SafeFetchOptions {
  /** Largest body accepted; a longer one fails while streaming. */
  maxBytes: number;
  timeoutMs?: number;
  /**
   * The transport, for the fetches and the DNS-over-HTTPS lookups alike; tests pass a stand-in that serves both
   * (miniflare reaches private addresses, and there is no internet here).
   */
  fetcher?: (request: Request) => Promise<Response>;
  /** Field name used in 400 errors (`url`, `config.layers[0].src`). */
  field?: string;
}

export interface Fetched {
  /** The final URL after redirects. */
  url: URL;
  contentType: string | null;
  /** Declared length, when the server sent one. */
  length: number | null;
  /** The body, counted: it errors with UnprocessableMedia once more than `maxBytes` arrive. */
  body: ReadableStream<Uint8Array>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const tooLarge = (max: number) =>
  new UnprocessableMedia(`The remote file is larger than the ${max}-byte limit`);

/** Counts the body; `done` runs when it ends either way (the deadline's timer is then cleared). */
const countingStream = (max: number, done: () => void) => {
  let seen = 0;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > max) {
        done();
        controller.error(tooLarge(max));
      } else controller.enqueue(chunk);
    },
    flush: done,
  });
};

/**
 * A signal that aborts after `ms`, with a way to stop its timer once the exchange is over: a Worker may hold only
 * so many active timers (10,000), and AbortSignal.timeout's stays active for its whole span.
 */
const deadline = (ms: number) => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException("timed out", "TimeoutError")), ms);
  return { signal: controller.signal, done: () => clearTimeout(timer) };
};

/** 400 when `url`'s name resolves to an address the guard refuses (IP literals were judged by checkUrl). */
const refuseUnlessPublic = async (
  url: URL,
  send: (request: Request) => Promise<Response>,
  signal: AbortSignal,
  field: string,
) => {
  const host = url.hostname.replace(/\.$/, "");
  if (host.startsWith("[") || parseIpv4(host) !== null) return;
  const refusal = await resolutionRefusal(host, send, signal);
  if (refusal)
    throw new ValidationFailed(
      [{ field, message: `URL not allowed: ${refusal}`, code: "URL_NOT_ALLOWED" }],
      "URL not allowed",
    );
};

/** GETs `raw` safely; throws ValidationFailed (refused URL), NotFound (404/410) or UnprocessableMedia. */
export const safeFetch = async (raw: string, opts: SafeFetchOptions): Promise<Fetched> => {
  const send = opts.fetcher ?? ((r: Request) => fetch(r));
  const { signal, done } = deadline(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    return await follow(raw, opts, send, signal, done);
  } catch (e) {
    done();
    throw e;
  }
};

const follow = async (
  raw: string,
  opts: SafeFetchOptions,
  send: (request: Request) => Promise<Response>,
  signal: AbortSignal,
  done: () => void,
): Promise<Fetched> => {
  let url = checkUrl(raw, opts.field);
  for (let hop = 0; ; hop++) {
    await refuseUnlessPublic(url, send, signal, opts.field ?? "url");
    let res: Response;
    try {
      res = await send(new Request(url, { redirect: "manual", signal, headers: { accept: "*/*" } }));
    } catch (e) {
      const timedOut = signal.aborted;
      throw new UnprocessableMedia(
        timedOut ? `Fetching ${url.host} timed out` : `Fetching ${url.host} failed: ${(e as Error).message}`,
      );
    }
    if (REDIRECTS.has(res.status)) {
      await res.body?.cancel();
      const location = res.headers.get("location");
      if (!location) throw new UnprocessableMedia(`${url.host} answered a redirect without a Location`);
      if (hop >= MAX_REDIRECTS)
        throw new UnprocessableMedia(`Too many redirects (more than ${MAX_REDIRECTS})`);
      url = checkUrl(new URL(location, url).toString(), opts.field);
      continue;
    }
    if (res.status === 404 || res.status === 410) {
      await res.body?.cancel();
      throw new NotFound("Remote file");
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new UnprocessableMedia(`Fetching ${url.host} failed with status ${res.status}`);
    }
    const contentType = res.headers.get("content-type");
    if (contentType && /^(text\/html|application\/xhtml\+xml)\b/i.test(contentType)) {
      await res.body.cancel();
      throw new UnprocessableMedia(
        `The URL returned a web page (${contentType.split(";")[0]}), not a media file`,
      );
    }
    const declared = res.headers.get("content-length");
    const length = declared !== null && /^\d+$/.test(declared) ? Number(declared) : null;
    if (length !== null && length > opts.maxBytes) {
      await res.body.cancel();
      throw tooLarge(opts.maxBytes);
    }
    return { url, contentType, length, body: res.body.pipeThrough(countingStream(opts.maxBytes, done)) };
  }
};

/** Reads a fetched body into memory (it is already bounded by `maxBytes`). */
export const readBody = async (fetched: Fetched): Promise<Uint8Array> => {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = fetched.body.getReader();
  for (;;) {
    let part: ReadableStreamReadResult<Uint8Array>;
    try {
      part = await reader.read();
    } catch (e) {
      if (e instanceof UnprocessableMedia) throw e;
      throw new UnprocessableMedia(`Reading ${fetched.url.host} failed: ${(e as Error)?.message ?? e}`);
    }
    if (part.done) break;
    chunks.push(part.value);
    total += part.value.byteLength;
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) out.set(chunk, (at += chunk.byteLength) - chunk.byteLength);
  return out;
};
