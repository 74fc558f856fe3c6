/** Human-readable durations for the tools' `durationFormatted` fields. */

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** `HH:MM:SS.mmm`, or `MM:SS.mmm` under an hour (`always` forces hours, as bulk summaries use). */
export const formatDuration = (ms: number, always = false): string => {
  const total = Math.max(0, Math.round(ms));
  const millis = total % 1000;
  const seconds = Math.floor(total / 1000) % 60;
  const minutes = Math.floor(total / 60_000) % 60;
  const hours = Math.floor(total / 3_600_000);
  const tail = `${pad(minutes)}:${pad(seconds)}.${pad(millis, 3)}`;
  return hours > 0 || always ? `${pad(hours)}:${tail}` : tail;
};
