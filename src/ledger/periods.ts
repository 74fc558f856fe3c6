/**
 * Periods of the monthly allowance on the free plan: calendar months, UTC (paid plans follow their paid invoices'
 * periods, src/billing/paid-invoice.ts).
 */

/** End of the calendar month (UTC) containing `at`, when a free account's monthly allowance restarts. */
export const periodEnd = (at: number): number => {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
};
