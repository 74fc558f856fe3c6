/**
 * Short-lived signed URLs for storage objects: HMAC-SHA256 over method, path and expiry.
 * The renderer reads inputs and writes outputs through them; users get expiring download links the same way.
 */
import { hmacHex, timingSafeEqual } from "@media-render/contract/crypto";
import { MOUNTS } from "../paths.ts";

/** Path prefix of the signed storage route (see src/storage/routes.ts). */
const STORAGE_ROUTE = MOUNTS.storage;

const message = (method: string, path: string, expires: number) =>
  `${method.toUpperCase()}\n${path}\n${expires}`;

/** Signs `method path` until `expires` (unix seconds); returns the query string to append. */
export const signPath = async (
  secret: string,
  method: string,
  path: string,
  expires: number,
): Promise<string> => `expires=${expires}&signature=${await hmacHex(secret, message(method, path, expires))}`;

/** An absolute signed URL for an R2 key, valid for `ttlSeconds`. */
export const signedStorageUrl = async (
  opts: { secret: string; baseUrl: string; method: "GET" | "PUT" },
  key: string,
  ttlSeconds: number,
  nowMs = Date.now(),
): Promise<string> => {
  const path = `${STORAGE_ROUTE}/${key}`;
  const expires = Math.floor(nowMs / 1000) + ttlSeconds;
  return `${opts.baseUrl.replace(/\/+$/, "")}${path}?${await signPath(opts.secret, opts.method, path, expires)}`;
};

export type SignatureCheck = "valid" | "expired" | "invalid";

/** Checks a presented signature for `method path`; expiry is checked after the MAC so timing says nothing. */
export const verifyPath = async (
  secret: string,
  method: string,
  path: string,
  expiresParam: string | undefined,
  signature: string | undefined,
  nowMs = Date.now(),
): Promise<SignatureCheck> => {
  const expires = Number(expiresParam);
  if (!signature || !Number.isInteger(expires)) return "invalid";
  const expected = await hmacHex(secret, message(method, path, expires));
  if (!timingSafeEqual(expected, signature.toLowerCase())) return "invalid";
  return expires * 1000 < nowMs ? "expired" : "valid";
};
