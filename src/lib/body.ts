/**
 * Request bodies read with a bound: a declared Content-Length over the limit is refused before reading, and a
 * body without one (chunked) is counted while it streams and abandoned at the limit, so no request makes the
 * Worker hold more than `maxBytes` of it.
 */
import { PayloadTooLarge } from "./errors.ts";

export const readBytesBounded = async (request: Request, maxBytes: number): Promise<Uint8Array> => {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new PayloadTooLarge(maxBytes);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new PayloadTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
};

/** The body as UTF-8 text, bounded like readBytesBounded. */
export const readTextBounded = async (request: Request, maxBytes: number): Promise<string> =>
  new TextDecoder().decode(await readBytesBounded(request, maxBytes));
