/**
 * Standard Webhooks signing (https://www.standardwebhooks.com, the scheme Svix publishes): the secret is
 * `whsec_` + base64 of random bytes; each delivery carries `webhook-id`, `webhook-timestamp` (unix seconds) and
 * `webhook-signature`, a space-separated list of `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per secret
 * that currently signs (two during a rotation's grace period, so receivers can switch at their own pace).
 */
import { fromBase64, toBase64 } from "@media-render/contract/crypto";
import type { Env } from "../env.ts";
import { seal, unseal } from "../lib/sealed.ts";

const PREFIX = "whsec_";
const encoder = new TextEncoder();

/** A fresh signing secret: 24 random bytes (the Standard Webhooks minimum is 24, at most 64). */
const newSecret = (): string => `${PREFIX}${toBase64(crypto.getRandomValues(new Uint8Array(24)))}`;

const PURPOSE = "webhook-secret";

/**
 * A fresh secret for the endpoint `endpointId`: `plain` to answer once, `stored` (sealed to that endpoint, see
 * src/lib/sealed.ts) to write to D1. D1 never holds a signing secret in clear.
 */
export const newEndpointSecret = async (env: Pick<Env, "DATA_ENCRYPTION_KEY">, endpointId: string) => {
  const plain = newSecret();
  return { plain, stored: await seal(env.DATA_ENCRYPTION_KEY, PURPOSE, endpointId, plain) };
};

/** The signing secret of a stored (sealed) value of the endpoint `endpointId`. */
export const openEndpointSecret = (
  env: Pick<Env, "DATA_ENCRYPTION_KEY">,
  endpointId: string,
  stored: string,
): Promise<string> => unseal(env.DATA_ENCRYPTION_KEY, PURPOSE, endpointId, stored);

const keys = new Map<string, Promise<CryptoKey>>();
/** The imported key of a secret, kept for the isolate's life (an endpoint object signs every attempt with it). */
const hmacKey = (secret: string): Promise<CryptoKey> => {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size > 1000) keys.clear();
    key = crypto.subtle.importKey(
      "raw",
      fromBase64(secret.slice(PREFIX.length)),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    keys.set(secret, key);
  }
  return key;
};

/** `v1,<base64 signature>` of one message under one secret. */
export const signMessage = async (
  secret: string,
  msg: { id: string; timestamp: number; body: string },
): Promise<string> => {
  const key = await hmacKey(secret);
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${msg.id}.${msg.timestamp}.${msg.body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
};

/** The three Standard Webhooks headers of one attempt, signed by every secret in `secrets`. */
export const webhookHeaders = async (
  secrets: readonly string[],
  msg: { id: string; timestamp: number; body: string },
): Promise<Record<string, string>> => ({
  "webhook-id": msg.id,
  "webhook-timestamp": String(msg.timestamp),
  "webhook-signature": (await Promise.all(secrets.map((s) => signMessage(s, msg)))).join(" "),
});
