/** Defensive readers for untrusted config values: wrong types fall back to the default. */

/** A finite number, or `fallback`. */
export function num(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/** A finite number, or null when absent/invalid. */
export function optNum(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** A string, or `fallback`. */
export function str(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback;
}

/** A non-empty string, or null. */
export function optStr(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** A boolean, or `fallback`. */
export function bool(value: unknown, fallback: boolean): boolean {
  return typeof value === "boolean" ? value : fallback;
}

/** A plain object, or null. */
export function obj(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** Clamps `v` into [lo, hi]. */
export function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

/** Formats a number for an ffmpeg filter argument (no exponent, at most 6 decimals). */
export function f(v: number): string {
  const r = Math.round(v * 1e6) / 1e6;
  return Object.is(r, -0) ? "0" : String(r);
}
