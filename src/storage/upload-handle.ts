/**
 * The upload id an uploader holds: R2's own upload id with the upload's layout and a nonce, sealed to its key by an
 * HMAC under STORAGE_SIGNING_SECRET. A sealed id opens only for the key it was made for, so one key's signed URL can
 * never reach another key's upload, and the layout every part is checked against cannot be changed by the holder.
 */
import { hmacHex, timingSafeEqual } from "@media-render/contract/crypto";
import { isRefusal, layoutParts, type PartLayout } from "./parts.ts";

/** An open upload: its layout, R2's upload id and the nonce its finished object carries (`customMetadata.upload`). */
export interface UploadRef extends PartLayout {
  r2Id: string;
  nonce: string;
}

// "UPLOAD" is no HTTP method, so no signed URL's message (method, path, expiry) is ever an upload's.
const message = (key: string, u: UploadRef) =>
  `UPLOAD\n${key}\n${u.size}\n${u.partSize}\n${u.nonce}\n${u.r2Id}`;

/** `v1.<size>.<partSize>.<nonce>.<mac>.<R2's id>`: R2's id last, whatever characters it holds. */
export const sealUpload = async (secret: string, key: string, u: UploadRef): Promise<string> =>
  `v1.${u.size}.${u.partSize}.${u.nonce}.${await hmacHex(secret, message(key, u))}.${u.r2Id}`;

const SEALED = /^v1\.(\d{1,12})\.(\d{1,9})\.([0-9a-f]{16})\.([0-9a-f]{64})\.(.{1,1024})$/s;

/** The upload `sealed` names if it was sealed for `key` (and a layout still allowed), else null. */
export const openUpload = async (secret: string, key: string, sealed: string): Promise<UploadRef | null> => {
  const match = SEALED.exec(sealed);
  if (!match) return null;
  const layout = layoutParts(Number(match[1]), Number(match[2]));
  if (isRefusal(layout)) return null;
  const ref = { ...layout, nonce: match[3]!, r2Id: match[5]! };
  return timingSafeEqual(await hmacHex(secret, message(key, ref)), match[4]!) ? ref : null;
};

/** A fresh nonce: 8 random bytes as hex. */
export const newNonce = (): string =>
  [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");
