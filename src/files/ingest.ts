/**
 * Reads an incoming byte stream once: the first HEAD_BYTES are sniffed, then (when storing) everything streams
 * into R2 while being counted. Past `maxBytes` the read stops with 413 and nothing is left behind.
 */
import { PayloadTooLarge } from "../lib/errors";
import { createR2Writer, type R2Writer } from "./r2-writer";
import { sniff, type Sniffed } from "./sniff";

/** Bytes sniffed (and kept for header reads such as image sizes). */
export const HEAD_BYTES = 64 * 1024;

export interface Ingested {
  head: Uint8Array;
  kind: Sniffed | null;
  size: number;
  /** Set when the content was recognised and `store` was given: the object now exists in R2. */
  stored: { key: string } | null;
  /** Hex SHA-256 of the whole content, when asked for (`digest`): an upload's idempotency fingerprint. */
  sha256?: string;
}

export interface IngestOptions {
  maxBytes: number;
  /** Where to store a recognised file; omitted for validation only. */
  store?: { bucket: R2Bucket; keyFor: (kind: Sniffed) => string };
  /** Hash the content while it streams (workerd's DigestStream: no second pass, no buffering). */
  digest?: boolean;
}

/** Consumes `stream`; on any failure a partly written object is removed. */
export const ingest = async (stream: ReadableStream<Uint8Array>, opts: IngestOptions): Promise<Ingested> => {
  const reader = stream.getReader();
  let head = new Uint8Array(0);
  let size = 0;
  let kind: Sniffed | null = null;
  let writer: R2Writer | null = null;
  let key: string | null = null;
  let sniffed = false;
  const hasher = opts.digest ? new crypto.DigestStream("SHA-256") : null;
  const hashing = hasher?.getWriter();
  const decide = async () => {
    sniffed = true;
    kind = sniff(head);
    if (kind && opts.store) {
      key = opts.store.keyFor(kind);
      writer = createR2Writer(opts.store.bucket, key, { httpMetadata: { contentType: kind.mimeType } });
      await writer.write(head);
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > opts.maxBytes) throw new PayloadTooLarge(opts.maxBytes);
      if (hashing) await hashing.write(value);
      if (!sniffed) {
        const next = new Uint8Array(head.length + value.length);
        next.set(head);
        next.set(value, head.length);
        head = next;
        if (head.length >= HEAD_BYTES) await decide();
      } else if (writer) await (writer as R2Writer).write(value);
    }
    if (!sniffed) await decide();
    if (writer) await (writer as R2Writer).close();
  } catch (e) {
    // Cancelling with the error makes a writer feeding this stream (the multipart reader) fail with it too.
    await reader.cancel(e).catch(() => undefined);
    if (writer) await (writer as R2Writer).abort();
    if (key && opts.store) await opts.store.bucket.delete(key).catch(() => undefined);
    throw e;
  }
  let sha256: string | undefined;
  if (hashing && hasher) {
    await hashing.close();
    sha256 = [...new Uint8Array(await hasher.digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  return { head: head.subarray(0, HEAD_BYTES), kind, size, stored: key ? { key } : null, sha256 };
};
