/** Formatting for people: dates, sizes, durations, money. Dates show in the browser's locale and time zone. */

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/** "27 Nov 2026, 14:05", or an em dash for none. */
export const formatDate = (iso: string | null | undefined): string =>
  iso ? dateTime.format(new Date(iso)) : "—";

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1000],
];

/** "in 23 hours", "5 minutes ago". */
export const fromNow = (iso: string, now = Date.now()): string => {
  const delta = Date.parse(iso) - now;
  for (const [unit, ms] of UNITS)
    if (Math.abs(delta) >= ms || unit === "second") return relative.format(Math.round(delta / ms), unit);
  return "";
};

/** 1536 -> "1.5 KB" (powers of 1024, as uploads are limited). */
export const formatBytes = (bytes: number | null | undefined): string => {
  if (bytes == null) return "—";
  const units = ["B", "KB", "MB", "GB"];
  let size = bytes;
  let power = 0;
  while (size >= 1024 && power < units.length - 1) {
    size /= 1024;
    power++;
  }
  return `${power === 0 ? size : size.toFixed(size < 10 ? 1 : 0)} ${units[power]}`;
};

/** 83.4 -> "1:23". */
export const formatSeconds = (seconds: number | null | undefined): string => {
  if (seconds == null) return "—";
  const rounded = Math.round(seconds);
  return `${Math.floor(rounded / 60)}:${String(rounded % 60).padStart(2, "0")}`;
};

/** 500, "usd" -> "$5.00". */
export const formatMoney = (cents: number, currency = "usd"): string =>
  new Intl.NumberFormat(undefined, { style: "currency", currency: currency.toUpperCase() }).format(
    cents / 100,
  );

export const formatNumber = (n: number): string => new Intl.NumberFormat().format(n);
