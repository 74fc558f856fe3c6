/**
 * Reads an incoming byte stream once: the first HEAD_BYTES are sniffed, then (when storing) everything streams
 * into R2 while being counted. Past `maxBytes` the read stops with 413 and nothing is left behind. A captions file
 * stops it sooner: past CAPTIONS_FILE_MAX_BYTES or CAPTIONS_FILE_MAX_CUES timing lines it is refused (400, naming
 * `file`), so no renderer is ever handed one it would refuse to parse.
 */
import { CAPTIONS_FILE_MAX_BYTES, CAPTIONS_FILE_MAX_CUES } from "@media-render/contract/config/limits";
import { CueCounter } from "@media-render/contract/media/caption-cues";
import { PayloadTooLarge, ValidationFailed } from "../lib/errors.ts";
import { createR2Writer, type R2Writer } from "./r2-writer.ts";
import { MoovTap, moovTracks } from "@media-render/contract/media/iso-tracks";
import { isIsoBmff, isoSniffed, sniff, type Sniffed } from "./sniff.ts";

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

/**
 * Moves a stored object to the key of its corrected kind (an ISO-BMFF file whose `moov` came after the
 * sniffed head, then showed other tracks than its brand suggested). R2 has no rename: copy, then delete.
 */
const moveObject = async (store: NonNullable<IngestOptions["store"]>, key: string, kind: Sniffed) => {
  const next = store.keyFor(kind);
  const object = await store.bucket.get(key);
  if (!object) throw new Error(`stored object ${key} vanished`);
  // Streamed through the multipart writer: a file of any size moves without being held in memory.
  const copy = createR2Writer(store.bucket, next, { httpMetadata: { contentType: kind.mimeType } });
  const reader = object.body.getReader();
  try {
    for (let part = await reader.read(); !part.done; part = await reader.read()) await copy.write(part.value);
    await copy.close();
  } catch (e) {
    await copy.abort();
    throw e;
  }
  await store.bucket.delete(key);
  return next;
};

const refused = (message: string, code: string) =>
  new ValidationFailed([{ field: "file", message, code }], "File validation failed");

/** Holds a captions file to its limits as its bytes arrive (the head, then each chunk). */
const captionsLimits = () => {
  const cues = new CueCounter();
  return (bytes: Uint8Array, size: number) => {
    if (size > CAPTIONS_FILE_MAX_BYTES)
      throw refused(
        `A captions file may be at most ${CAPTIONS_FILE_MAX_BYTES} bytes (1 MiB); this one is larger`,
        "CAPTIONS_FILE_TOO_LARGE",
      );
    if (cues.push(bytes) > CAPTIONS_FILE_MAX_CUES)
      throw refused(
        `A captions file may have at most ${CAPTIONS_FILE_MAX_CUES} cues (timing lines with -->); this one has more`,
        "TOO_MANY_CUES",
      );
  };
};

/** Consumes `stream`; on any failure a partly written object is removed. */
export const ingest = async (stream: ReadableStream<Uint8Array>, opts: IngestOptions): Promise<Ingested> => {
  const reader = stream.getReader();
  let head = new Uint8Array(0);
  let size = 0;
  let kind: Sniffed | null = null;
  let writer: R2Writer | null = null;
  let key: string | null = null;
  let sniffed = false;
  let captions: ((bytes: Uint8Array, size: number) => void) | null = null;
  const hasher = opts.digest ? new crypto.DigestStream("SHA-256") : null;
  const hashing = hasher?.getWriter();
  // ISO-BMFF is classified by its tracks, and ffmpeg writes `moov` after the media: follow the boxes.
  const tap = new MoovTap();
  let tapping = true;
  const decide = async () => {
    sniffed = true;
    kind = sniff(head);
    if (kind?.category === "captions") {
      captions = captionsLimits();
      captions(head, size);
    }
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
      if (tapping) tap.push(value, size - value.byteLength);
      if (!sniffed) {
        const next = new Uint8Array(head.length + value.length);
        next.set(head);
        next.set(value, head.length);
        head = next;
        if (head.length >= HEAD_BYTES) {
          tapping = isIsoBmff(head);
          await decide();
        }
      } else {
        (captions as ((bytes: Uint8Array, size: number) => void) | null)?.(value, size);
        if (writer) await (writer as R2Writer).write(value);
      }
    }
    if (!sniffed) await decide();
    if (writer) await (writer as R2Writer).close();
    const moov = isIsoBmff(head) ? tap.moov() : null;
    const known = kind as Sniffed | null;
    if (moov && known) {
      const byTracks = isoSniffed(head, moovTracks(moov));
      if (byTracks.mimeType !== known.mimeType) {
        kind = byTracks;
        if (key && opts.store) key = await moveObject(opts.store, key, byTracks);
      }
    }
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
