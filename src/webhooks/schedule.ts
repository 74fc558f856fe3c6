/**
 * The retry schedule, held as data, and the pure decisions of the endpoint object: when the next attempt is due
 * after a failure, and whether the hourly attempt budget allows another one now.
 */

/**
 * Delay before each attempt of a round, from the failure of the one before (the first is immediate): the
 * Standard Webhooks / Svix schedule, eight attempts over about 27.5 hours. After the last, the delivery is
 * dead-lettered; a replay starts a new round.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
];

/** Each retry delay is spread by up to +-20% so endpoints that failed together do not retry together. */
export const JITTER = 0.2;
/** A receiver's Retry-After is honoured up to this long (the schedule's longest gap). */
export const MAX_RETRY_AFTER_MS = 10 * 3600_000;

/**
 * Milliseconds of a Retry-After header (RFC 9110 section 10.2.3: delay-seconds or an HTTP-date), or null when
 * absent or unparseable.
 */
export const parseRetryAfter = (value: string | null, now: number): number | null => {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
};

/**
 * When the next attempt of a round is due after attempt `made` (1-based within the round) failed, or null when
 * the round is over (dead letter). A Retry-After longer than the scheduled delay wins, capped at
 * MAX_RETRY_AFTER_MS; a shorter one is ignored (the schedule already spaces attempts out).
 */
export const nextAttemptAt = (
  made: number,
  now: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number | null => {
  const base = RETRY_SCHEDULE_MS[made];
  if (base === undefined) return null;
  const jittered = Math.round(base * (1 + JITTER * (2 * random() - 1)));
  const asked = retryAfterMs === null ? 0 : Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  return now + Math.max(jittered, asked);
};

/** A fixed hourly window of attempts: whether one more fits now, else when the window reopens. */
export const budget = (
  window: { start: number; count: number },
  now: number,
  max: number,
  windowMs = 3600_000,
): { allowed: true; window: { start: number; count: number } } | { allowed: false; until: number } => {
  const current = now - window.start >= windowMs ? { start: now, count: 0 } : window;
  if (current.count >= max) return { allowed: false, until: current.start + windowMs };
  return { allowed: true, window: { start: current.start, count: current.count + 1 } };
};
