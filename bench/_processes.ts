/**
 * CPU time of the local service's processes, by part, read from /proc (Linux): where a load bench's CPU goes. Not a
 * bench itself (scripts/bench.mjs skips files starting with "_").
 *
 * Parts: `workerd` (the Worker, its D1, R2, queues and Durable Objects: all in workerd, so D1's SQLite work is
 * counted here too), `browsers` (the local Browser Rendering's Chromium: the image jobs' browser objects), `renderer`
 * (the renderer processes and their children), `wrangler` (wrangler's own Node process and the rest of `npm start`).
 * The machine's busy time and this process's own are read beside them, so what other work on the machine used is
 * known too, and how long each part's threads were ready to run but waited for a core (schedstat): a part that waits
 * much longer than it runs is short of CPU because the machine is, not because of its own work.
 *
 * Processes come and go (Chromium starts a renderer process per page): each is counted by its own change between two
 * samples, one that started in between by all it used, and the children a process reaped in between by its
 * children's time (cutime, cstime), so a short-lived process's CPU is not lost.
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

interface Stat {
  pid: number;
  ppid: number;
  comm: string;
  /** Ticks since boot at which it started: with the pid, names the process (pids are reused). */
  start: string;
  /** Its own user + system CPU seconds so far, and its reaped children's. */
  cpu: number;
  children: number;
}

/** A /proc stat line: the command is in parentheses and may itself hold spaces or parentheses. */
const parseStat = (line: string): Stat => {
  const open = line.indexOf("(");
  const close = line.lastIndexOf(")");
  // rest[0] is field 3 (state): utime, stime, cutime, cstime are fields 14-17, starttime field 22.
  const rest = line.slice(close + 2).split(" ");
  const f = (n: number) => Number(rest[n - 3]);
  return {
    pid: Number(line.slice(0, open)),
    comm: line.slice(open + 1, close),
    ppid: f(4),
    start: rest[22 - 3]!,
    cpu: (f(14) + f(15)) / TICKS,
    children: (f(16) + f(17)) / TICKS,
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

const allProcesses = (): Stat[] =>
  list("/proc")
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      const stat = read(`/proc/${d}/stat`);
      return stat ? [parseStat(stat)] : [];
    });

/** The part a process of the service belongs to, from its command and its ancestors'. */
const partOf = (p: Stat, byPid: Map<number, Stat>, rootPid: number): Part => {
  const cmdline = (pid: number) => (read(`/proc/${pid}/cmdline`) ?? "").replaceAll("\0", " ");
  for (let q: Stat | undefined = p; q && q.pid !== rootPid; q = byPid.get(q.ppid))
    if (q.comm === "node" && cmdline(q.pid).includes("renderer/src/server.ts")) return "renderer";
  if (p.comm === "workerd") return "workerd";
  if (/chrom|headless/i.test(p.comm)) return "browsers";
  return "wrangler";
};

/** CPU seconds and run-queue wait of each thread of `pid`, by "pid/tid". */
const threadsOf = (pid: number): Map<string, { cpu: number; waited: number }> => {
  const out = new Map<string, { cpu: number; waited: number }>();
  for (const tid of list(`/proc/${pid}/task`)) {
    const stat = read(`/proc/${pid}/task/${tid}/stat`);
    // schedstat: time on a core, time waiting on a run queue (ns), timeslices.
    const waited = Number((read(`/proc/${pid}/task/${tid}/schedstat`) ?? "0 0").split(" ")[1] ?? 0) / 1e9;
    if (stat) out.set(`${pid}/${tid}`, { cpu: parseStat(stat).cpu, waited });
  }
  return out;
};

/** Busy seconds of the whole machine (all cores together), from /proc/stat. */
const machineBusy = (): number => {
  const cpu = (read("/proc/stat") ?? "").split("\n")[0]!.split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  // idle and iowait are not busy.
  return (total - cpu[3]! - (cpu[4] ?? 0)) / TICKS;
};

interface Counted {
  part: Part;
  cpu: number;
  children: number;
  threads: Map<string, { cpu: number; waited: number }>;
}

export interface CpuSample {
  at: number;
  /** The service's processes, by "pid:start". */
  processes: Map<string, Counted>;
  /** Seconds this process (the load generator) has used. */
  self: number;
  machine: number;
}

/** The CPU the service under `rootPid` (npm start's process) has used so far, process by process. */
export const sampleCpu = (rootPid: number): CpuSample => {
  const procs = allProcesses();
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const children = new Map<number, Stat[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const processes = new Map<string, Counted>();
  const count = (p: Stat, part: Part) =>
    processes.set(`${p.pid}:${p.start}`, {
      part,
      cpu: p.cpu,
      children: p.children,
      threads: threadsOf(p.pid),
    });
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      count(child, partOf(child, byPid, rootPid));
      walk(child.pid);
    }
  };
  const root = byPid.get(rootPid);
  if (root) count(root, "wrangler");
  walk(rootPid);
  const usage = process.cpuUsage();
  return {
    at: performance.now(),
    processes,
    self: (usage.user + usage.system) / 1e6,
    machine: machineBusy(),
  };
};

export interface CpuUse {
  /** Cores each part kept busy on average (1 = one core all the time). */
  parts: Record<Part, number>;
  /** Seconds per second each part's threads waited for a core (above its cores: starved by the machine). */
  waited: Record<Part, number>;
  /** The busiest single workerd thread, in cores (near 1: the Worker's JavaScript thread is the limit). */
  workerdThread: number;
  self: number;
  /** The whole machine's busy cores, and those neither the service nor this process used (other work). */
  busy: number;
  others: number;
}

const zero = () => Object.fromEntries(PARTS.map((p) => [p, 0])) as Record<Part, number>;

/** Average cores used between two samples, and the seconds per second spent waiting for one. */
export const cpuBetween = (a: CpuSample, b: CpuSample): CpuUse => {
  const seconds = (b.at - a.at) / 1000;
  const parts = zero();
  const waited = zero();
  let workerdThread = 0;
  for (const [id, now] of b.processes) {
    const before = a.processes.get(id);
    // A process that started in between counts all it used; one present at both, its change and its reaped children's.
    parts[now.part] += now.cpu - (before?.cpu ?? 0) + (before ? now.children - before.children : 0);
    for (const [tid, t] of now.threads) {
      const was = before?.threads.get(tid);
      waited[now.part] += t.waited - (was?.waited ?? 0);
      if (now.part === "workerd") workerdThread = Math.max(workerdThread, t.cpu - (was?.cpu ?? 0));
    }
  }
  const per = (x: Record<Part, number>) =>
    Object.fromEntries(PARTS.map((p) => [p, Math.max(0, x[p]) / seconds])) as Record<Part, number>;
  const self = (b.self - a.self) / seconds;
  const busy = (b.machine - a.machine) / seconds;
  const used = per(parts);
  const ours = PARTS.reduce((sum, p) => sum + used[p], 0) + self;
  return {
    parts: used,
    waited: per(waited),
    workerdThread: workerdThread / seconds,
    self,
    busy,
    others: Math.max(0, busy - ours),
  };
};
