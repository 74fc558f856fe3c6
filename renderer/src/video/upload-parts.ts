/**
 * A file too large for one request goes to storage in parts, through the same signed PUT URL (the Worker's
 * src/storage/README.md, "Uploads in parts"): `POST ?uploads&size=` starts the upload and answers its layout, each
 * part is `PUT ?uploadId=&partNumber=` streamed from the file with its own Content-Length (put-file.ts), and `POST ?uploadId=` with
 * every part's etag completes it. Parts go a few at a time, each request retried on network errors and 5xx; when the
 * upload fails or is cancelled, it is aborted (`DELETE ?uploadId=`) so no part is left behind.
 */
import { setTimeout as sleep } from "node:timers/promises";
import * as v from "valibot";
import { putFile } from "./put-file.ts";

/**
 * The largest body the Worker takes in one request (its MAX_BODY_BYTES, src/storage/parts.ts, below the platform's
 * 100 MB): a larger file goes in parts.
 */
export const SINGLE_PUT_MAX_BYTES = 64 * 2 ** 20;

/** Waits before the retries of a request that failed on the network or with a 5xx (the first attempt is at once). */
export const UPLOAD_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000];

export interface PartOptions {
  /**
   * Parts of this many bytes, and a file up to it in one PUT (default: the Worker's part size for files over
   * SINGLE_PUT_MAX_BYTES). Tests use R2's smallest part, 5 MiB.
   */
  partBytes?: number;
  /** Parts in flight at once (default 3: enough to hide each request's round trips, few enough to share a link). */
  concurrency?: number;
  /** Waits before each retry (default UPLOAD_RETRY_DELAYS_MS). */
  retryDelaysMs?: readonly number[];
}

/** Part `partNumber` is the file's bytes `start` to `end`, both included (pure). */
export const partRanges = (size: number, partSize: number) =>
  Array.from({ length: Math.ceil(size / partSize) }, (_, i) => ({
    partNumber: i + 1,
    start: i * partSize,
    end: Math.min(size, (i + 1) * partSize) - 1,
  }));

/**
 * `send()` until it answers below 500 or the delays run out, waiting `delays[i]` before retry i (aborted with
 * `signal`); the last answer, or the last network error thrown.
 */
export const withRetries = async (
  send: () => Promise<Response>,
  delays: readonly number[],
  signal?: AbortSignal,
): Promise<Response> => {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await send();
      if (res.status < 500 || attempt >= delays.length) return res;
      await res.body?.cancel();
    } catch (error) {
      if (signal?.aborted || attempt >= delays.length) throw error;
    }
    await sleep(delays[attempt], undefined, { signal });
  }
};

/** "`what` failed with HTTP <status>: <the envelope's error>" (STORAGE_DOWN in render-failure.ts reads the status). */
export const httpFailure = async (res: Response, what: string): Promise<Error> => {
  const text = await res.text().catch(() => "");
  let reason = "";
  try {
    reason = String((JSON.parse(text) as { error?: unknown }).error ?? "");
  } catch {
    // not the envelope: the status says enough
  }
  return new Error(`${what} failed with HTTP ${res.status}${reason ? `: ${reason.slice(0, 300)}` : ""}`);
};

const answer = <S extends v.GenericSchema>(schema: S) => v.object({ success: v.literal(true), data: schema });
const Started = answer(
  v.object({
    uploadId: v.string(),
    partSize: v.pipe(v.number(), v.safeInteger(), v.minValue(1)),
    parts: v.pipe(v.number(), v.safeInteger(), v.minValue(1)),
  }),
);
const Part = answer(v.object({ partNumber: v.number(), etag: v.string() }));
const Completed = answer(v.object({ size: v.number() }));

const withQuery = (url: string, query: Record<string, string>): string => {
  const parsed = new URL(url);
  for (const [name, value] of Object.entries(query)) parsed.searchParams.set(name, value);
  return parsed.href;
};

/** Best effort: the upload's parts deleted, whatever happened to the job (its own signal may be aborted). */
const abortUpload = async (url: string, delays: readonly number[]) => {
  const signal = AbortSignal.timeout(30_000);
  await withRetries(() => fetch(url, { method: "DELETE", signal }), delays.slice(0, 2), signal)
    .then((res) => res.body?.cancel())
    .catch(() => {});
};

/** Uploads the `size` bytes of `path` in parts (see the file's comment); returns `size` once stored. */
export const uploadInParts = async (
  url: string,
  path: string,
  size: number,
  contentType: string,
  signal?: AbortSignal,
  options: PartOptions = {},
): Promise<number> => {
  const delays = options.retryDelaysMs ?? UPLOAD_RETRY_DELAYS_MS;
  const query: Record<string, string> = { uploads: "", size: String(size) };
  if (options.partBytes) query.partSize = String(options.partBytes);
  const res = await withRetries(
    () => fetch(withQuery(url, query), { method: "POST", headers: { "content-type": contentType }, signal }),
    delays,
    signal,
  );
  if (!res.ok) throw await httpFailure(res, "upload start");
  const { uploadId, partSize, parts } = v.parse(Started, await res.json()).data;
  const stop = new AbortController();
  const inFlight = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  try {
    const ranges = partRanges(size, partSize);
    if (ranges.length !== parts) throw new Error(`upload layout of ${parts} parts, not ${ranges.length}`);
    const etags: string[] = [];
    let next = 0;
    let failure: unknown;
    const sendParts = async () => {
      while (next < ranges.length && !inFlight.aborted) {
        const { partNumber, start, end } = ranges[next++]!;
        const partUrl = withQuery(url, { uploadId, partNumber: String(partNumber) });
        const put = () => putFile(partUrl, path, { start, end }, {}, inFlight);
        const stored = await withRetries(put, delays, inFlight);
        if (!stored.ok) throw await httpFailure(stored, `upload of part ${partNumber} of ${parts}`);
        etags[partNumber - 1] = v.parse(Part, await stored.json()).data.etag;
      }
    };
    // The first failure stops the others (their requests aborted); all settle before the upload is aborted.
    const workers = Array.from({ length: Math.min(options.concurrency ?? 3, parts) }, () =>
      sendParts().catch((error: unknown) => {
        failure ??= error;
        stop.abort();
      }),
    );
    await Promise.all(workers);
    if (failure !== undefined) throw failure;
    const completion = JSON.stringify({ parts: etags.map((etag, i) => ({ partNumber: i + 1, etag })) });
    const done = await withRetries(
      () =>
        fetch(withQuery(url, { uploadId }), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: completion,
          signal,
        }),
      delays,
      signal,
    );
    if (!done.ok) throw await httpFailure(done, "upload completion");
    const stored = v.parse(Completed, await done.json()).data.size;
    if (stored !== size) throw new Error(`the stored output is ${stored} bytes, not ${size}`);
    return size;
  } catch (error) {
    stop.abort();
    await abortUpload(withQuery(url, { uploadId }), delays);
    throw error;
  }
};
