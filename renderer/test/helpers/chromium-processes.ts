/**
 * The Chromium processes a renderer started, read from /proc: what each is (browser, renderer, gpu-process...),
 * which of the renderer's browsers it belongs to (the role in its private directory's name, launch-chromium.ts),
 * and the credentials it runs with.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export interface ChromiumProcess {
  pid: number;
  ppid: number;
  /**
   * `browser` for the main process, `crashpad` for its crash reporter, else Chromium's `--type` (`renderer`,
   * `gpu-process`, `zygote`, `utility`, `broker`).
   */
  type: string;
  /** `text`, `capture` or `gl`: its browser's `chromium-<role>-*` directory, or null when not named. */
  role: string | null;
  cmdline: string;
  uid: number;
  gid: number;
  groups: string;
  capEff: string;
  capBnd: string;
  noNewPrivs: boolean;
  /** 2 when a seccomp filter confines it (Chromium's sandbox). */
  seccomp: number;
  /** Depth of its PID namespace (1 = the host's; more inside Chromium's sandbox). */
  pidNamespaces: number;
  /**
   * Whether it is in this process's user namespace: capabilities held inside a namespace of Chromium's sandbox
   * are that namespace's only, and grant nothing over the host's files or processes.
   */
  hostUserNamespace: boolean;
  environ: string;
}

/** Debian's Chromium binaries (the crash reporter a browser starts included). */
const CHROMIUM_BINARIES = new Set(["chromium", "chromium-headless-shell", "chrome_crashpad_handler"]);

const field = (status: string, name: string): string =>
  new RegExp(`^${name}:[ \\t]*(.*)$`, "m").exec(status)?.[1]?.trim() ?? "";

/** Every process whose ancestry reaches `root` (not `root` itself) and that runs a Chromium binary. */
export const chromiumProcessesUnder = (root: number): ChromiumProcess[] => {
  const all = new Map<number, { ppid: number; cmdline: string }>();
  for (const d of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      all.set(Number(d), { ppid, cmdline: readFileSync(`/proc/${d}/cmdline`, "utf8").replaceAll("\0", " ") });
    } catch {
      // the process ended while being read
    }
  }
  const under = (pid: number): boolean => {
    for (let p = all.get(pid)?.ppid ?? 0, hops = 0; p > 1 && hops < 12; hops++, p = all.get(p)?.ppid ?? 0)
      if (p === root) return true;
    return false;
  };
  const out: ChromiumProcess[] = [];
  for (const [pid, p] of all) {
    const exe = (p.cmdline.split(" ")[0] ?? "").split("/").pop() ?? "";
    if (!CHROMIUM_BINARIES.has(exe) || !under(pid)) continue;
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const [uid, gid] = [field(status, "Uid"), field(status, "Gid")].map((l) => Number(l.split(/\s+/)[0]));
      out.push({
        pid,
        ppid: p.ppid,
        type:
          exe === "chrome_crashpad_handler"
            ? "crashpad"
            : (/--type=([\w-]+)/.exec(p.cmdline)?.[1] ?? "browser"),
        role: null,
        cmdline: p.cmdline,
        uid: uid!,
        gid: gid!,
        groups: field(status, "Groups"),
        capEff: field(status, "CapEff"),
        capBnd: field(status, "CapBnd"),
        noNewPrivs: field(status, "NoNewPrivs") === "1",
        seccomp: Number(field(status, "Seccomp")),
        pidNamespaces: field(status, "NSpid").split(/\s+/).length,
        hostUserNamespace: readlinkSync(`/proc/${pid}/ns/user`) === readlinkSync("/proc/self/ns/user"),
        environ: readFileSync(`/proc/${pid}/environ`, "utf8"),
      });
    } catch {
      // the process ended while being read
    }
  }
  // Children (renderers, the GPU process) name no directory: they are their browser's.
  const roleOf = (pid: number): string | null => {
    for (let p: number | undefined = pid, hops = 0; p && p > 1 && hops < 12; hops++, p = all.get(p)?.ppid) {
      const m = /chromium-([a-z]+)-\w+\/profile/.exec(all.get(p)?.cmdline ?? "");
      if (m) return m[1]!;
    }
    return null;
  };
  for (const c of out) c.role = roleOf(c.pid);
  return out;
};
