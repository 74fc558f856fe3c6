/**
 * How much memory a job's processes hold, read from /proc (Linux; where there is no /proc nothing is measured),
 * and a watch that stops the job when they hold more than its share. The renderer spawns a job's ffmpeg runs and
 * GL helpers, so it knows their pids; it stops the job itself before the machine runs out, so a job whose own
 * demands would exhaust the memory fails as the job's fault (render-failure.ts), while an encoder killed by the
 * system while its job stayed within its share remains an infrastructure fault (handed over).
 */
import { readFileSync } from "node:fs";

/** Resident bytes of process `pid` (VmRSS: its shared libraries included), or null when it is gone. */
export const residentBytes = (pid: number): number | null => {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return null;
  }
};

/** Watches the resident memory summed over a set of processes every `intervalMs`. */
export class MemoryWatch {
  private readonly pids = new Set<number>();
  private readonly timer: NodeJS.Timeout;
  /** The largest sum seen. */
  peak = 0;

  /** `onOver(bytes)` is called once, the first time the sum exceeds `limitBytes`. */
  constructor(limitBytes: number, onOver: (bytes: number) => void, intervalMs = 250) {
    let told = false;
    this.timer = setInterval(() => {
      const bytes = this.sample();
      if (bytes > limitBytes && !told) {
        told = true;
        onOver(bytes);
      }
    }, intervalMs);
    this.timer.unref();
  }

  /** Counts process `pid` from now on (until it ends). */
  add(pid: number): void {
    this.pids.add(pid);
  }

  /** The current sum (processes that ended are forgotten); updates `peak`. */
  sample(): number {
    let sum = 0;
    for (const pid of this.pids) {
      const bytes = residentBytes(pid);
      if (bytes === null) this.pids.delete(pid);
      else sum += bytes;
    }
    this.peak = Math.max(this.peak, sum);
    return sum;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
