/**
 * Where files live. A file's `storageUrl` (used in job configs) is `/<category>/<YYYY-MM-DD>/<userId>/<fileId>.<ext>`;
 * its R2 key is the same path without the leading slash.
 */
export const storageUrlFor = (
  category: string,
  userId: string,
  fileId: string,
  ext: string,
  at = Date.now(),
): string =>
  `/${category}/${new Date(at).toISOString().slice(0, 10)}/${userId}/${fileId}${ext ? `.${ext}` : ""}`;

export { keyOf } from "@media-render/image-page/page-origins";
