/**
 * Streams a stored file from R2 with the headers download clients expect: Content-Type, Content-Length,
 * Content-Disposition, ETag (304 on If-None-Match), Accept-Ranges and single byte ranges (206/416,
 * If-Range honoured). HEAD answers the same headers without a body.
 */
import type { Ctx } from "../context.ts";
import { errorBody } from "../lib/envelope.ts";
import { NotFound } from "../lib/errors.ts";
import { visibleFileName } from "../lib/file-name.ts";
import { INERT_FILE_HEADERS } from "../storage/inert-headers.ts";
import { etagMatches, parseRange } from "./range.ts";
import type { FileRow } from "./store-file.ts";

/**
 * `attachment` with an ASCII fallback name and the UTF-8 name (RFC 6266), both as the user's file system will show
 * them: controls replaced, bidirectional overrides and other invisible format characters dropped (visibleFileName).
 */
export const contentDisposition = (stored: string): string => {
  const name = visibleFileName(stored) || "download";
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return ascii === name
    ? `attachment; filename="${name}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
};

export const serveFile = async (ctx: Ctx, row: FileRow, request: Request): Promise<Response> => {
  const bucket = ctx.env.FILES;
  const meta = await bucket.head(row.storageKey);
  if (!meta) throw new NotFound("File");
  const headers = new Headers({
    "content-type": row.mimeType,
    "content-disposition": contentDisposition(row.originalName),
    etag: meta.httpEtag,
    "accept-ranges": "bytes",
    "last-modified": meta.uploaded.toUTCString(),
    "cache-control": "private, max-age=0, must-revalidate",
    ...INERT_FILE_HEADERS,
  });
  if (etagMatches(request.headers.get("if-none-match"), meta.httpEtag))
    return new Response(null, { status: 304, headers });

  const ifRange = request.headers.get("if-range");
  const range =
    ifRange && ifRange.trim() !== meta.httpEtag ? null : parseRange(request.headers.get("range"), meta.size);
  if (range === "unsatisfiable") {
    headers.set("content-range", `bytes */${meta.size}`);
    headers.set("content-type", "application/json");
    headers.delete("content-disposition");
    return new Response(JSON.stringify(errorBody("Requested range not satisfiable", { size: meta.size })), {
      status: 416,
      headers,
    });
  }
  const head = request.method === "HEAD";
  if (range) {
    const length = range.end - range.start + 1;
    headers.set("content-range", `bytes ${range.start}-${range.end}/${meta.size}`);
    headers.set("content-length", String(length));
    if (head) return new Response(null, { status: 206, headers });
    const object = await bucket.get(row.storageKey, { range: { offset: range.start, length } });
    if (!object) throw new NotFound("File");
    return new Response(object.body, { status: 206, headers });
  }
  headers.set("content-length", String(meta.size));
  if (head) return new Response(null, { status: 200, headers });
  const object = await bucket.get(row.storageKey);
  if (!object) throw new NotFound("File");
  return new Response(object.body, { status: 200, headers });
};
