/** Billing periods of the free plan: calendar months, UTC (paid plans follow their paid invoices' periods). */

/** End of the calendar month (UTC) containing `at`, when a free account's monthly allowance restarts. */
export const periodEnd = (at: number): number => {
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};

/**
 * How long a paid plan outlives its paid period without a paid invoice before it lapses to the free plan (the
 * provider's retries of a failed renewal happen within it; Stripe's default schedule retries for up to 2 weeks).
 */
export const LAPSE_GRACE_MS = 30 * 24 * 3600_000;
