/** ffmpeg `-progress` parsing (pure) and the percent/stage model reported to the Worker. */

export type Stage = "downloading" | "transcribing" | "rendering" | "encoding" | "uploading";

/** The last `out_time_us`/`out_time_ms` value in a chunk of progress text, in seconds (both are µs in ffmpeg). */
export const lastOutTime = (text: string): number | null => {
  const re = /out_time_(?:us|ms)=(\d+)/g;
  let last: number | null = null;
  for (let match = re.exec(text); match; match = re.exec(text)) last = Number(match[1]) / 1e6;
  return last;
};

/** Overall percent: downloading 0-10, rendering+encoding 10-95 (by output time), uploading 95-100. */
export const overallPercent = (stage: Stage, fraction: number): number => {
  const x = Math.min(1, Math.max(0, fraction));
  const [lo, hi] = stage === "downloading" ? [0, 10] : stage === "uploading" ? [95, 100] : [10, 95];
  return Math.round(lo + (hi - lo) * x);
};

/** Accumulates stderr chunks (which may split lines) and yields encode progress in seconds. */
export class ProgressReader {
  private tail = "";
  /** Feeds a chunk; returns the newest output time seen in complete lines, or null. */
  push(chunk: string): number | null {
    const text = this.tail + chunk;
    const cut = text.lastIndexOf("\n");
    this.tail = cut >= 0 ? text.slice(cut + 1) : text;
    return cut >= 0 ? lastOutTime(text.slice(0, cut)) : null;
  }
}
