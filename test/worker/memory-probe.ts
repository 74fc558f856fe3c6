/**
 * Global setup: a loopback server that measures the memory of the workerd processes running these tests (the
 * descendants of this vitest process, never another run's), for tests that must show a response streams
 * instead of buffering. POST /start samples their summed resident set every 10 ms; POST /stop answers
 * `{ baseline, peak }` in bytes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  interface ProvidedContext {
    memoryProbe: string;
  }
}

const stat = (pid: string) => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = text.lastIndexOf(")");
    const name = text.slice(text.indexOf("(") + 1, close);
    const ppid = text.slice(close + 2).split(" ")[1]!;
    return { name, ppid };
  } catch {
    return null;
  }
};

/** The workerd processes descended from this process (never another run's): one walk over /proc. */
const ownWorkerds = (): string[] => {
  const parent = new Map<string, { name: string; ppid: string }>();
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    const s = stat(pid);
    if (s) parent.set(pid, s);
  }
  const mine = (pid: string) => {
    for (let p: string | undefined = pid, i = 0; p && i < 20; i++, p = parent.get(p)?.ppid)
      if (p === String(process.pid)) return true;
    return false;
  };
  return [...parent].filter(([pid, s]) => s.name.startsWith("workerd") && mine(pid)).map(([pid]) => pid);
};

/** Summed VmRSS (bytes) of `pids`. */
const rss = (pids: string[]): number => {
  let total = 0;
  for (const pid of pids) {
    try {
      const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      total += Number(kb ?? 0) * 1024;
    } catch {
      // the process ended since the walk
    }
  }
  return total;
};

export default async function setup(project: TestProject) {
  let timer: NodeJS.Timeout | undefined;
  let baseline = 0;
  let peak = 0;
  let pids: string[] = [];
  const server = createServer((req, res) => {
    if (req.url === "/start") {
      clearInterval(timer);
      // The processes are found once per measurement, then only their own status is read every 10 ms: walking
      // all of /proc that often cost a busy machine more than the streaming under test.
      pids = ownWorkerds();
      baseline = peak = rss(pids);
      timer = setInterval(() => (peak = Math.max(peak, rss(pids))), 10);
      res.end(JSON.stringify({ baseline }));
    } else if (req.url === "/stop") {
      clearInterval(timer);
      peak = Math.max(peak, rss(pids));
      res.end(JSON.stringify({ baseline, peak }));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  project.provide(
    "memoryProbe",
    `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`,
  );
  return () => {
    clearInterval(timer);
    server.close();
  };
}
