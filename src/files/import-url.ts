/**
 * Imports a public URL as a media file (source "url"): fetched through the SSRF guard (src/net), streamed
 * into R2, then sniffed, validated and measured exactly like an upload. Job creation uses it for config
 * references that are public URLs.
 */
import type { FileCategory } from "../db/schema.ts";
import type { Ctx } from "../context.ts";
import { DomainError, PayloadTooLarge, UnprocessableMedia } from "../lib/errors.ts";
import { safeFetch } from "../net/safe-fetch.ts";
import { ingest } from "./ingest.ts";
import { MAX_UPLOAD_BYTES } from "./retention.ts";
import { finalizeFile, newFileSlot, type FileRow } from "./store-file.ts";

/** The name a file imported from `url` gets: the last path segment, decoded. */
export const nameFromUrl = (url: URL): string => {
  const last = url.pathname.split("/").filter(Boolean).pop() ?? "";
  try {
    return decodeURIComponent(last) || "download";
  } catch {
    return last || "download";
  }
};

/**
 * Fetches `url` into storage for `userId`. Throws ValidationFailed (400: refused or malformed URL, content
 * that is not `expected` or does not match its name), NotFound (remote 404/410) or UnprocessableMedia
 * (remote error, timeout, too large, unreadable media).
 */
export const importFromUrl = async (
  ctx: Ctx,
  {
    userId,
    url,
    expected,
    ttlHours,
    field = "url",
    fetcher,
  }: {
    userId: string;
    url: string;
    expected?: FileCategory;
    ttlHours?: number;
    /** Field named in 400 errors, e.g. `config.layers[2].src`. */
    field?: string;
    /** Transport stand-in for tests; production uses the global fetch. */
    fetcher?: (request: Request) => Promise<Response>;
  },
): Promise<FileRow> => {
  const { env } = ctx;
  const fetched = await safeFetch(url, { maxBytes: MAX_UPLOAD_BYTES, field, fetcher });
  const slot = newFileSlot(userId, ctx.now());
  let ingested;
  try {
    ingested = await ingest(fetched.body, {
      maxBytes: MAX_UPLOAD_BYTES,
      store: { bucket: env.FILES, keyFor: slot.keyFor },
    });
  } catch (e) {
    if (e instanceof PayloadTooLarge)
      throw new UnprocessableMedia(`The remote file is larger than the ${MAX_UPLOAD_BYTES}-byte limit`);
    if (e instanceof DomainError) throw e;
    throw new UnprocessableMedia(`Reading ${fetched.url.host} failed: ${(e as Error)?.message ?? e}`);
  }
  return finalizeFile(ctx, {
    userId,
    slot,
    ingested,
    name: nameFromUrl(fetched.url),
    expected,
    ttlHours,
    source: "url",
    sourceUrl: url,
  });
};
