/** Hashing and HMAC on Web Crypto, with constant-time comparison of hex digests. */

const encoder = new TextEncoder();

const toHex = (buf: ArrayBuffer): string =>
  [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** SHA-256 of a text (UTF-8) or of bytes, as lower-case hex. */
export const sha256Hex = async (data: string | Uint8Array<ArrayBuffer>): Promise<string> =>
  toHex(await crypto.subtle.digest("SHA-256", typeof data === "string" ? encoder.encode(data) : data));

const keyCache = new Map<string, Promise<CryptoKey>>();
const hmacKey = (secret: string): Promise<CryptoKey> => {
  let key = keyCache.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
    keyCache.set(secret, key);
  }
  return key;
};

/** HMAC-SHA256 of `message` under `secret`, as lower-case hex. */
export const hmacHex = async (secret: string, message: string | Uint8Array<ArrayBuffer>): Promise<string> =>
  toHex(
    await crypto.subtle.sign(
      "HMAC",
      await hmacKey(secret),
      typeof message === "string" ? encoder.encode(message) : message,
    ),
  );

/** Compares two strings without leaking where they differ. */
export const timingSafeEqual = (left: string, right: string): boolean => {
  if (left.length !== right.length) return false;
  let diff = 0;
  for (let i = 0; i < left.length; i++) diff |= left.charCodeAt(i) ^ right.charCodeAt(i);
  return diff === 0;
};

/** Bytes as base64 (with padding). */
export const toBase64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));

/** Base64 text as bytes (throws on characters outside the alphabet). */
export const fromBase64 = (text: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** A random token of `bytes` bytes, base64url without padding. */
export const randomToken = (bytes = 24): string => {
  const buf = crypto.getRandomValues(new Uint8Array(bytes));
  return toBase64(buf).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
};
