/** Number helpers of the filter graph. (Config values arrive typed and range-checked by the contract's grammar.) */

/** Clamps `v` into [lo, hi]. */
export const clamp = (v: number, lo: number, hi: number): number => {
  return Math.min(hi, Math.max(lo, v));
};

/** Formats a number for an ffmpeg filter argument (no exponent, at most 6 decimals). */
export const ffNumber = (value: number): string => {
  const rounded = Math.round(value * 1e6) / 1e6;
  return Object.is(rounded, -0) ? "0" : String(rounded);
};
