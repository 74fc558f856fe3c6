/**
 * Secrets the service must read back (webhook signing secrets: it signs with them) are stored sealed, not in
 * clear: AES-256-GCM under a key derived (HKDF-SHA256) from the `DATA_ENCRYPTION_KEY` secret, with the row they
 * belong to as associated data, so a copy of the database alone signs nothing and a sealed value moved to another
 * row does not open. Stored form: `sealed.v1.<base64 iv>.<base64 ciphertext+tag>`.
 *
 * Values written before sealing existed (plain `whsec_...`) still open as they are; the next rotation seals them.
 */
import { fromBase64, toBase64 } from "@media-render/contract/crypto";

const PREFIX = "sealed.v1.";
const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

/** The AES key of one purpose ("webhook-secret"), derived once per isolate. */
const aesKey = (material: string | undefined, purpose: string): Promise<CryptoKey> => {
  if (!material || material.length < 32)
    throw new Error("DATA_ENCRYPTION_KEY is not set (at least 32 characters): secrets cannot be sealed");
  const id = `${purpose}\n${material}`;
  let key = keys.get(id);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", encoder.encode(material), "HKDF", false, ["deriveKey"])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode(purpose) },
          base,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
      );
    keys.set(id, key);
  }
  return key;
};

/** Seals `plain` for the row `boundTo` (e.g. the endpoint's id). */
export const seal = async (
  material: string | undefined,
  purpose: string,
  boundTo: string,
  plain: string,
): Promise<string> => {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(boundTo) },
    await aesKey(material, purpose),
    encoder.encode(plain),
  );
  return `${PREFIX}${toBase64(iv)}.${toBase64(new Uint8Array(sealed))}`;
};

/** The plain value of a stored one (sealed, or plain from before sealing); throws if it was tampered with. */
export const unseal = async (
  material: string | undefined,
  purpose: string,
  boundTo: string,
  stored: string,
): Promise<string> => {
  if (!stored.startsWith(PREFIX)) return stored;
  const [iv, data] = stored.slice(PREFIX.length).split(".");
  const key = await aesKey(material, purpose);
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64(iv ?? ""), additionalData: encoder.encode(boundTo) },
      key,
      fromBase64(data ?? ""),
    );
    return new TextDecoder().decode(plain);
  } catch {
    throw new Error(
      `a sealed ${purpose} of ${boundTo} did not open: another DATA_ENCRYPTION_KEY, another row, or altered`,
    );
  }
};
