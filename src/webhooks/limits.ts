/** Limits of the v2 webhooks, enforced in code and published in docs/webhooks.md. */

/** Endpoints one account may register. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 20;
/** Largest event body sent (bytes of JSON); a test event whose data would exceed it is refused with a 400. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;
/** Attempts one endpoint receives per hour; past it, deliveries wait for the next hour (nothing is dropped). */
export const MAX_ATTEMPTS_PER_HOUR = 10_000;
/**
 * The same for an account's job-callback endpoint, whose deliveries go to as many URLs as its jobs name: room for
 * every render event of the jobs an account can create in an hour (120 a minute, src/lib/rate-limit.ts) and their
 * retries.
 */
export const MAX_CALLBACK_ATTEMPTS_PER_HOUR = 50_000;
/** A receiver has this long to answer (headers and body) before the attempt fails. */
export const ATTEMPT_TIMEOUT_MS = 15_000;
/** Bytes of a receiver's answer kept on the attempt (shown by GET .../deliveries/{id}). */
export const MAX_RESPONSE_BODY_BYTES = 1024;
/** An endpoint whose every attempt failed for this long is disabled, with the reason on its record. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600_000;
/** How long the previous secret keeps signing after a rotation, unless the rotation asks otherwise. */
export const DEFAULT_ROTATION_GRACE_SECONDS = 24 * 3600;
export const MAX_ROTATION_GRACE_SECONDS = 7 * 24 * 3600;
/** Deliveries and events are kept this long, then pruned by the cron. */
export const RETENTION_MS = 30 * 24 * 3600_000;
/** Lifetime of the signed download link in a render.completed body, from the attempt that carries it. */
export const DOWNLOAD_LINK_SECONDS = 24 * 3600;
