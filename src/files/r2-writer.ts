/**
 * Writes a stream of unknown length into R2 without holding it in memory. `R2Bucket.put` needs a known
 * length, so a small file (up to one part) is sent with a single put, and a larger one becomes an R2
 * multipart upload of equal PART_BYTES parts (R2 wants all parts but the last the same size, >= 5 MiB).
 * Memory stays at about one part.
 */

export const PART_BYTES = 8 * 1024 * 1024;

export interface R2Writer {
  write(chunk: Uint8Array): Promise<void>;
  /** Finishes the object; resolves with its size. */
  close(): Promise<number>;
  /** Drops everything written (aborts a multipart upload). */
  abort(): Promise<void>;
}

export const createR2Writer = (
  bucket: R2Bucket,
  key: string,
  options: { httpMetadata?: R2HTTPMetadata; customMetadata?: Record<string, string> } = {},
  partBytes = PART_BYTES,
): R2Writer => {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let total = 0;
  let upload: R2MultipartUpload | null = null;
  const parts: R2UploadedPart[] = [];

  /** Takes exactly `count` bytes (or all, when fewer) off the front of the pending chunks. */
  const take = (count: number): Uint8Array => {
    const out = new Uint8Array(Math.min(count, pendingBytes));
    let at = 0;
    while (at < out.length) {
      const head = pending[0]!;
      const use = Math.min(head.length, out.length - at);
      out.set(head.subarray(0, use), at);
      at += use;
      if (use === head.length) pending.shift();
      else pending[0] = head.subarray(use);
    }
    pendingBytes -= out.length;
    return out;
  };

  const flushPart = async () => {
    upload ??= await bucket.createMultipartUpload(key, options);
    parts.push(await upload.uploadPart(parts.length + 1, take(partBytes)));
  };

  return {
    async write(chunk) {
      if (!chunk.length) return;
      pending.push(chunk);
      pendingBytes += chunk.length;
      total += chunk.length;
      // Keep a whole part back until more arrives, so the last part is the only short one.
      while (pendingBytes > partBytes) await flushPart();
    },
    async close() {
      if (!upload) {
        await bucket.put(key, take(pendingBytes), options);
        return total;
      }
      if (pendingBytes > 0) await flushPart();
      await upload.complete(parts);
      return total;
    },
    async abort() {
      pending = [];
      pendingBytes = 0;
      if (upload) await upload.abort().catch(() => undefined);
    },
  };
};
