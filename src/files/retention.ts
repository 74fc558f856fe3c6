/** How long stored files live (documented in src/files/README.md). */

/** Largest file accepted by upload and URL import (bytes). */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
/** Uploads and URL imports are deleted after this many hours unless `ttlHours` says otherwise. */
export const DEFAULT_TTL_HOURS = 24;
/** Longest `ttlHours` a client may ask for (30 days). */
export const MAX_TTL_HOURS = 720;
/** Suggested life of job outputs (7 days): set by the job side when it records an output. */
export const OUTPUT_TTL_HOURS = 168;

/** Epoch ms at which a file created at `at` expires. */
export const expiryAt = (at: number, ttlHours = DEFAULT_TTL_HOURS): number =>
  at + Math.min(Math.max(1, ttlHours), MAX_TTL_HOURS) * 3_600_000;
