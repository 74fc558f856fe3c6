/** Streams a request body to disk with a size cap, so large uploads never sit in memory. */
import { createWriteStream } from "node:fs";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { PayloadTooLarge } from "./errors.ts";

/**
 * Writes `body` to a new file at `path` (fails if it exists) and resolves with the byte count.
 * Rejects with {@link PayloadTooLarge} as soon as more than `maxBytes` arrive; the partial file is
 * left for the caller's temp-dir cleanup.
 */
export const saveBody = async (
  body: ReadableStream<Uint8Array> | null,
  path: string,
  maxBytes: number,
): Promise<number> => {
  let total = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      total += chunk.length;
      if (total > maxBytes) callback(new PayloadTooLarge(maxBytes));
      else callback(null, chunk);
    },
  });
  const source = body ?? (async function* () {})();
  await pipeline(source, limiter, createWriteStream(path, { flags: "wx" }));
  return total;
};
