/**
 * Expiring download links that need no API key: `GET <origin>/api/v1/files/<id>/download?expires=&signature=`,
 * an HMAC-SHA256 over method, path and expiry (src/storage/signed-url.ts). A link lives DEFAULT_LINK_SECONDS
 * unless asked otherwise, at most MAX_LINK_SECONDS, and never past the file's own expiry.
 */
import { Forbidden } from "../lib/errors";
import { iso } from "../lib/time";
import { signPath, verifyPath } from "../storage/signed-url";
import type { FileRow } from "./store-file";

export const DEFAULT_LINK_SECONDS = 3600;
export const MIN_LINK_SECONDS = 60;
export const MAX_LINK_SECONDS = 7 * 24 * 3600;

export const downloadPath = (fileId: string) => `/api/v1/files/${encodeURIComponent(fileId)}/download`;

export const createDownloadLink = async ({
  secret,
  origin,
  row,
  expiresIn = DEFAULT_LINK_SECONDS,
  at = Date.now(),
}: {
  secret: string;
  origin: string;
  row: FileRow;
  expiresIn?: number;
  at?: number;
}) => {
  let expires = Math.floor(at / 1000) + expiresIn;
  if (row.expiresAt !== null) expires = Math.min(expires, Math.floor(row.expiresAt / 1000));
  const path = downloadPath(row.id);
  return {
    url: `${origin}${path}?${await signPath(secret, "GET", path, expires)}`,
    expiresAt: iso(expires * 1000)!,
  };
};

/** Throws 403 unless `expires`/`signature` sign GET `path` and have not expired. */
export const checkDownloadSignature = async (
  secret: string,
  path: string,
  expires: string | undefined,
  signature: string | undefined,
): Promise<void> => {
  const result = await verifyPath(secret, "GET", path, expires, signature);
  if (result === "expired") throw new Forbidden("Link expired");
  if (result !== "valid") throw new Forbidden("Invalid signature");
};
