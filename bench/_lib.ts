/**
 * What every benchmark shares: the conditions it ran under, and interleaved repetition until the spread of a
 * ratio is known. Not a bench itself (scripts/bench.mjs skips files starting with "_").
 *
 * A figure from a shared 2-core machine is only worth repeating with its conditions and its spread, so each
 * bench prints `conditions()` before and `loadNow()` after, and reports ratios as `spread()` over pairs that
 * ran back to back (each pair sees the same machine), never a best run.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { DEFAULT_RENDER_TOOLS } from "../renderer/src/settings.ts";
import { cpuTimes } from "../renderer/src/lib/cpu-time.ts";
import { glEnv } from "../renderer/src/video/gl/native-gl.ts";

const firstLine = (cmd: string, args: string[], env?: Record<string, string>): string => {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], env })
      .split("\n")[0]!
      .trim();
  } catch {
    return "unavailable";
  }
};

/** "0.12 0.30 0.41": the 1, 5 and 15 minute load averages. */
export const loadNow = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/**
 * "fresh" the first time any bench runs since the machine booted (the page cache has not seen Chromium, ffmpeg
 * or the fixtures through a bench yet), "warm" after; recorded with a marker keyed by the kernel's boot id.
 */
const cacheState = (): "fresh" | "warm" => {
  let boot = "unknown";
  try {
    boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    // not Linux: every run counts as warm after the first in this temp dir
  }
  const marker = join(tmpdir(), `mrs-bench-${boot}`);
  if (existsSync(marker)) return "warm";
  writeFileSync(marker, new Date().toISOString());
  return "fresh";
};

/** The lines a bench prints first: machine, load, tool versions and cache state. */
export const conditions = (name: string): string => {
  const cores = cpus();
  const tools = [
    `node ${process.version}`,
    firstLine(DEFAULT_RENDER_TOOLS.ffmpegPath, ["-version"]).replace(/ Copyright.*/, ""),
    firstLine(DEFAULT_RENDER_TOOLS.chromiumPath, ["--version"]),
    // What draws gl-transitions: the native helper's GL (Mesa's llvmpipe and its version), or only the page.
    DEFAULT_RENDER_TOOLS.glTransitionPath
      ? `transitions on ${firstLine(DEFAULT_RENDER_TOOLS.glTransitionPath, ["--version"], glEnv())}`
      : "transitions on the WebGL page (the native helper is not built)",
  ];
  return [
    `${name} bench, ${new Date().toISOString()}`,
    `  machine: ${cores.length} cores (${cores[0]?.model.trim() ?? "unknown"}), load average ${loadNow()}, ${cacheState()} cache`,
    `  tools: ${tools.join("; ")}`,
  ].join("\n");
};

const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);

/** The q-quantile (0..1) by linear interpolation between the nearest ranks. */
export const quantile = (xs: readonly number[], q: number): number => {
  const s = sorted(xs);
  if (s.length === 0) return NaN;
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  return s[lo]! + (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!) * (at - lo);
};

export const median = (xs: readonly number[]): number => quantile(xs, 0.5);

/** "1.12x (p25 1.09, p75 1.15, min 1.05, max 1.31, n=9)": the median and the spread, never a best run. */
export const spread = (xs: readonly number[], unit = "x", digits = 2): string => {
  const f = (x: number) => x.toFixed(digits);
  const s = sorted(xs);
  return `${f(median(s))}${unit} (p25 ${f(quantile(s, 0.25))}, p75 ${f(quantile(s, 0.75))}, min ${f(s[0] ?? NaN)}, max ${f(s.at(-1) ?? NaN)}, n=${s.length})`;
};

/** The interquartile range relative to the median: how well `minRuns..maxRuns` pairs pin the ratio down. */
export const relativeIqr = (xs: readonly number[]): number =>
  (quantile(xs, 0.75) - quantile(xs, 0.25)) / Math.abs(median(xs));

export interface Interleaved<K extends string> {
  /** Milliseconds of each variant, one entry per round, in round order. */
  times: Record<K, number[]>;
  /** times[variant][i] / times[baseline][i]: the ratio of each round, both halves under the same load. */
  ratios: Record<K, number[]>;
  rounds: number;
}

/**
 * Runs every variant once per round, in rotating order (so no variant always goes first), after `warmup`
 * unmeasured rounds; stops after `minRounds` once the relative IQR of every ratio is under `targetIqr`, or at
 * `maxRounds`. Each variant returns nothing (its wall time is measured) or its own time in ms (for variants that
 * time themselves, such as a job's server clock).
 */
export const interleave = async <K extends string>(
  baseline: NoInfer<K>,
  variants: Record<K, () => Promise<number | void>>,
  opts: { warmup?: number; minRounds?: number; maxRounds?: number; targetIqr?: number } = {},
): Promise<Interleaved<K>> => {
  const { warmup = 2, minRounds = 5, maxRounds = 15, targetIqr = 0.05 } = opts;
  const names = Object.keys(variants) as K[];
  const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  const ratioOf = () =>
    Object.fromEntries(names.map((n) => [n, times[n].map((t, i) => t / times[baseline][i]!)])) as Record<
      K,
      number[]
    >;
  for (let round = 0; round < warmup + maxRounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]!);
    for (const name of order) {
      const t0 = performance.now();
      const own = await variants[name]();
      if (round >= warmup) times[name].push(typeof own === "number" ? own : performance.now() - t0);
    }
    const done = round - warmup + 1;
    if (done >= minRounds && names.every((n) => n === baseline || relativeIqr(ratioOf()[n]) <= targetIqr))
      break;
  }
  return { times, ratios: ratioOf(), rounds: times[baseline].length };
};

/** CPU ms (user + system) of this process and its ended children (ffmpeg, the GL helper). */
export const cpuNow = (): number => {
  const c = cpuTimes();
  return c ? c.selfMs + c.childrenMs : NaN;
};

/** Runs `fn`, pushing its CPU ms onto `into`. */
export const withCpu = async <T>(into: number[], fn: () => Promise<T>): Promise<T> => {
  const c0 = cpuNow();
  const r = await fn();
  into.push(cpuNow() - c0);
  return r;
};

/** Drops the warm-up rounds' entries that a variant's own bookkeeping recorded (`interleave` keeps the rest). */
export const measured = <T>(xs: T[], rounds: number): T[] => xs.slice(xs.length - rounds);

/**
 * CPU ms of the processes under `roots` (browsers, themselves included) by Chromium process type: the
 * `--utility-sub-type`'s last part, else `--type`, else `browser`. A zygote's children are renderers, so their time
 * counts as `renderer` when they end before the second reading (each html layer's page does): what the zygote
 * has reaped, and a child that has exited and not yet been reaped (its command line is empty by then).
 */
export const treeCpu = (roots: readonly number[]): Record<string, number> => {
  const procs = new Map<number, { ppid: number; own: number; reaped: number; type: string | null }>();
  for (const d of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    try {
      const st = readFileSync(`/proc/${d}/stat`, "utf8");
      const f = st.slice(st.lastIndexOf(")") + 2).split(" ");
      const cmd = readFileSync(`/proc/${d}/cmdline`, "utf8");
      const sub = /--utility-sub-type=([\w.]+)/.exec(cmd)?.[1]?.split(".").pop();
      const type = cmd === "" ? null : (sub ?? /--type=([\w-]+)/.exec(cmd)?.[1] ?? "browser");
      // utime, stime, cutime, cstime in ticks of 1/100 s
      const [u, s, cu, cs] = [11, 12, 13, 14].map((i) => Number(f[i]) * 10);
      procs.set(Number(d), { ppid: Number(f[1]), own: u! + s!, reaped: cu! + cs!, type });
    } catch {
      // the process ended while being read
    }
  }
  const under = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 10; hops++, p = procs.get(p)?.ppid ?? 0)
      if (roots.includes(p)) return true;
    return false;
  };
  const out: Record<string, number> = {};
  const add = (type: string, ms: number) => void (out[type] = (out[type] ?? 0) + ms);
  for (const [pid, p] of procs) {
    if (!under(pid)) continue;
    const type = p.type ?? (procs.get(p.ppid)?.type === "zygote" ? "renderer" : "exited");
    add(type, p.own);
    add(type === "zygote" ? "renderer" : type, p.reaped);
  }
  return out;
};
