/** Dates are stored as epoch milliseconds and shown as ISO 8601 strings. */
export const iso = (ms: number | null | undefined): string | null =>
  ms == null ? null : new Date(ms).toISOString();
