/**
 * Random access to a file's bytes for the duration parsers. The parsers read a few small pieces of a file
 * (headers, the `moov` box, a Matroska `Info` element), so a source may be an in-memory buffer, an R2 object
 * read with ranged GETs, or a local file (the benchmark).
 */

export interface ByteSource {
  /** Total size in bytes. */
  readonly size: number;
  /** Up to `length` bytes from `offset` (fewer at the end of the file, none past it). */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** A source over bytes already in memory. */
export const bufferSource = (bytes: Uint8Array): ByteSource => ({
  size: bytes.byteLength,
  read: async (offset, length) => bytes.subarray(offset, Math.min(bytes.byteLength, offset + length)),
});

/**
 * Serves reads that fall inside the first `head.length` bytes from memory and sends the rest to `source`.
 * Every parser starts at the beginning of the file, so one up-front read answers most of them.
 */
export const withHead = (source: ByteSource, head: Uint8Array): ByteSource => ({
  size: source.size,
  read: (offset, length) =>
    // The head covers the request, or the head is the whole file (a short read at its end is right).
    offset + length <= head.byteLength || head.byteLength >= source.size
      ? Promise.resolve(head.subarray(offset, Math.min(head.byteLength, offset + length)))
      : source.read(offset, length),
});

/** The part of an R2 bucket ranged reads need (keeps this module free of the Workers types). */
interface RangedBucket {
  get(
    key: string,
    options: { range: { offset: number; length: number } },
  ): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
}

/** An R2 object read with ranged GETs (each read is one request, so parsers keep them few). */
export const r2Source = (bucket: RangedBucket, key: string, size: number): ByteSource => ({
  size,
  read: async (offset, length) => {
    const len = Math.min(length, size - offset);
    if (len <= 0) return new Uint8Array(0);
    const object = await bucket.get(key, { range: { offset, length: len } });
    if (!object) throw new Error(`object ${key} disappeared while reading`);
    return new Uint8Array(await object.arrayBuffer());
  },
});
