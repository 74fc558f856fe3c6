/**
 * This test process's descendants from /proc, and a sampler of how many of them run a command and how much
 * resident memory they hold together: what a job's processes cost, measured from outside the renderer.
 */
import { readdirSync, readFileSync } from "node:fs";
import { residentBytes } from "../../src/lib/process-memory.ts";

export interface Proc {
  pid: number;
  comm: string;
  rss: number;
}

/** Every live process below `root` (default: this process), with its command name and resident bytes. */
export const descendants = (root = process.pid): Proc[] => {
  const parent = new Map<number, { ppid: number; comm: string }>();
  for (const d of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      parent.set(Number(d), { ppid: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]), comm });
    } catch {
      // the process ended while being read
    }
  }
  const below = (pid: number): boolean => {
    for (let p = parent.get(pid)?.ppid; p !== undefined && p > 1; p = parent.get(p)?.ppid)
      if (p === root) return true;
    return false;
  };
  return [...parent]
    .filter(([pid]) => below(pid))
    .map(([pid, p]) => ({ pid, comm: p.comm, rss: residentBytes(pid) ?? 0 }));
};

/** Samples descendants every `ms` until stopped: the peak resident sum and the most processes named `comm`. */
export const sampleTree = (comm: string, ms = 25) => {
  const peak = { bytes: 0, count: 0, byCommand: {} as Record<string, number> };
  const timer = setInterval(() => {
    const procs = descendants();
    const bytes = procs.reduce((n, p) => n + p.rss, 0);
    peak.count = Math.max(peak.count, procs.filter((p) => p.comm === comm).length);
    if (bytes > peak.bytes) {
      peak.bytes = bytes;
      peak.byCommand = {};
      for (const p of procs) peak.byCommand[p.comm] = (peak.byCommand[p.comm] ?? 0) + p.rss;
    }
  }, ms);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
};
