/** Limits of output destinations, enforced in code and published in docs/destinations.md. */

/** Storage connections one account may hold. */
export const MAX_CONNECTIONS_PER_ACCOUNT = 20;
/** Destinations one job may name. */
export const MAX_DESTINATIONS_PER_JOB = 5;
/** Characters of a key template (the connection's or a destination's own `key`). */
export const MAX_TEMPLATE_LENGTH = 512;
/**
 * UTF-8 bytes of an output's object key: S3 allows 1,024, and the job's other files take the key with a suffix of
 * their own (`.thumbnails.vtt`, `.thumb-100.jpeg`: at most 24 bytes), so the output's key keeps that much room.
 */
export const MAX_KEY_BYTES = 1000;

/** Attempts per delivery: the first right after the job completes, then one after each delay. */
export const RETRY_DELAYS_SECONDS = [10, 60, 300, 1800] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
/**
 * How long an attempt holds its delivery: past it, a new attempt may take the delivery over (its worker died). A
 * queue consumer runs at most 15 minutes.
 */
export const LEASE_MS = 15 * 60_000;

/** Files larger than this go up as a multipart upload, in parts of PART_BYTES (the last one shorter). */
export const MULTIPART_THRESHOLD_BYTES = 64 * 1024 * 1024;
export const PART_BYTES = 16 * 1024 * 1024;
/** An S3 request without a body (or a part's answer) must answer within this, plus a second per MiB it sends. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** Bytes of an error answer read for its `<Code>` and `<Message>`. */
export const MAX_ERROR_BODY_BYTES = 8 * 1024;
