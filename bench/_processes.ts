/**
 * CPU time of the local service's processes, by part, read from /proc (Linux): where a load bench's CPU goes. Not a
 * bench itself (scripts/bench.mjs skips files starting with "_").
 *
 * Parts: `workerd` (the Worker, its D1, R2, queues and Durable Objects: all in workerd, so D1's SQLite work is
 * counted here too), `browsers` (the local Browser Rendering's Chromium: the image jobs' browser objects), `renderer`
 * (the renderer processes and their children), `wrangler` (wrangler's own Node process and the rest of `npm start`).
 * The machine's busy time and this process's own are read beside them, so what other work on the machine used is
 * known too.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

export type Part = "workerd" | "browsers" | "renderer" | "wrangler";
export const PARTS: Part[] = ["workerd", "browsers", "renderer", "wrangler"];

const TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  /** user + system CPU seconds so far. */
  cpu: number;
}

/** A /proc stat line: the command is in parentheses and may itself hold spaces or parentheses. */
const parseStat = (line: string): Omit<Proc, "pid"> & { pid: number } => {
  const open = line.indexOf("(");
  const close = line.lastIndexOf(")");
  const rest = line.slice(close + 2).split(" ");
  // rest[0] is the state (field 3); utime and stime are fields 14 and 15.
  return {
    pid: Number(line.slice(0, open)),
    comm: line.slice(open + 1, close),
    ppid: Number(rest[1]),
    cpu: (Number(rest[11]) + Number(rest[12])) / TICKS,
  };
};

const read = (path: string): string | null => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
};

const list = (path: string): string[] => {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
};

const allProcesses = (): Proc[] =>
  list("/proc")
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      const stat = read(`/proc/${d}/stat`);
      return stat ? [parseStat(stat)] : [];
    });

/** The part a process of the service belongs to, from its command and its ancestors'. */
const partOf = (p: Proc, byPid: Map<number, Proc>, rootPid: number): Part => {
  const cmdline = (pid: number) => (read(`/proc/${pid}/cmdline`) ?? "").replaceAll("\0", " ");
  for (let q: Proc | undefined = p; q && q.pid !== rootPid; q = byPid.get(q.ppid))
    if (q.comm === "node" && cmdline(q.pid).includes("renderer/src/server.ts")) return "renderer";
  if (p.comm === "workerd") return "workerd";
  if (/chrom|headless/i.test(p.comm)) return "browsers";
  return "wrangler";
};

/** The busiest thread of each workerd process: seconds so far, by thread id (a JS isolate runs on one thread). */
const workerdThreads = (pids: number[]): Map<string, number> => {
  const out = new Map<string, number>();
  for (const pid of pids)
    for (const tid of list(`/proc/${pid}/task`)) {
      const stat = read(`/proc/${pid}/task/${tid}/stat`);
      if (stat) out.set(`${pid}/${tid}`, parseStat(stat).cpu);
    }
  return out;
};

/** Busy seconds of the whole machine (all cores together), from /proc/stat. */
const machine = (): { busy: number } => {
  const cpu = (read("/proc/stat") ?? "").split("\n")[0]!.split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  // idle and iowait are not busy.
  return { busy: (total - cpu[3]! - (cpu[4] ?? 0)) / TICKS };
};

export interface CpuSample {
  at: number;
  parts: Record<Part, number>;
  threads: Map<string, number>;
  /** Seconds this process (the load generator) has used. */
  self: number;
  machine: { busy: number };
}

/** CPU seconds so far of the service under `rootPid` (npm start's process), by part. */
export const sampleCpu = (rootPid: number): CpuSample => {
  const procs = allProcesses();
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const children = new Map<number, Proc[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const parts = Object.fromEntries(PARTS.map((p) => [p, 0])) as Record<Part, number>;
  const workerd: number[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      const part = partOf(child, byPid, rootPid);
      parts[part] += child.cpu;
      if (part === "workerd") workerd.push(child.pid);
      walk(child.pid);
    }
  };
  const root = byPid.get(rootPid);
  if (root) parts.wrangler += root.cpu;
  walk(rootPid);
  const usage = process.cpuUsage();
  return {
    at: performance.now(),
    parts,
    threads: workerdThreads(workerd),
    self: (usage.user + usage.system) / 1e6,
    machine: machine(),
  };
};

export interface CpuUse {
  /** Cores each part kept busy on average (1 = one core all the time). */
  parts: Record<Part, number>;
  /** The busiest single workerd thread, in cores (near 1: the Worker's JavaScript thread is the limit). */
  workerdThread: number;
  self: number;
  /** The whole machine's busy cores, and those neither the service nor this process used (other work). */
  busy: number;
  others: number;
}

/** Average cores used between two samples. A process that ended between them is not counted (its time is lost). */
export const cpuBetween = (a: CpuSample, b: CpuSample): CpuUse => {
  const seconds = (b.at - a.at) / 1000;
  const parts = Object.fromEntries(
    PARTS.map((p) => [p, Math.max(0, b.parts[p] - a.parts[p]) / seconds]),
  ) as Record<Part, number>;
  let workerdThread = 0;
  for (const [tid, cpu] of b.threads)
    workerdThread = Math.max(workerdThread, (cpu - (a.threads.get(tid) ?? 0)) / seconds);
  const self = (b.self - a.self) / seconds;
  const busy = (b.machine.busy - a.machine.busy) / seconds;
  const ours = PARTS.reduce((sum, p) => sum + parts[p], 0) + self;
  return { parts, workerdThread, self, busy, others: Math.max(0, busy - ours) };
};
