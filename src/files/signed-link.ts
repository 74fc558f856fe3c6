/**
 * Expiring download links that need no API key: `GET <origin>/api/v1/files/<id>/download?expires=&signature=`,
 * an HMAC-SHA256 over method, path and expiry (src/storage/signed-url.ts). A link lives DEFAULT_LINK_SECONDS
 * unless asked otherwise, at most MAX_LINK_SECONDS, and never past the file's own expiry.
 */
import * as v from "valibot";
import type { Ctx } from "../context.ts";
import { Forbidden } from "../lib/errors.ts";
import { iso } from "../lib/time.ts";
import { downloadPath } from "../paths.ts";
import { signPath, verifyPath } from "../storage/signed-url.ts";
import type { DownloadLink } from "./serialize.ts";
import type { FileRow } from "./store-file.ts";

export const DEFAULT_LINK_SECONDS = 3600;
export const MIN_LINK_SECONDS = 60;
export const MAX_LINK_SECONDS = 7 * 24 * 3600;

export const createDownloadLink = async (
  ctx: Ctx,
  { origin, row, expiresIn = DEFAULT_LINK_SECONDS }: { origin: string; row: FileRow; expiresIn?: number },
): Promise<DownloadLink> => {
  let expires = Math.floor(ctx.now() / 1000) + expiresIn;
  if (row.expiresAt !== null) expires = Math.min(expires, Math.floor(row.expiresAt / 1000));
  const path = downloadPath(row.id);
  return {
    url: `${origin}${path}?${await signPath(ctx.env.STORAGE_SIGNING_SECRET, "GET", path, expires)}`,
    expiresAt: iso(expires * 1000)!,
  };
};

/** Throws 403 unless `expires`/`signature` sign GET `path` and have not expired. */
export const checkDownloadSignature = async (
  ctx: Ctx,
  link: { path: string; expires: string | undefined; signature: string | undefined },
): Promise<void> => {
  const result = await verifyPath(
    ctx.env.STORAGE_SIGNING_SECRET,
    "GET",
    link.path,
    link.expires,
    link.signature,
  );
  if (result === "expired") throw new Forbidden("Link expired");
  if (result !== "valid") throw new Forbidden("Invalid signature");
};

/** The body of POST /api/v1/files/{fileId}/link (and the MCP tool that makes links). */
export const LinkBody = v.object({
  expiresIn: v.optional(
    v.pipe(
      v.number("expiresIn must be a number of seconds"),
      v.integer("expiresIn must be a whole number of seconds"),
      v.minValue(MIN_LINK_SECONDS, `expiresIn must be at least ${MIN_LINK_SECONDS}`),
      v.maxValue(MAX_LINK_SECONDS, `expiresIn must be at most ${MAX_LINK_SECONDS} (7 days)`),
    ),
    DEFAULT_LINK_SECONDS,
  ),
});
